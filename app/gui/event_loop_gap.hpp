// The GUI thread's longest stall: a timer that should fire every kTickMs, and the longest time seen
// between two of its firings beyond that. A window that never blocks keeps it near the tick; work
// on the GUI thread (a solver step, a join, a long paint) shows up in it whole. A window's watch
// starts once its first frame is on screen: the first expose makes the OpenGL contexts of every view
// (about 80 ms under a software renderer), the window appearing rather than a stall while in use.
#pragma once

#include <QElapsedTimer>
#include <algorithm>
#include <functional>
#include <QObject>
#include <QTimer>
#include <QWidget>
#include <QWindow>

namespace ks::gui {

class EventLoopGap : public QObject {
 public:
  static constexpr int kTickMs = 5;

  explicit EventLoopGap(QObject* parent = nullptr) : QObject(parent) {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(kTickMs);
    connect(&timer_, &QTimer::timeout, this, [this] {
      const qint64 now = clock_.nsecsElapsed();
      if (last_ >= 0) longest_ns_ = std::max(longest_ns_, now - last_ - qint64(kTickMs) * 1000000);
      last_ = now;
    });
  }
  // Starts once `window` has been shown and its first expose handled, after `appearing` (the
  // window's own first-use work, counted as its appearing).
  void startAfterFirstFrame(QWidget* window, std::function<void()> appearing = {}) {
    window_ = window;
    appearing_ = std::move(appearing);
    window->installEventFilter(this);
  }
  // Starts (again) from no gap.
  void start() {
    longest_ns_ = 0;
    last_ = -1;
    clock_.start();
    timer_.start();
  }
  // The longest stall since start() in milliseconds, the tick itself not counted.
  double longestMs() const { return 1e-6 * double(longest_ns_); }
  double secondsWatched() const { return clock_.isValid() ? 1e-9 * double(clock_.nsecsElapsed()) : 0.0; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    // The top-level QWindow exists once the widget is shown: its expose is watched there.
    if (watched == window_ && event->type() == QEvent::Show && window_->windowHandle()) window_->windowHandle()->installEventFilter(this);
    if (window_ && watched == window_->windowHandle() && event->type() == QEvent::Expose && window_->windowHandle()->isExposed()) {
      window_->removeEventFilter(this);
      window_->windowHandle()->removeEventFilter(this);
      window_ = nullptr;
      QTimer::singleShot(0, this, [this] {  // after the expose's paint
        if (appearing_) appearing_();
        start();
      });
    }
    return false;
  }

 private:
  QWidget* window_ = nullptr;
  std::function<void()> appearing_;
  QTimer timer_;
  QElapsedTimer clock_;
  qint64 last_ = -1, longest_ns_ = 0;
};

}  // namespace ks::gui
