// A quick measurement of a method's speed on this machine, for the time estimates of its presets
// (iteration_time.hpp): its teaching preset runs for about half a second at low priority, and the
// rate it reaches is recorded. One probe at a time; the GUI thread only polls it.
#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <string>

#include "core/backend.hpp"

class QTimer;

namespace ks::gui {

class RetiredRunners;

class SpeedProbe : public QObject {
  Q_OBJECT
 public:
  // Runners that end are handed to `retired` (it outlives the probe).
  SpeedProbe(QString preset_dir, RetiredRunners& retired, QObject* parent = nullptr);
  ~SpeedProbe() override;

  // Starts measuring `method` on `ctx` (a probe under way is given up); false where the method has no
  // teaching preset to measure with, or it cannot be loaded.
  bool measure(const std::string& method, const ExecutionContext& ctx);
  bool busy() const;

 signals:
  // The probe of `method` ended: `measured` false when it failed or took too long.
  void finished(const QString& method, bool measured);

 private:
  struct Probe;
  void poll();
  void end(bool measured);

  QString preset_dir_;
  RetiredRunners& retired_;
  std::unique_ptr<Probe> probe_;
  QTimer* timer_;
};

}  // namespace ks::gui
