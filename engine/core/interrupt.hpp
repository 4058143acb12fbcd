// The Runner's hold on a method's long work. A command waiting on the worker (pause, reset, a live
// change, quit, a preset switch) asks the running set-up or iteration to stop early, and the work
// reports how far it has got for the window's progress bar.
//   - advance() stops at its next consistent point (between steps, sweeps, batches or event chunks),
//     ends the iteration there as a shorter one, and leaves a complete state: snapshots, checkpoints
//     and exports see no half-done step.
//   - set-up throws Interrupted between its stages; MethodBase then keeps the previous set-up.
// A default Interrupt (tests, benchmarks, the Python module) is never requested and reports nowhere.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace ks {

// Thrown by a set-up that stopped on request; never a failure of the run.
class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted on request") {}
};

// Where long work has got to: a stage ("packing spheres") and its fraction done in [0, 1].
struct WorkStage {
  std::string stage;
  double fraction = 0.0;
};

class Interrupt {
 public:
  Interrupt() = default;
  // One the Runner controls (request(), clear()) and reads (stage()).
  static Interrupt make() {
    Interrupt i;
    i.shared_ = std::make_shared<Shared>();
    return i;
  }

  // Whether a Runner holds it (work may pace itself to see a request in time, as a GPU loop that
  // waits for the device now and then); false for a default one.
  bool armed() const { return shared_ != nullptr; }
  bool requested() const { return shared_ && shared_->stop.load(std::memory_order_relaxed); }
  void throw_if_requested() const {
    if (requested()) throw Interrupted();
  }
  void report(std::string stage, double fraction) const {
    if (!shared_) return;
    std::lock_guard lock(shared_->mutex);
    shared_->where = {std::move(stage), fraction};
  }

  void request() const {
    if (shared_) shared_->stop.store(true, std::memory_order_relaxed);
  }
  // Before new work: no request pending, no stage shown.
  void clear() const {
    if (!shared_) return;
    shared_->stop.store(false, std::memory_order_relaxed);
    std::lock_guard lock(shared_->mutex);
    shared_->where = {};
  }
  WorkStage stage() const {
    if (!shared_) return {};
    std::lock_guard lock(shared_->mutex);
    return shared_->where;
  }

 private:
  struct Shared {
    std::atomic<bool> stop{false};
    std::mutex mutex;
    WorkStage where;
  };
  std::shared_ptr<Shared> shared_;  // copies of a context share the Runner's
};

}  // namespace ks
