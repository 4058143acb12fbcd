// kinetic.bgk: the discretised problem, in the paper's normalisation (section 4.1):
// velocity by v_ref = sqrt(2 R T_ref), time by 1/nu_ref, length by lambda_ref = v_ref / nu_ref,
// density by n_ref, temperature by T_ref. The reference state is the upstream gas (shock)
// or the wall (cavity).
#pragma once

#include <string>

#include "core/host_device.hpp"

namespace ks::bgk {

// The most velocity cells per axis (the `nv` parameter's bound; the GPU kernels' per-axis tables).
constexpr int kMaxAxisVelocities = 64;

// A uniform box in velocity space with piecewise-constant f (section 2.1): n[a] cells of width
// h[a] from lo[a]. Discrete velocities are ordered j = (jx * n[1] + jy) * n[2] + jz.
struct VelocityGrid {
  int n[3] = {16, 16, 16};
  double lo[3] = {-5.0, -6.0, -6.0};
  double h[3] = {0.75, 0.75, 0.75};

  KS_HD int count() const { return n[0] * n[1] * n[2]; }
  KS_HD double v(int axis, int k) const { return lo[axis] + (k + 0.5) * h[axis]; }
  KS_HD double cell_volume() const { return h[0] * h[1] * h[2]; }
  KS_HD int jx(int j) const { return j / (n[1] * n[2]); }
  KS_HD int jy(int j) const { return (j / n[2]) % n[1]; }
  KS_HD int jz(int j) const { return j % n[2]; }
};

// Equilibrium parameters: density, bulk velocity, temperature (normalised).
struct Macro {
  double n = 1.0;
  double V[3] = {0.0, 0.0, 0.0};
  double T = 1.0;
};

enum class Case { Shock, Cavity };

// 2D free streaming: Split sweeps x then y (dimensional splitting, max |C| <= 1 per axis); Unsplit
// takes both upwind differences from f^n (the donor-cell extension of eq. 12, |C_x| + |C_y| <= 1).
enum class Streaming { Split, Unsplit };

// The defaults are the parameter table's for the shock (a test keeps them so).
struct BgkConfig {
  Case kind = Case::Shock;
  int nx = 256, ny = 1;    // physical cells; ny = 1 for the 1D3V shock
  double dx = 70.0 / 256;  // cell sizes, lambda_ref
  double dy = 1.0;
  double x0 = -35.0, y0 = 0.0;  // lower corner, lambda_ref
  VelocityGrid vg;
  double dt = 0.05;                          // 1/nu_ref
  double omega = 0.74;                       // mu ~ T^omega (eq. 21)
  bool conservative = false;                 // effective n, V, T so that the discrete Maxwellian keeps the moments of f
  Macro upstream, downstream;                // shock: the Maxwellians of eq. (17) at x -> -inf and +inf
  double lid_speed = 0.01;                   // cavity: top wall velocity along +x, v_ref
  Streaming streaming = Streaming::Unsplit;  // cavity only
  // Under MPI (bgk_strip.hpp) a rank's grid is a strip of the whole: the whole grid's column of its
  // first column (x0 stays the whole grid's corner).
  int first_column = 0;
  // Under MPI the cavity's rows of the whole grid (0: ny): the GPU's tiles split the velocities by
  // them (bgk_cavity_tiles.hpp), so that every rank adds the moments in the order one process does.
  int whole_ny = 0;

  KS_HD long long cells() const { return (long long)nx * ny; }
  KS_HD long long phase_cells() const { return cells() * vg.count(); }
};

// Rankine-Hugoniot states of eq. (18) for upstream Mach number M (gamma = 5/3): upstream n = T = 1,
// V- = M sqrt(gamma / 2) in units of sqrt(2 R T-).
void rankine_hugoniot(double mach, Macro& upstream, Macro& downstream);

// The Courant number of the time step. Shock: max|v_x| dt / dx (exact shifts stream at any value).
// Cavity, which needs it <= 1: split streaming, the largest |v| dt / dx over both axes (the wall
// boundary, eq. 23-24, needs it); unsplit, the largest |v_x| dt / dx + |v_y| dt / dy.
double courant_number(const BgkConfig& cfg);

struct BgkParams;
// The parameter table's values (bgk_params.cpp) as the discretised problem: the velocity box, the
// grid, dt (from courant where set) and the boundary states; refuses a grid that cannot run.
BgkConfig make_config(const BgkParams& p);

}  // namespace ks::bgk
