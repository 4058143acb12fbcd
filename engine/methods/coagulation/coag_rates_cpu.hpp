// The CPU event loop of the selections that keep every particle's C' (Wei & Kruis 2013, section 2,
// smart bookkeeping of eq. 6): the paper's inverse transform (prefix) and acceptance-rejection
// (coag_rejection.hpp). The reference path of the method.
#pragma once

#include <cstdint>

#include "coag_ensemble.hpp"
#include "core/interrupt.hpp"

namespace ks::coag {

// advance_run_cpu() (coag_cpu.hpp) with selection prefix and rejection. Deterministic: the same for
// any thread count.
std::uint64_t advance_run_prefix_cpu(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                                     const Interrupt& stop);
std::uint64_t advance_run_rejection_cpu(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                                        const Interrupt& stop);

// Index k with prefix(k-1) <= target < prefix(k) over values[0..n); the last positive one
// when rounding leaves target at or past the total (eq. 5a/5b).
int select_by_cumulative(const double* values, int n, double target);

}  // namespace ks::coag
