// Keeps a view from redrawing more often than an interval: a snapshot that arrives while
// the interval runs waits (only the newest is kept) and is drawn when it ends. A view that is
// not shown holds its snapshots (setHeld) and draws the newest when it is shown again: a hidden
// tab costs the GUI thread nothing.
#pragma once

#include <QTimer>
#include <functional>
#include <memory>

#include "core/method.hpp"

namespace ks::gui {

class SnapshotThrottle {
 public:
  SnapshotThrottle(int interval_ms, std::function<void()> draw) : draw_(std::move(draw)) {
    timer_.setSingleShot(true);
    timer_.setInterval(interval_ms);
    QObject::connect(&timer_, &QTimer::timeout, [this] {
      if (!held_) flush();
    });
  }
  // Draws at once when idle; otherwise keeps it as the one to draw next.
  void offer(std::shared_ptr<const Snapshot> snapshot) {
    pending_ = std::move(snapshot);
    if (!timer_.isActive() && !held_) flush();
  }
  // While held, snapshots wait; released, the newest is drawn at once.
  void setHeld(bool held) {
    held_ = held;
    if (!held_) flush();
  }
  // Draws the waiting snapshot now, if any (screenshots show the newest data).
  void flush() {
    if (!pending_) return;
    current_ = std::move(pending_);  // leaves pending_ empty
    draw_();
    timer_.start();
  }
  const std::shared_ptr<const Snapshot>& current() const { return current_; }
  // Drops the drawn and the waiting snapshot (another simulation's come next).
  void clear() {
    current_.reset();
    pending_.reset();
  }

 private:
  QTimer timer_;
  std::function<void()> draw_;
  std::shared_ptr<const Snapshot> current_;  // the one drawn
  std::shared_ptr<const Snapshot> pending_;  // the newest not yet drawn
  bool held_ = false;
};

}  // namespace ks::gui
