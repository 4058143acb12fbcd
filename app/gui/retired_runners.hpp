// Runners the window has let go of (a preset switch, a replaced pending set-up, quit) end on threads
// of their own: a Runner's destructor waits for its worker, which stops at the method's next
// consistent point (core/interrupt.hpp), and the GUI thread never waits for that.
#pragma once

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "run/runner.hpp"

namespace ks::gui {

class RetiredRunners {
 public:
  RetiredRunners() = default;
  RetiredRunners(const RetiredRunners&) = delete;
  RetiredRunners& operator=(const RetiredRunners&) = delete;
  // Waits for those still ending (after the window has closed: within a fraction of a second each).
  ~RetiredRunners();

  // Asks `runner` to stop at once and destroys it on a thread of its own; null is ignored.
  void retire(std::unique_ptr<Runner> runner);
  // How many are still ending.
  int ending() const;

 private:
  struct Ending {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
    bool still_ending() const { return !done->load(); }
  };
  void join_done();
  std::vector<Ending> ending_;
};

}  // namespace ks::gui
