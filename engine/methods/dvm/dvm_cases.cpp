#include "dvm_cases.hpp"

#include <cmath>
#include <string>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "dvm_geometry.hpp"
#include "dvm_model.hpp"

namespace ks::dvm {

namespace {

constexpr double kFreeStreamWidths = 2.0;  // the velocity box must hold U_inf +- 2 sqrt(T_inf)
constexpr double kMaxSliceBytes = 64e9;    // two slices of f for one batch

}  // namespace

void apply_boundary_state(const ParamSet& p, DvmConfig& c) {
  const double T_ref = p.get_real("gas_temperature");
  const double Tw = p.get_real("wall_temperature") / T_ref;
  c.kn = p.get_real("kn");
  c.walls.assign(c.kind == Case::Cube ? 1 : 2, WallType{});
  for (WallType& w : c.walls) w.T = Tw;
  if (c.kind != Case::Cube) c.walls[1].U[0] = p.get_real("lid_speed");
  c.initial_n = 1.0;
  c.initial_T = 1.0;
  c.initial_U[0] = c.kind == Case::Cube ? p.get_real("mach") * std::sqrt(0.5 * kGamma) : 0.0;  // sqrt(gamma R T) in v_m
}

DvmConfig make_config(const ParamSet& p) {
  DvmConfig c;
  const std::string kind = p.get_choice("case");
  c.kind = kind == "cube" ? Case::Cube : kind == "couette" ? Case::Couette : Case::Cavity;
  c.vg.m = int(p.get_int("nv"));
  if (c.vg.m % 2)
    throw bad_input("nv", "the velocity grid has an odd number of points per axis (" + format_number(c.vg.m) + ")",
                    "an even number, so that every velocity lies in one sweep octant");
  c.vg.v_max = p.get_real("v_max");
  c.omega = p.get_real("omega");
  c.batch = p.get_int("batch");
  c.single = p.get_choice("precision") == "fp32";
  c.strip = int(p.get_int("strip"));
  if (c.strip != 0 && c.strip != 4 && c.strip != 8 && c.strip != 16)
    throw bad_input("strip", "a sweep strip of " + format_number(c.strip) + " cells", "0 (automatic), 4, 8 or 16");
  const int nx = int(p.get_int("nx")), ny = int(p.get_int("ny")), nz = int(p.get_int("nz"));
  if (c.kind == Case::Cavity) {
    for (int a = 0; a < 3; ++a) c.axis[a] = uniform_axis(0.0, 1.0, a == 0 ? nx : a == 1 ? ny : nz);
    c.face_wall_type[3] = 1;  // the lid
  } else if (c.kind == Case::Couette) {
    c.axis[0] = uniform_axis(0.0, 1.0, 1);
    c.axis[1] = uniform_axis(0.0, 1.0, ny);
    c.axis[2] = uniform_axis(0.0, 1.0, 1);
    c.face[0] = c.face[1] = c.face[4] = c.face[5] = FaceKind::Periodic;
    c.face_wall_type[3] = 1;  // the moving plate
  } else {
    const int body = int(p.get_int("body_cells"));
    const int n[3] = {nx, ny, nz};
    const char* key[3] = {"nx", "ny", "nz"};
    for (int a = 0; a < 3; ++a)
      if (n[a] < body + 8)
        throw bad_input(key[a], "the cube needs room around the body: " + format_number(n[a]) + " cells with body_cells = " + format_number(body),
                        ">= body_cells + 8");
    double r[2];
    c.axis[0] = stretched_axis(-5.0, 9.0, nx, body, r);
    c.axis[1] = stretched_axis(-6.0, 6.0, ny, body, r);
    c.axis[2] = stretched_axis(-6.0, 6.0, nz, body, r);
    for (FaceKind& f : c.face) f = FaceKind::Inflow;
    c.has_body = true;
    for (int a = 0; a < 3; ++a) c.body_lo[a] = -0.5, c.body_hi[a] = 0.5;
  }
  // The sweeps index the cells of a slice with an int (sweep_cell, the CUDA moment kernels' blocks);
  // the cell count itself is a 64-bit size.
  checked_narrow<int>(checked_mul(c.n(0), c.n(1), "nx * ny cells of a slice"), "nx * ny cells of a slice");
  checked_product({c.n(0), c.n(1), c.n(2)}, "nx * ny * nz cells");
  apply_boundary_state(p, c);
  if (c.kind == Case::Cube) {
    const double reach = c.initial_U[0] + kFreeStreamWidths * std::sqrt(c.initial_T);
    if (reach > c.vg.v_max)
      throw bad_input("mach", "the free stream at Ma = " + format_number(p.get_real("mach")) + " reaches |xi| = " + format_number(reach) +
                                  " (U + 2 thermal speeds), beyond v_max = " + format_number(c.vg.v_max),
                      "Ma <= " + format_number((c.vg.v_max - kFreeStreamWidths) / std::sqrt(0.5 * kGamma)) + " or a larger v_max");
  }
  if (c.slice_bytes() > kMaxSliceBytes)
    throw bad_input("batch", "two slices of f for " + format_number(double(c.batch_size())) + " velocities need " + format_number(c.slice_bytes() / 1e9) + " GB",
                    "a batch of at most " + format_number(std::floor(kMaxSliceBytes / (2.0 * c.slice_cells() * c.f_bytes()))) +
                        " velocities for this grid");
  return c;
}

CouetteReference couette_reference(const DvmConfig& c) {
  CouetteReference r;
  const double U = c.walls[1].U[0] - c.walls[0].U[0], Tw = c.walls[0].T;
  r.fm_shear = -c.initial_n * U * std::sqrt(Tw) / (2.0 * std::sqrt(kPi));
  r.fm_velocity = 0.5 * (c.walls[0].U[0] + c.walls[1].U[0]);
  r.fm_temperature = Tw + U * U / 6.0;
  const double mu = reference_viscosity(c.kn, c.omega) * std::pow(Tw, c.omega);
  const double l = mu / (0.5 * c.initial_n * Tw);  // mu v_m / p
  r.slip_slope = U / (1.0 + 2.0 * kSlipCoefficient * l);
  r.slip_shear = -mu * r.slip_slope;
  return r;
}

}  // namespace ks::dvm
