// radiation.rmc in the unit cube (Table 1 cases 3 and 4): the sin profile between cold black walls
// against the quasi-analytic solution along the centre line (Sakurai et al., by quadrature here).
#include <gtest/gtest.h>

#include "methods/radiation/rmc_planck.hpp"
#include "rmc_test_support.hpp"

namespace ks::rmc {
namespace {

using test::rms_over_peak;
using test::run;

// The paper uses 32^3 cells and 2000 rays per cell; smaller grids keep CI fast and the tolerance
// still holds (the cell-constant temperature is the largest error left: about 1 % at 16^3, kappa = 5).
TEST(RmcBox, Case3OpticallyThinWithinTwoPercentOfTheQuasiAnalyticSolution) {
  const auto m = run({{"profile", "sin"},
                      {"kappa", "0.5"},
                      {"nx", "16"},
                      {"ny", "16"},
                      {"nz", "16"},
                      {"rays_per_cell", "1000"},
                      {"rays_per_batch", "500"}});
  ASSERT_EQ(m->reference().size(), 16u);
  EXPECT_LT(rms_over_peak(m->profile(m->mean()), m->reference()), 0.02);
}

TEST(RmcBox, Case4OpticallyThickWithinTwoPercentOfTheQuasiAnalyticSolution) {
  const auto m = run({{"profile", "sin"},
                      {"kappa", "5"},
                      {"nx", "20"},
                      {"ny", "20"},
                      {"nz", "20"},
                      {"rays_per_cell", "2000"},
                      {"rays_per_batch", "1000"}});
  EXPECT_LT(rms_over_peak(m->profile(m->mean()), m->reference()), 0.02);
}

TEST(RmcBox, CentreCoolsAndEveryCellOfTheHotBoxEmitsNetPower) {
  // Cold black walls around a hot core: Q^R = div q > 0 in the centre, and the thin box's centre
  // emits nearly its whole 4 kappa sigma T^4 (most rays escape).
  const auto m = run({{"profile", "sin"}, {"kappa", "0.5"}, {"nx", "9"}, {"ny", "9"}, {"nz", "9"}, {"rays_per_cell", "400"}});
  const auto q = m->mean();
  const long long centre = (4 * 9 + 4) * 9 + 4;
  const double emission = 4.0 * 0.5 * kPi * 1.0;  // 4 kappa sigma T^4 with sigma T^4 = pi at the centre
  EXPECT_GT(q[centre], 0.6 * emission);
  EXPECT_LT(q[centre], emission);
}

}  // namespace
}  // namespace ks::rmc
