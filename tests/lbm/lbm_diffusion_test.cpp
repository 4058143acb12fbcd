// lbm.binary: mutual diffusion. A sinusoidal mole-fraction wave at uniform pressure decays as
// exp(-D_AB k^2 t) (Fick's law for X at constant pressure, molar-average velocity zero), which checks
// tau_2 of eq. (9) and the quasi-equilibrium of eq. (8).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "lbm_test_support.hpp"
#include "methods/lbm/lbm_diagnostics.hpp"

namespace ks::lbm {
namespace {

TEST(LbmDiffusion, MoleFractionWaveDecaysAtDabKSquared) {
  auto p = testing::periodic_box(8, 8, 64);
  p["x_o2"] = "0.47";
  p["wave_amplitude"] = "0.02";
  p["viscosity"] = "0.03";
  p["d_ab"] = "0.05";
  p["steps_per_iteration"] = "100";
  LbmMethod m;
  m.setup(testing::params(p), testing::cpu_context());
  const double k = 2.0 * M_PI / 64.0, rate = 0.05 * k * k;
  // Least-squares slope of ln(amplitude) against t, after 200 steps of acoustic start-up.
  double st = 0, sy = 0, stt = 0, sty = 0;
  int n = 0;
  for (int it = 0; it < 20; ++it) {
    m.advance();
    if (m.steps() < 300) continue;
    const double t = double(m.steps()), y = std::log(mole_wave_amplitude(m.config(), m.geometry(), m.moments()));
    st += t;
    sy += y;
    stt += t * t;
    sty += t * y;
    ++n;
  }
  const double slope = (n * sty - st * sy) / (n * stt - st * st);
  RecordProperty("measured_rate", std::to_string(-slope));
  RecordProperty("D_k2", std::to_string(rate));
  std::printf("decay rate %.6e, D_AB k^2 %.6e, ratio %.5f\n", -slope, rate, -slope / rate);
  EXPECT_NEAR(-slope / rate, 1.0, 0.02);
}

}  // namespace
}  // namespace ks::lbm
