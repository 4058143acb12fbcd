// aerosol.coagulation: the parameter table's values as an ensemble's configuration.
#pragma once

#include "coag_ensemble.hpp"

namespace ks::coag {

struct CoagParams;
// The ensemble of `p` (first_run 0: a rank sets its share of the runs); the one place `selection`
// is checked against the kernel: refuses a selection that has no bound for it.
EnsembleConfig make_config(const CoagParams& p);

}  // namespace ks::coag
