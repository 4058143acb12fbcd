// kinetic.dvm's keys become the discretised problem here, and only here.
#include "dvm_config.hpp"

#include <cmath>
#include <string>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "dvm_cases.hpp"
#include "dvm_geometry.hpp"
#include "dvm_model.hpp"
#include "dvm_params.hpp"

namespace ks::dvm {

namespace {

constexpr double kFreeStreamWidths = 2.0;  // the velocity box must hold U_inf +- 2 sqrt(T_inf)
constexpr double kMaxSliceBytes = 64e9;    // two slices of f for one batch

}  // namespace

void apply_live_keys(const DvmParams& p, DvmConfig& c) {
  DvmConfig next = c;
  next.kn = p.kn;
  next.walls.assign(c.kind == Case::Cube ? 1 : 2, WallType{});
  for (WallType& w : next.walls) w.T = p.wall_temperature / p.gas_temperature;
  if (c.kind != Case::Cube) next.walls[1].U[0] = p.lid_speed;
  next.initial_n = 1.0;
  next.initial_T = 1.0;
  next.initial_U[0] = c.kind == Case::Cube ? p.mach * std::sqrt(0.5 * kGamma) : 0.0;  // sqrt(gamma R T) in v_m
  if (c.kind == Case::Cube) {
    const double reach = next.initial_U[0] + kFreeStreamWidths * std::sqrt(next.initial_T);
    if (reach > c.vg.v_max)
      throw bad_input(param_key(&DvmParams::mach),
                      "the free stream at Ma = " + format_number(p.mach) + " reaches |xi| = " + format_number(reach) +
                          " (U + 2 thermal speeds), beyond v_max = " + format_number(c.vg.v_max),
                      "Ma <= " + format_number((c.vg.v_max - kFreeStreamWidths) / std::sqrt(0.5 * kGamma)) + " or a larger v_max");
  }
  c = std::move(next);
}

DvmConfig make_config(const DvmParams& p) {
  DvmConfig c;
  c.kind = p.problem;
  c.vg.m = p.nv;
  if (c.vg.m % 2)
    throw bad_input(param_key(&DvmParams::nv), "the velocity grid has an odd number of points per axis (" + format_number(c.vg.m) + ")",
                    "an even number, so that every velocity lies in one sweep octant");
  c.vg.v_max = p.v_max;
  c.omega = p.omega;
  c.batch = p.batch;
  c.single = p.single;
  c.strip = p.strip;
  if (c.strip != 0 && c.strip != 4 && c.strip != 8 && c.strip != 16)
    throw bad_input(param_key(&DvmParams::strip), "a sweep strip of " + format_number(c.strip) + " cells", "0 (automatic), 4, 8 or 16");
  const int nx = p.nx, ny = p.ny, nz = p.nz;
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
    const int body = p.body_cells;
    const int n[3] = {nx, ny, nz};
    const char* key[3] = {"nx", "ny", "nz"};
    for (int a = 0; a < 3; ++a)
      if (n[a] < body + 8)
        throw bad_input(key[a],
                        "the cube needs room around the body: " + format_number(n[a]) + " cells with body_cells = " + format_number(body),
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
  apply_live_keys(p, c);  // refuses a free stream the velocity box cannot hold
  if (c.slice_bytes() > kMaxSliceBytes)
    throw bad_input(
        "batch",
        "two slices of f for " + format_number(double(c.batch_size())) + " velocities need " + format_number(c.slice_bytes() / 1e9) + " GB",
        "a batch of at most " + format_number(std::floor(kMaxSliceBytes / (2.0 * c.slice_cells() * c.f_bytes()))) +
            " velocities for this grid");
  return c;
}

}  // namespace ks::dvm
