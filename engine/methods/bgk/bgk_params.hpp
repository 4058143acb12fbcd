// kinetic.bgk's parameters as the method reads them, and the table that binds each key.
#pragma once

#include "bgk_config.hpp"
#include "bgk_solver.hpp"
#include "core/param_table.hpp"

namespace ks::bgk {

struct BgkParams {
  Case problem = Case::Shock;  // key "case"
  double mach = 0.0;           // shock, live
  double length = 0.0;         // shock: L, upstream mean free paths
  double delta = 0.0;          // cavity, live
  double lid_speed = 0.0;      // cavity, v_ref, live
  int nx = 0, ny = 0, nv = 0;
  double vx_min = 0.0, vx_max = 0.0, vt_max = 0.0;  // v_ref
  double dt = 0.0;                                  // 1/nu_ref, live
  double courant = 0.0;                             // live; > 0 sets dt
  Streaming streaming = Streaming::Unsplit;         // cavity, live
  double omega = 0.0;
  bool conservative = false;                 // live
  double t_end = 0.0;                        // 1/nu_ref, live
  double tolerance = 0.0;                    // live
  int steps_per_iteration = 0;               // live
  StepVariant variant = StepVariant::Fused;  // CUDA, live
};

const ParamTable<BgkParams>& bgk_param_table();
// The table param_key(&BgkParams::member) reads (core/param_table.hpp).
inline const ParamTable<BgkParams>& param_table_of(const BgkParams*) { return bgk_param_table(); }

}  // namespace ks::bgk
