// The inverse Monte Carlo event loop with smart bookkeeping on the CPU
// (Wei & Kruis 2013, section 2): the reference path of the method.
#pragma once

#include <cstdint>
#include <vector>

#include "core/interrupt.hpp"
#include "coag_ensemble.hpp"

namespace ks::coag {

// Advances run r by events until the next event would pass t_target or max_events is
// reached, or `stop` is requested (checked before every event: the run stands after its last event);
// returns the number of events done. Deterministic: the same for any thread count.
std::uint64_t advance_run_cpu(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                              const Interrupt& stop = {});

// Advances every run to its own target (runs in parallel when there are several).
std::uint64_t advance_runs_cpu(Ensemble& e, const EnsembleConfig& cfg, const std::vector<double>& t_target,
                               std::uint64_t max_events_per_run, const Interrupt& stop = {});

// Index k with prefix(k-1) <= target < prefix(k) over values[0..n); the last positive one
// when rounding leaves target at or past the total (eq. 5a/5b).
int select_by_cumulative(const double* values, int n, double target);

}  // namespace ks::coag
