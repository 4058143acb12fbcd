// aerosol.coagulation's parameters as the method reads them, and the table that binds each key.
#pragma once

#include <cstdint>

#include "core/param_table.hpp"
#include "coag_selection.hpp"
#include "coag_model.hpp"

namespace ks::coag {

struct CoagParams {
  KernelKind kernel = KernelKind::FreeMolecular;
  int n_s = 0;                 // simulation particles per run
  int n_runs = 0;              // runs in the ensemble (live)
  double t_end = 0.0;          // tau_char (live)
  int outputs_per_decade = 0;  // log-spaced output times from 0.01 tau_char
  double d0 = 0.0;             // nm
  double sigma_g0 = 1.0;
  double N0 = 0.0;              // 1/m^3
  double T = 0.0;               // K
  double rho_p = 0.0;           // kg/m^3
  double K = 0.0;               // constant kernel, m^3/s
  double B = 0.0;               // additive kernel, 1/s
  double gas_viscosity = 0.0;   // Pa s
  double mean_free_path = 0.0;  // nm
  std::int64_t seed = 0;
  Selection selection = Selection::Prefix;
  double step_fraction = 0.0;  // selection = stepped: trials a step / n_s
};

const ParamTable<CoagParams>& coag_param_table();
// The table param_key(&CoagParams::member) reads (core/param_table.hpp).
inline const ParamTable<CoagParams>& param_table_of(const CoagParams*) { return coag_param_table(); }

}  // namespace ks::coag
