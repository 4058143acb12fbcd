// The CPU solver of aerosol.coagulation: each run advanced by its selection's loop (coag_selection.hpp),
// runs in parallel over the threads.
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

}  // namespace ks::coag
