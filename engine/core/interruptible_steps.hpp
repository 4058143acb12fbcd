// The time-step loop of an iteration that a stop request (core/interrupt.hpp) may end early: the
// lattice and BGK methods step `chunk` steps a call (one on the CPU, where a step takes long enough
// to say which one runs; the whole iteration on the GPU, which paces itself) and report each.
#pragma once

#include <algorithm>
#include <string>

#include "interrupt.hpp"

namespace ks {

// Steps from `done` on toward `until` of an iteration of `total` steps through step(n), which makes
// at most n steps and returns how many it made (0: it stopped); returns the steps done then.
template <class Step>
int step_until(int done, int until, int total, int chunk, const Interrupt& stop, Step step) {
  while (done < until && !stop.requested()) {
    stop.report("step " + std::to_string(done + 1) + " of " + std::to_string(total), double(done) / total);
    const int ran = step(std::min(chunk, until - done));
    done += ran;
    if (ran == 0) break;
  }
  return done;
}

}  // namespace ks
