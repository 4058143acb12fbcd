// lbm.binary packed bed (section 5.1): the seeded generator reproduces the paper's bed (12753
// spheres, 4 <= d_p <= 8, porosity ~0.48 in a 128^2 x 256 box with 32-unit open ends), and the
// wall links carry the exact wall position (eq. 15).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "core/errors.hpp"

#include "expect_error.hpp"
#include "lbm_test_support.hpp"
#include "methods/lbm/lbm_model.hpp"
#include "methods/lbm/lbm_packing.hpp"

namespace ks::lbm {
namespace {

PackingSpec paper_bed() {
  PackingSpec s;
  const Shapes tube = centred_tube(128, 128);
  s.axis[0] = tube.axis[0];
  s.axis[1] = tube.axis[1];
  s.radius = tube.radius;
  s.z0 = 32.0;
  s.z1 = 256 - 1 - 32.0;
  return s;
}

// The paper's bed: every sphere in range and inside the tube, overlaps below 1 % of d_min, the
// porosity within 1 % of 0.48 (the sampled volume of 12753 spheres scatters by ~0.3 %: the
// coefficient of variation of d^3, ~0.5, over sqrt(12753)).
TEST(LbmPacking, PaperBedHasTheCountSizesAndPorosity) {
  const auto t0 = std::chrono::steady_clock::now();
  const Packing p = pack_spheres(paper_bed());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("12753 spheres: porosity %.4f, size exponent %.3f, max overlap %.4f d_min, %d sweeps, %.2f s\n", p.porosity, p.size_exponent,
              p.max_overlap, p.sweeps, seconds);
  RecordProperty("porosity", std::to_string(p.porosity));
  ASSERT_EQ(p.spheres.size(), 12753u);
  EXPECT_NEAR(p.porosity, 0.48, 0.01);
  EXPECT_LT(p.max_overlap, 0.01);
  const PackingSpec s = paper_bed();
  for (const Sphere& sp : p.spheres) {
    EXPECT_GE(2.0 * sp.r, 4.0 - 1e-12);
    EXPECT_LE(2.0 * sp.r, 8.0 + 1e-12);
    EXPECT_LE(std::hypot(sp.c[0] - s.axis[0], sp.c[1] - s.axis[1]) + sp.r, s.radius + 1e-9);
    EXPECT_GE(sp.c[2] - sp.r, s.z0 - 1e-9);
    EXPECT_LE(sp.c[2] + sp.r, s.z1 + 1e-9);
  }
}

TEST(LbmPacking, SameSeedSameBedOtherSeedOtherBed) {
  PackingSpec s = paper_bed();
  s.count = 600;
  s.z1 = s.z0 + 20.0;
  const Packing a = pack_spheres(s), b = pack_spheres(s);
  s.seed = 2;
  const Packing c = pack_spheres(s);
  ASSERT_EQ(a.spheres.size(), b.spheres.size());
  for (std::size_t k = 0; k < a.spheres.size(); ++k)
    for (int d = 0; d < 3; ++d) EXPECT_EQ(a.spheres[k].c[d], b.spheres[k].c[d]);
  EXPECT_NE(a.spheres[0].c[0], c.spheres[0].c[0]);
}

TEST(LbmPacking, UnreachablePorosityIsRefusedNamingTheKey) {
  PackingSpec s = paper_bed();
  s.porosity = 0.95;  // 12753 spheres of d >= 4 fill more than 5 % of the bed
  test_support::expect_error([&] { pack_spheres(s); }, ErrorKind::BadInput, {"porosity"});
}

// Eq. (15): the wall point x_f + delta c_i of every link lies on the tube or on a sphere surface.
TEST(LbmGeometry, WallLinksCarryTheExactWallPosition) {
  LbmConfig c = make_config(lbm_param_table().read(testing::params(testing::small_tube())));
  Shapes shapes = centred_tube(c.nx, c.ny);
  shapes.spheres.push_back({{9.3, 10.1, 12.4}, 2.7});
  const LatticeGeometry g = build_geometry(c, shapes);
  ASSERT_FALSE(g.links.empty());
  double worst = 0.0;
  for (const WallLink& L : g.links) {
    const long long k = L.fluid;
    const double p[3] = {double(k % c.nx) + L.delta * cx(L.dir), double((k / c.nx) % c.ny) + L.delta * cy(L.dir),
                         double(k / (c.nx * c.ny)) + L.delta * cz(L.dir)};
    const double tube = std::fabs(std::hypot(p[0] - shapes.axis[0], p[1] - shapes.axis[1]) - shapes.radius);
    const Sphere& s = shapes.spheres[0];
    const double sphere = std::fabs(std::sqrt(std::pow(p[0] - s.c[0], 2) + std::pow(p[1] - s.c[1], 2) + std::pow(p[2] - s.c[2], 2)) - s.r);
    worst = std::max(worst, std::min(tube, sphere));
    EXPECT_GE(L.delta, 0.0);
    EXPECT_LE(L.delta, 1.0);
    EXPECT_EQ(g.type[L.solid], kWall);
  }
  EXPECT_LT(worst, 1e-9);
}

}  // namespace
}  // namespace ks::lbm
