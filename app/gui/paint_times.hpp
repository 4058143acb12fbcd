// How long the field view's paints take in a script (paintGL: packing, uploads or device copies,
// draw calls, and the GPU finishing them), for the summary line's p50 and p99 against a 60 Hz frame
// (16.7 ms).
#pragma once

#include <QElapsedTimer>
#include <cstddef>
#include <vector>

#include "core/quantile.hpp"

namespace ks::gui {

class PaintTimes {
 public:
  void begin() { clock_.start(); }
  void end() {
    if (durations_ms_.size() < kKept) durations_ms_.push_back(double(clock_.nsecsElapsed()) * 1e-6);
  }
  std::size_t count() const { return durations_ms_.size(); }
  // The q-quantile (0.5: the median) of the recorded paints in ms; 0 without any.
  double quantile(double q) const { return ks::quantile(durations_ms_, q); }

 private:
  static constexpr std::size_t kKept = 100000;  // a long session's paints, 0.8 MB at most
  QElapsedTimer clock_;
  std::vector<double> durations_ms_;
};

}  // namespace ks::gui
