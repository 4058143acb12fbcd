// lbm.binary's keys become the discretised problem here, and only here.
#include "lbm_config.hpp"

#include <string>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "lbm_params.hpp"

namespace ks::lbm {

const char* level_name(const LbmParams& p) { return p.grid_level == GridLevel::Coarse ? "coarse" : "fine"; }

LbmConfig make_config(const LbmParams& p) {
  LbmConfig c;
  c.geometry = p.geometry;
  int n[3] = {p.nx, p.ny, p.nz};
  if (p.grid_level == GridLevel::Coarse)
    for (int a = 0; a < 3; ++a) {
      const char* key = a == 0 ? "nx" : a == 1 ? "ny" : "nz";
      if (n[a] % 2)
        throw bad_input(key, std::string(key) + " = " + std::to_string(n[a]) + " cannot be halved for grid_level coarse", "an even number");
      n[a] /= 2;
    }
  c.nx = n[0];
  c.ny = n[1];
  c.nz = n[2];
  for (int s = 0; s < kSpecies; ++s) c.mass[s] = lattice_mass(s);
  c.viscosity = p.viscosity;
  c.diffusivity = p.d_ab;
  c.x_o2 = p.x_o2;
  c.pressure_ratio = p.pressure_ratio;
  c.bounce_back = p.bounce_back;
  c.precision = p.precision;
  // auto: the fused step, but the paper's kernels on the all-fluid periodic box in FP64, where they are
  // faster (H200, 128^3: 3614 against 3014 MLUPS; the fused step wins in FP32 7506 / 7199 and FP16
  // 8467 / 7430, bench/results/lbm-auto-step-h200.json).
  const bool paper_faster = c.geometry == Geometry::Periodic && c.precision == Precision::Fp64;
  c.gpu_step = p.gpu_step != GpuStep::Auto ? p.gpu_step : paper_faster ? GpuStep::Paper : GpuStep::Fused;
  if (c.geometry == Geometry::Periodic) {
    c.wave_amplitude = p.wave_amplitude;
    c.initial_velocity[0] = p.ux;
    c.initial_velocity[1] = p.uy;
    c.initial_velocity[2] = p.uz;
  }
  const double x_hi = c.x_o2 + c.wave_amplitude, x_lo = c.x_o2 - c.wave_amplitude;
  if (x_hi > 0.99 || x_lo < 0.01)
    throw bad_input(param_key(&LbmParams::wave_amplitude),
                    "X_O2 = " + format_number(c.x_o2) + " +- " + format_number(c.wave_amplitude) + " leaves [0.01, 0.99]",
                    "wave_amplitude <= " + format_number(std::min(0.99 - c.x_o2, c.x_o2 - 0.01)));
  // Eq. (11): tau_2 > tau_1, strictest where X_O2 is largest.
  const double sc = c.viscosity / c.diffusivity, sc_max = max_schmidt(x_hi);
  if (sc > sc_max)
    throw bad_input(param_key(&LbmParams::d_ab),
                    "the Schmidt number nu / D_AB = " + format_number(c.viscosity) + " / " + format_number(c.diffusivity) + " = " +
                        format_number(sc) + " exceeds Y_A Y_B / (X_A X_B) = " + format_number(sc_max) +
                        " at X_O2 = " + format_number(x_hi) +
                        " (eq. 11: tau_2 > tau_1); the stress-tensor quasi-equilibrium of eq. (12) is not implemented",
                    "d_ab >= " + format_number(c.viscosity / sc_max) + " (or viscosity <= " + format_number(c.diffusivity * sc_max) + ")");
  // A format bound, not a memory one (that is estimate_memory's): the wall links and the GPU's list
  // of active nodes hold node indices in 32 bits. Checked here, before make_scene packs the spheres.
  const std::int64_t nodes = checked_product({c.nx, c.ny, c.nz}, "nx * ny * nz nodes");
  if (nodes >= (std::int64_t(1) << 31))
    throw bad_input(param_keys(&LbmParams::nx, &LbmParams::ny, &LbmParams::nz),
                    std::string("the lattice of grid_level ") + level_name(p) + " has " + std::to_string(c.nx) + " x " +
                        std::to_string(c.ny) + " x " + std::to_string(c.nz) + " = " + std::to_string(nodes) + " nodes",
                    "fewer than 2^31 nodes (32-bit node indices)");
  return c;
}

}  // namespace ks::lbm
