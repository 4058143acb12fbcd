// kinetic.dvm's parameters as the method reads them, and the table that binds each key.
#pragma once

#include <cstdint>

#include "core/param_table.hpp"
#include "dvm_config.hpp"

namespace ks::dvm {

struct DvmParams {
  Case problem = Case::Cavity;    // key "case"
  double kn = 1.0;                // live
  double lid_speed = 0.0;         // v_m, live
  double mach = 0.0;              // live
  double wall_temperature = 0.0;  // K, live
  double gas_temperature = 0.0;   // K: T_ref
  int nx = 0, ny = 0, nz = 0;
  int body_cells = 0;
  int nv = 0;
  double v_max = 0.0;  // v_m
  double omega = 0.0;
  std::int64_t batch = 0;
  bool single = true;  // key "precision": fp32 (true) or fp64
  int strip = 0;
  double tolerance = 0.0;  // live
  int max_iterations = 0;  // live
};

const ParamTable<DvmParams>& dvm_param_table();
// The table param_key(&DvmParams::member) reads (core/param_table.hpp).
inline const ParamTable<DvmParams>& param_table_of(const DvmParams*) { return dvm_param_table(); }

}  // namespace ks::dvm
