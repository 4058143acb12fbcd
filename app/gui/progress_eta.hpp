// The time left of a run from its progress toward the end condition (Progress::fraction_done: t_end,
// the ray count, max steps): the rate over the last samples, refreshed as the run goes, so a run
// that slows down or is paused says so.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <utility>

namespace ks::gui {

class ProgressEta {
 public:
  // The fraction done at `seconds` (any clock that only goes forward). A fraction below the last one
  // (a reset) starts over.
  void add(double seconds, double fraction);
  void clear() { samples_.clear(); }
  // Seconds to the end at the recent rate; none before two samples at least 1 s apart, or without
  // progress in the window.
  std::optional<double> seconds_left() const;

 private:
  static constexpr double kWindow = 20.0;  // seconds of samples the rate is taken over
  std::deque<std::pair<double, double>> samples_;
};

// "45 s", "3 min 05 s", "2 h 10 min".
std::string format_duration(double seconds);

}  // namespace ks::gui
