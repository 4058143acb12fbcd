// The field view's frame rate for its overlay: the paints recorded within the last second.
#pragma once

#include <QElapsedTimer>
#include <algorithm>
#include <deque>

namespace ks::gui {

class FrameRate {
 public:
  FrameRate() { clock_.start(); }
  void record() {
    const qint64 now = clock_.elapsed();
    frame_times_ms_.push_back(now);
    while (frame_times_ms_.front() <= now - 1000) frame_times_ms_.pop_front();
  }
  double perSecond() const {
    const qint64 since = clock_.elapsed() - 1000;
    return double(std::count_if(frame_times_ms_.begin(), frame_times_ms_.end(), [since](qint64 t) { return t > since; }));
  }

 private:
  QElapsedTimer clock_;
  std::deque<qint64> frame_times_ms_;  // paints within the last second
};

}  // namespace ks::gui
