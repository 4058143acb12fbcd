// Cost before commitment: a preset the user opens that would take over a minute an iteration on this
// machine asks before it starts, saying how long and on what (iteration_time.hpp). Where its method's
// speed is not known here yet, a speed probe measures it first (about a second); teaching presets
// open at once.
#pragma once

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

#include "core/backend.hpp"

class QWidget;

namespace ks {
struct Preset;
}

namespace ks::gui {

class SpeedProbe;
struct IterationTime;

// The backend a preset asks for, or the CPU where that cannot run here (`fallback` says why).
ExecutionContext preset_context(const Preset& preset, QString* fallback = nullptr);

class PresetCostGate : public QObject {
  Q_OBJECT
 public:
  static constexpr double kAskAboveSeconds = 60.0;
  // An estimate from runs of another size (IterationTime::ofAnotherSize) may be several times short:
  // on 2 cores the BGK delta-10 cavity took 4.4 times its estimate from the teaching cavity (170 s
  // against 39 s an iteration).
  static constexpr double kOtherSizeUncertainty = 4.0;
  // The estimate above which the user is asked first.
  static double askAbove(const IterationTime& t);

  PresetCostGate(SpeedProbe& probe, QWidget* dialog_parent);
  // Calls `open` now, once the probe has measured, or once the user agrees; never when the user
  // declines. A newer request replaces one still waiting for its probe.
  void request(const QString& path, std::function<void()> open);

 signals:
  void message(const QString& text);  // for the log: what is measured, what was declined

 private:
  void decide();
  struct Waiting {
    QString path;
    std::shared_ptr<const Preset> preset;  // null where it does not load (opening says why)
    ExecutionContext ctx;                  // the preset's backend here
    std::function<void()> open;
  };
  SpeedProbe& probe_;
  QWidget* parent_;
  Waiting waiting_;
};

}  // namespace ks::gui
