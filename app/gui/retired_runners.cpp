#include "retired_runners.hpp"

#include <algorithm>
#include <functional>

namespace ks::gui {

RetiredRunners::~RetiredRunners() {
  for (Ending& e : ending_) e.thread.join();
}

void RetiredRunners::retire(std::unique_ptr<Runner> runner) {
  join_done();
  if (!runner) return;
  auto done = std::make_shared<std::atomic<bool>>(false);
  ending_.push_back({std::thread([r = std::move(runner), done]() mutable {
                       r.reset();
                       done->store(true);
                     }),
                     done});
}

int RetiredRunners::ending() const { return int(std::count_if(ending_.begin(), ending_.end(), std::mem_fn(&Ending::still_ending))); }

void RetiredRunners::join_done() {
  auto finished = std::partition(ending_.begin(), ending_.end(), std::mem_fn(&Ending::still_ending));
  for (auto it = finished; it != ending_.end(); ++it) it->thread.join();
  ending_.erase(finished, ending_.end());
}

}  // namespace ks::gui
