#include "speed_probe.hpp"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QTimer>

#include "core/registry.hpp"
#include "io/preset.hpp"
#include "iteration_time.hpp"
#include "retired_runners.hpp"
#include "run/runner.hpp"

namespace ks::gui {

namespace {
constexpr double kMeasureSeconds = 0.5;  // of iterations, set-up excluded
constexpr int kGiveUpMs = 20000;         // set-up included

// The method's teaching preset (teaching*.json under dir), or none.
std::unique_ptr<Preset> teaching_preset(const QString& dir, const std::string& method) {
  QDirIterator it(dir, {"teaching*.json"}, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    try {
      auto p = std::make_unique<Preset>(load_preset(it.next().toStdString(), builtin_registry()));
      if (p->method == method) return p;
    } catch (const std::exception&) {
      // a broken preset is listed with its error in the browser; another may serve
    }
  }
  return nullptr;
}
}  // namespace

struct SpeedProbe::Probe {
  std::string method;
  ParamSet params;
  ExecutionContext ctx;
  std::unique_ptr<Runner> runner;
  QElapsedTimer clock;
};

SpeedProbe::SpeedProbe(QString preset_dir, RetiredRunners& retired, QObject* parent)
    : QObject(parent), preset_dir_(std::move(preset_dir)), retired_(retired), timer_(new QTimer(this)) {
  timer_->setInterval(100);
  connect(timer_, &QTimer::timeout, this, &SpeedProbe::poll);
}

SpeedProbe::~SpeedProbe() {
  if (probe_) retired_.retire(std::move(probe_->runner));
}

bool SpeedProbe::busy() const { return probe_ != nullptr; }

bool SpeedProbe::measure(const std::string& method, const ExecutionContext& ctx) {
  if (probe_) retired_.retire(std::move(std::exchange(probe_, nullptr)->runner));
  std::unique_ptr<Preset> preset = teaching_preset(preset_dir_, method);
  if (!preset) return false;
  RunnerOptions options;
  options.yield_to_gui = true;
  probe_ = std::make_unique<Probe>(Probe{method, preset->params, ctx, nullptr, {}});
  probe_->runner = std::make_unique<Runner>(builtin_registry().create(method), preset->params, ctx, options);
  probe_->runner->start();
  probe_->clock.start();
  timer_->start();
  return true;
}

void SpeedProbe::poll() {
  if (!probe_) return;
  Runner& r = *probe_->runner;
  const RunState state = r.state();
  const std::int64_t iterations = r.progress().iteration;
  const bool enough = iterations > 0 && (r.iteration_seconds() >= kMeasureSeconds || state == RunState::Finished);
  if (enough) {
    // Written now, not later on the settings thread: the cost gate reads the estimate at once (end).
    record_iteration_time("", probe_->method, r.params(), probe_->ctx, iterations, r.iteration_seconds());
    end(true);
  } else if (state == RunState::Failed || state == RunState::Finished || probe_->clock.elapsed() > kGiveUpMs) {
    end(false);
  }
}

void SpeedProbe::end(bool measured) {
  timer_->stop();
  const QString method = QString::fromStdString(probe_->method);
  retired_.retire(std::move(std::exchange(probe_, nullptr)->runner));
  emit finished(method, measured);
}

}  // namespace ks::gui
