// Set-up arrays of gigabytes made a block at a time, so that a stop request (core/interrupt.hpp)
// is answered within a block (throwing Interrupted) and the stage reports how far the filling is:
// a single assign() of a few GB takes seconds on two cores and could not be cancelled. Each block
// is filled by every OpenMP thread: the pages are first touched in parallel (half the set-up time
// on two cores), and a set-up keeps every core as busy as the run will (on a virtual machine a
// core left idle beside one busy set-up thread woke late for the window: 100-350 ms stalls).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "host_array.hpp"
#include "interrupt.hpp"

namespace ks {

inline constexpr std::size_t kFillBlock = std::size_t(1) << 22;  // elements between two checks

// Calls fill(first, end) for consecutive blocks of [0, n), checking `stop` and reporting before each.
template <class Fill>
void in_blocks(std::size_t n, const Interrupt& stop, const std::string& stage, Fill fill) {
  for (std::size_t first = 0; first < n; first += kFillBlock) {
    stop.throw_if_requested();
    stop.report(stage, double(first) / double(n));
    fill(first, std::min(n, first + kFillBlock));
  }
}

// n elements, element k = at(k), which may be called from any thread.
template <class T, class At>
HostArray<T> make_interruptibly(std::size_t n, At at, const Interrupt& stop, const std::string& stage) {
  HostArray<T> v(n);
  in_blocks(n, stop, stage, [&](std::size_t first, std::size_t end) {
#pragma omp parallel for schedule(static)
    for (std::size_t k = first; k < end; ++k) v[k] = at(k);
  });
  return v;
}

// n copies of `value`.
template <class T>
HostArray<T> filled_interruptibly(std::size_t n, T value, const Interrupt& stop, const std::string& stage) {
  return make_interruptibly<T>(
      n, [value](std::size_t) { return value; }, stop, stage);
}

}  // namespace ks
