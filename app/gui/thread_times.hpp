// Where the calling thread's time went, for splitting a stall of the GUI thread: the CPU time it
// used (its own work: painting, a join) and, on Linux, the time it waited runnable for a core
// (other threads or processes had them). The rest of a stall the thread was blocked (waiting for
// a lock, the GL driver's threads or the X server) or its virtual CPU was not running.
#pragma once

#include <cstdint>

namespace ks::gui {

struct ThreadTimes {
  std::int64_t cpu_ns = 0;
  std::int64_t runqueue_ns = -1;  // -1 where the system does not say (/proc/thread-self/schedstat)
};

ThreadTimes this_thread_times();

}  // namespace ks::gui
