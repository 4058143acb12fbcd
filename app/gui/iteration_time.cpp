#include "iteration_time.hpp"

#include <QFileInfo>
#include <QSettings>
#include <cmath>

#include "core/backend.hpp"
#include "core/registry.hpp"
#include "settings_writer.hpp"

namespace ks::gui {

namespace {

// QSettings keys take '/' as groups: a device name or a path is one key.
QString key_part(QString text) { return text.replace('/', '|').replace('\\', '|'); }
QString rate_key(const QString& kind, const QString& name, const ExecutionContext& ctx) {
  return "iteration_time/" + key_part(QString::fromStdString(ctx.device_name)) + "/" + kind + "/" + key_part(name);
}
double cost_of(const std::string& method, const ParamSet& params) {
  try {
    return builtin_registry().create(method)->iteration_cost(params);
  } catch (const std::exception&) {
    return 0.0;  // a preset the method refuses has no time: its error shows where it is loaded
  }
}

// Rates are kept per decade of cost: an estimate takes the rate of runs of the nearest size.
int cost_decade(double cost) { return int(std::floor(std::log10(cost))); }

// A timed run as the settings keep it, {rate, cost}: its cost a second and its cost (0 where unset).
struct TimedRun {
  double rate = 0.0, cost = 0.0;
  bool valid() const { return rate > 0.0 && cost > 0.0; }
};
TimedRun timed_run(const QVariant& stored) {
  const QVariantList l = stored.toList();
  return l.size() == 2 ? TimedRun{l[0].toDouble(), l[1].toDouble()} : TimedRun{};
}

// An estimate's duration, rounded as an estimate is: "Under a second", "About 45 s", "About 28 min",
// "About 2.5 h" (the progress bar's time left, format_duration, counts down to the second).
QString duration_text(double seconds) {
  if (seconds < 1.0) return "Under a second";
  if (seconds < 90.0) return QString("About %1 s").arg(std::lround(seconds));
  if (seconds < 5400.0) return QString("About %1 min").arg(std::lround(seconds / 60.0));
  return QString("About %1 h").arg(seconds / 3600.0, 0, 'f', 1);
}

void record_rate(QSettings& settings, const QString& path, const std::string& method, const ParamSet& params, const ExecutionContext& ctx,
                 std::int64_t iterations, double seconds) {
  const double cost = cost_of(method, params);
  if (cost <= 0.0 || iterations <= 0 || seconds <= 0.0) return;
  const QVariantList run{cost * double(iterations) / seconds, cost};  // read back by timed_run
  if (!path.isEmpty()) settings.setValue(rate_key("preset", QFileInfo(path).canonicalFilePath(), ctx), run);
  settings.setValue(rate_key("method", QString::fromStdString(method), ctx) + "/" + QString::number(cost_decade(cost)), run);
}

}  // namespace

IterationTime iteration_time(const QString& path, const std::string& method, const ParamSet& params, const ExecutionContext& ctx) {
  const double cost = cost_of(method, params);
  if (cost <= 0.0) return {};
  QSettings settings;
  if (!path.isEmpty()) {  // the preset's own runs, where they were of its size (not with n_s set 100 times smaller)
    const TimedRun own = timed_run(settings.value(rate_key("preset", QFileInfo(path).canonicalFilePath(), ctx)));
    if (own.valid() && cost_decade(own.cost) == cost_decade(cost)) return {cost / own.rate, true, 1.0};
  }
  // The method's rate from runs of the nearest size: a lattice that fits in a cache runs faster.
  settings.beginGroup(rate_key("method", QString::fromStdString(method), ctx));
  const int decade = cost_decade(cost);
  const QStringList decades = settings.childKeys();
  if (decades.isEmpty()) return {};
  QString nearest = decades.front();
  for (const QString& key : decades)
    if (std::abs(key.toInt() - decade) < std::abs(nearest.toInt() - decade)) nearest = key;
  const TimedRun run = timed_run(settings.value(nearest));  // the runs of the nearest size
  if (!run.valid()) return {};
  return {cost / run.rate, false, cost / run.cost};
}

void record_iteration_time(const QString& path, const std::string& method, const ParamSet& params, const ExecutionContext& ctx,
                           std::int64_t iterations, double seconds) {
  QSettings settings;
  record_rate(settings, path, method, params, ctx, iterations, seconds);
}

void record_iteration_time_in_background(const QString& path, const std::string& method, const ParamSet& params,
                                         const ExecutionContext& ctx, std::int64_t iterations, double seconds, QObject* context,
                                         std::function<void()> written) {
  write_settings_later([=](QSettings& settings) { record_rate(settings, path, method, params, ctx, iterations, seconds); }, context,
                       std::move(written));
}

QString iteration_time_text(const IterationTime& t, const ExecutionContext& ctx) {
  const QString device = QString::fromStdString(ctx.device_name);
  if (t.seconds <= 0.0) return "Time an iteration on " + device + ": not measured yet (measured when a preset of this method is opened)";
  QString basis = "measured in runs of this preset here";
  if (!t.measured)
    basis = !t.ofAnotherSize() ? "estimated from runs of this method of about its size here"
                               : QString("estimated from runs of this method %1 times %2 here; larger runs are often slower per cell")
                                     .arg(std::lround(t.scale >= 1.0 ? t.scale : 1.0 / t.scale))
                                     .arg(t.scale >= 1.0 ? "smaller" : "larger");
  return QString("%1 an iteration on %2 (%3)").arg(duration_text(t.seconds), device, basis);
}

}  // namespace ks::gui
