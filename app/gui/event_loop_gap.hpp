// The GUI thread's longest stall: a timer that should fire every kTickMs, and the longest time seen
// between two of its firings beyond that. A window that never blocks keeps it near the tick; work
// on the GUI thread (a solver step, a join, a long paint) shows up in it whole. A window's watch
// starts once its first frame is on screen: the first expose makes the OpenGL contexts of every view
// (about 80 ms under a software renderer), the window appearing rather than a stall while in use.
// The longest stall is split by ThreadTimes: the GUI thread's own CPU time in it, the time it
// waited runnable for a core, and the rest (blocked, or the virtual CPU stolen). On this
// project's 2-core virtual machine the longest stalls were mostly time asleep in the event loop's
// poll (perf's sched_switch stacks, 2026-11-30) while neither core switched task: a bare timer
// process wakes as late while processes touch fresh memory (bench/timer_floor.py).
#pragma once

#include <QElapsedTimer>
#include <algorithm>
#include <functional>
#include <QObject>
#include <QTimer>
#include <QWidget>
#include <QWindow>

#include "thread_times.hpp"

namespace ks::gui {

class EventLoopGap : public QObject {
 public:
  // The longest stall and its parts, in milliseconds (runqueue_ms < 0: not known here).
  struct Stall {
    double ms = 0, gui_cpu_ms = 0, runqueue_ms = -1;
  };

  static constexpr int kTickMs = 5;

  explicit EventLoopGap(QObject* parent = nullptr) : QObject(parent) {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(kTickMs);
    connect(&timer_, &QTimer::timeout, this, [this] {
      const qint64 now = clock_.nsecsElapsed();
      const ThreadTimes times = this_thread_times();
      const qint64 gap = now - last_ - qint64(kTickMs) * 1000000;
      if (last_ >= 0 && 1e-6 * double(gap) > longest_.ms) {
        longest_ = {1e-6 * double(gap), 1e-6 * double(times.cpu_ns - last_times_.cpu_ns),
                    times.runqueue_ns < 0 ? -1.0 : 1e-6 * double(times.runqueue_ns - last_times_.runqueue_ns)};
      }
      last_ = now;
      last_times_ = times;
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
    longest_ = {};
    last_ = -1;
    clock_.start();
    timer_.start();
  }
  // The longest stall since start() in milliseconds, the tick itself not counted.
  double longestMs() const { return longest_.ms; }
  Stall longest() const { return longest_; }
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
  qint64 last_ = -1;
  ThreadTimes last_times_;
  Stall longest_;
};

}  // namespace ks::gui
