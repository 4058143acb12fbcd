// kinetic.dvm: the discretised problem. Normalisation (used everywhere in this folder):
// velocity by v_m = sqrt(2 R T_ref), length by the body size L (cavity side, cube side, plate gap),
// density by n_ref, temperature by T_ref. So the Maxwellian is n (pi T)^-3/2 exp(-c^2 / T),
// the pressure p = n T / 2 and the heat flux q is in n_ref m v_m^3.
#pragma once

#include <vector>

#include "core/host_device.hpp"

namespace ks::dvm {

// M uniform points per axis in [-v_max, v_max], trapezoidal weights (eq. 5). M is even, so no
// component is zero and every velocity belongs to one octant.
struct VelocityGrid {
  int m = 16;
  double v_max = 4.0;

  KS_HD double h() const { return 2.0 * v_max / (m - 1); }
  KS_HD double v(int k) const { return -v_max + k * h(); }
  KS_HD double w(int k) const { return (k == 0 || k == m - 1) ? 0.5 * h() : h(); }
  KS_HD long long count() const { return (long long)m * m * m; }
};

// One Cartesian axis: cell faces x[0] < ... < x[n] (uniform or stretched).
struct Axis {
  std::vector<double> faces;
  int cells() const { return int(faces.size()) - 1; }
  double size(int i) const { return faces[i + 1] - faces[i]; }
  double centre(int i) const { return 0.5 * (faces[i] + faces[i + 1]); }
};
Axis uniform_axis(double lo, double hi, int n);

// A face of the box: a diffuse wall (eq. 8-9), a free-stream inflow (Maxwellian of the free stream
// for the molecules entering), or periodic with a single cell (the flow does not vary along it).
enum class FaceKind { Wall, Inflow, Periodic };

// A diffuse wall's Maxwellian: velocity and temperature.
struct WallType {
  double U[3] = {0.0, 0.0, 0.0};
  double T = 1.0;
};

enum class Case { Cavity, Cube, Couette };

struct DvmConfig {
  Case kind = Case::Cavity;
  Axis axis[3];
  VelocityGrid vg;
  double kn = 1.0;      // Knudsen number: the reference viscosity of f^S's relaxation (reference_viscosity)
  double omega = 0.81;  // mu ~ T^omega (argon)
  double prandtl = 2.0 / 3.0;
  // Box faces, [2 * axis + side], side 0 = lower, 1 = upper; wall faces name their type.
  FaceKind face[6] = {FaceKind::Wall, FaceKind::Wall, FaceKind::Wall, FaceKind::Wall, FaceKind::Wall, FaceKind::Wall};
  int face_wall_type[6] = {0, 0, 0, 0, 0, 0};
  std::vector<WallType> walls{WallType{}};                                  // [0] is also the solid body's surface
  double initial_n = 1.0, initial_T = 1.0, initial_U[3] = {0.0, 0.0, 0.0};  // also the free stream
  double body_lo[3] = {0, 0, 0}, body_hi[3] = {0, 0, 0};                    // cube: solid cells whose centres lie inside
  bool has_body = false;
  long long batch = 0;  // discrete velocities per sweep batch; 0: one octant (the paper's choice)
  // Under MPI: this rank sweeps its block of the batches (rank_batches); one process sweeps all.
  int rank = 0, ranks = 1;
  bool single = true;  // f slices stored in single precision (the paper's choice); all sums stay double
  int strip = 0;       // CUDA sweep: cells of a row per warp (4, 8, 16); 0: chosen from the grid and the GPU

  int n(int a) const { return axis[a].cells(); }
  long long cells() const { return (long long)n(0) * n(1) * n(2); }
  long long slice_cells() const { return (long long)n(0) * n(1); }
  long long octant() const { return vg.count() / 8; }
  long long batch_size() const { return batch > 0 && batch < octant() ? batch : octant(); }
  int f_bytes() const { return single ? 4 : 8; }                                                         // bytes of one stored value of f
  double slice_bytes() const { return 2.0 * double(slice_cells()) * double(batch_size()) * f_bytes(); }  // the two slices
  bool closed() const;  // no inflow face: the total mass is kept by rescaling
};

struct DvmParams;
// The discretised problem for `p`; throws bad_input (key, value, allowed range) for what cannot run.
//  cavity: [0,1]^3, lid y = 1 moving along +x (section 4.1); cube: [-5, 9] x [-6, 6]^2 around the
//  unit cube at the origin, free stream along +x, stretched axes (section 4.2); couette: plates
//  y = 0 (at rest) and y = 1 (moving along +x), one periodic cell along x and z.
DvmConfig make_config(const DvmParams& p);

// The keys that may change while running (kn, lid_speed, mach, wall_temperature) on an existing
// discretisation; refuses (leaving `c` as it was) a free stream the velocity box cannot hold.
void apply_live_keys(const DvmParams& p, DvmConfig& c);

}  // namespace ks::dvm
