// aerosol.coagulation: the parameter table's values as an ensemble's configuration.
#pragma once

#include <cstdint>

#include "coag_model.hpp"
#include "coag_selection.hpp"

namespace ks::coag {

struct EnsembleConfig {
  int n_s = 0;              // simulation particles per run (constant, see coalesce())
  double box_volume = 0.0;  // V, m^3: sum(w) / V is the number concentration
  KernelParams kernel;
  std::uint64_t seed = 0;
  // Recompute every C'_k from eq. (2) after this many events (bounds round-off drift); with the
  // majorant, rebuild its samplers instead.
  std::int64_t refresh_every = 0;
  Selection selection = Selection::Prefix;
  int step_trials = 1;  // selection = stepped: trials a step (K)
  // The ensemble's index of this Ensemble's run 0 (a rank's first run under MPI): run r draws from
  // the stream of run first_run + r, so a run's events do not depend on how runs are shared.
  int first_run = 0;
};

struct CoagParams;
// The ensemble of `p` (first_run 0: a rank sets its share of the runs); refuses a selection that has
// no bound for the kernel (coag_selection.hpp: supports).
EnsembleConfig make_config(const CoagParams& p);

}  // namespace ks::coag
