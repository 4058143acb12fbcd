// kinetic.bgk: fields and figures of merit from the velocity sums of f (bgk_solver.hpp).
// Units: n by n_ref, V by v_ref, T by T_ref, stresses by p_ref, heat flux by p_ref v_ref.
#pragma once

#include <vector>

#include "bgk_boundaries.hpp"
#include "bgk_config.hpp"

namespace ks::bgk {

struct CellFields {
  std::vector<double> n, Vx, Vy, Vz, T, Pxy, qx, qy;
};
CellFields cell_fields(const std::vector<double>& raw, long long cells);

// Normal shock (section 4): far-field states against eq. (18), constancy of the fluxes of mass,
// momentum and energy, and the inverse thickness lambda^- / delta from the maximum density slope.
struct ShockAnalysis {
  Macro upstream, downstream;               // measured at 5 % and 95 % of the domain
  double rh_error = 0.0;                    // largest relative error of n+/n-, V-/V+, T+/T- against eq. (18)
  double flux[3] = {0.0, 0.0, 0.0};         // mean fluxes of mass, x-momentum and energy
  double flux_spread[3] = {0.0, 0.0, 0.0};  // (max - min) / |mean| over all cells
  double inverse_thickness = 0.0;           // lambda^- / delta, delta = (n+ - n-) / max dn/dx
  double centre = 0.0;                      // x where n is halfway between n- and n+
};
ShockAnalysis analyse_shock(const BgkConfig& c, const std::vector<double>& raw);

// Driven cavity (section 5.2). D: the shear stress -P_xy / (p_ref U / v_ref) averaged along the lid,
// evaluated as the paper does, in the row of cells next to the lid: on the paper's grid this
// reproduces Table 1 to 0.1 % at delta = 0.1. D_wall: the same from the wall distribution itself
// (gas arriving from the top row, the re-emitted Maxwellian of eq. 23-24), the momentum the lid
// actually transfers; near the lid's corners P_xy varies across the first cells, and D_wall is
// 1-2 % above D on that grid (the two agree as dy -> 0).
// G: reduced flow rate of the main vortex, G = 2 / (delta U) times the integral of V_x on the vertical
// centreline from the vortex centre (V_x = 0) up to the lid. The paper gives no formula; the factor 2
// is the convention of its Ref. [16] as we read it: without it, every grid we ran gives 0.49-0.51 of
// all three Table 1 values.
struct CavityAnalysis {
  double D = 0.0, D_wall = 0.0, G = 0.0;
  double vortex_y = 0.0;  // height of the vortex centre on the centreline, lambda_ref
};
// D from raw sums of `cells` cells (per sum) whose lid row begins at cell `lid_row`.
double lid_drag(const BgkConfig& c, const std::vector<double>& raw, long long cells, long long lid_row);
// V_x / U on the vertical centreline x = delta / 2, per row (mean of the two middle columns when nx is even).
std::vector<double> centreline_velocity(const BgkConfig& c, const CellFields& f);
double lid_drag_at_wall(const BgkConfig& c, const BoundaryData& b, const std::vector<double>& top_row);
CavityAnalysis analyse_cavity(const BgkConfig& c, const BoundaryData& b, const std::vector<double>& raw,
                              const std::vector<double>& top_row);

// Reduced distribution F(x, vx) = sum over vy, vz of f dvy dvz for a row from BgkSolver::row, [jx * nx + i].
std::vector<double> phase_space(const BgkConfig& c, const std::vector<double>& row);

}  // namespace ks::bgk
