#include "progress_eta.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ks::gui {

void ProgressEta::add(double seconds, double fraction) {
  if (!samples_.empty() && fraction < samples_.back().second) samples_.clear();
  samples_.emplace_back(seconds, fraction);
  while (samples_.size() > 2 && seconds - samples_[1].first >= kWindow) samples_.pop_front();
}

std::optional<double> ProgressEta::seconds_left() const {
  if (samples_.size() < 2) return std::nullopt;
  const auto& [t0, f0] = samples_.front();
  const auto& [t1, f1] = samples_.back();
  if (t1 - t0 < 1.0 || f1 <= f0) return std::nullopt;
  return (1.0 - f1) * (t1 - t0) / (f1 - f0);
}

std::string format_duration(double seconds) {
  char text[32];
  const long s = std::lround(std::max(0.0, seconds));
  if (s < 60) std::snprintf(text, sizeof text, "%ld s", s);
  else if (s < 3600) std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, s % 3600 / 60);
  return text;
}

}  // namespace ks::gui
