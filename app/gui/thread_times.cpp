#include "thread_times.hpp"

#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

namespace ks::gui {

ThreadTimes this_thread_times() {
  ThreadTimes t;
  timespec cpu{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu) == 0) t.cpu_ns = std::int64_t(cpu.tv_sec) * 1000000000 + cpu.tv_nsec;
#ifdef __linux__
  // "run_ns wait_ns timeslices": the second is the time spent runnable on a run queue.
  thread_local const int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  char text[96];
  const ssize_t n = fd >= 0 ? pread(fd, text, sizeof text - 1, 0) : -1;
  if (n > 0) {
    text[n] = '\0';
    long long run = 0, wait = 0;
    if (std::sscanf(text, "%lld %lld", &run, &wait) == 2) t.runqueue_ns = wait;
  }
#endif
  return t;
}

}  // namespace ks::gui
