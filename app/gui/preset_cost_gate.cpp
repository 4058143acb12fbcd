#include "preset_cost_gate.hpp"

#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

#include "core/errors.hpp"
#include "core/registry.hpp"
#include "io/preset.hpp"
#include "iteration_time.hpp"
#include "speed_probe.hpp"

namespace ks::gui {

ExecutionContext preset_context(const Preset& preset, QString* fallback) {
  try {
    return resolve_backend(preset.backend.value_or(BackendRequest::Auto));
  } catch (const Error& e) {
    if (fallback) *fallback = QString("%1; running on the CPU instead").arg(e.what());
    return resolve_backend(BackendRequest::Cpu);
  }
}

PresetCostGate::PresetCostGate(SpeedProbe& probe, QWidget* dialog_parent) : probe_(probe), parent_(dialog_parent) {
  connect(&probe_, &SpeedProbe::finished, this, [this](const QString& method, bool measured) {
    if (!waiting_.open || !waiting_.preset || method.toStdString() != waiting_.preset->method) return;
    if (!measured) emit message(QString("could not measure this machine's speed for %1; opening without a time estimate").arg(method));
    decide();
  });
}

void PresetCostGate::request(const QString& path, std::function<void()> open) {
  waiting_ = {path, nullptr, {}, std::move(open)};
  try {
    waiting_.preset = std::make_shared<const Preset>(load_preset(path.toStdString(), builtin_registry()));
  } catch (const std::exception&) {
    decide();  // opening reports what is wrong with the preset
    return;
  }
  const Preset& preset = *waiting_.preset;
  waiting_.ctx = preset_context(preset);
  const bool teaching = QFileInfo(path).fileName().startsWith("teaching");
  if (!teaching && iteration_time(path, preset.method, preset.params, waiting_.ctx).seconds <= 0.0 &&
      probe_.measure(preset.method, waiting_.ctx)) {
    emit message(QString("measuring this machine's speed for %1 on %2 before opening %3 …")
                     .arg(QString::fromStdString(preset.method), QString::fromStdString(waiting_.ctx.device_name), path));
    return;
  }
  decide();
}

double PresetCostGate::askAbove(const IterationTime& t) {
  return t.ofAnotherSize() ? kAskAboveSeconds / kOtherSizeUncertainty : kAskAboveSeconds;
}

void PresetCostGate::decide() {
  Waiting w = std::exchange(waiting_, {});
  const IterationTime t = w.preset ? iteration_time(w.path, w.preset->method, w.preset->params, w.ctx) : IterationTime{};
  const ExecutionContext& ctx = w.ctx;
  if (t.seconds <= askAbove(t)) {
    w.open();
    return;
  }
  auto* box = new QMessageBox(QMessageBox::Question, "Start a long run?",
                              QString("%1\n\n%2.\n\nPause, Reset and switching presets stay within a second of a click.")
                                  .arg(QFileInfo(w.path).fileName(), iteration_time_text(t, ctx)),
                              QMessageBox::NoButton, parent_);
  box->setAttribute(Qt::WA_DeleteOnClose);
  QPushButton* start = box->addButton("Start", QMessageBox::AcceptRole);
  box->addButton(QMessageBox::Cancel);
  box->setDefaultButton(QMessageBox::Cancel);
  connect(box, &QMessageBox::finished, this, [this, box, start, w] {
    if (box->clickedButton() == start) w.open();
    else emit message(QString("%1 not opened").arg(w.path));
  });
  box->open();
}

}  // namespace ks::gui
