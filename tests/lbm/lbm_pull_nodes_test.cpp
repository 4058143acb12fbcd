// The fused GPU step's table (lbm_pull_nodes.hpp) on the CPU: for every fluid node of a packed bed,
// which pulled populations come from solid nodes and which of those a wall link replaces with eq. (14),
// against the geometry it is built from.
#include <gtest/gtest.h>

#include <bit>
#include <map>

#include "lbm_test_support.hpp"
#include "methods/lbm/lbm_model.hpp"
#include "methods/lbm/lbm_params.hpp"
#include "methods/lbm/lbm_pull_nodes.hpp"

namespace ks::lbm {
namespace {

TEST(LbmPullNodes, TableFollowsTheGeometryAndItsWallLinks) {
  LbmMethod m;
  m.setup(testing::params(testing::small_bed()), testing::cpu_context());
  const LbmConfig& c = m.config();
  const LatticeGeometry& g = m.geometry();
  const PullNodes p = pull_nodes(c, g);
  ASSERT_EQ(p.node.size(), std::size_t(g.fluid_nodes));
  ASSERT_EQ(p.delta.size(), g.links.size());
  // The links by fluid node and pulled direction (opposite of the link's).
  std::map<std::pair<std::uint32_t, int>, double> link_delta;
  for (const WallLink& L : g.links) link_delta[{std::uint32_t(L.fluid), opposite(L.dir)}] = L.ff >= 0 ? L.delta : -1.0;
  std::size_t solid_sources = 0;
  for (std::size_t a = 0; a < p.node.size(); ++a) {
    const std::uint32_t k = p.node[a];
    ASSERT_EQ(g.type[k], kFluid);
    ASSERT_EQ(p.slot[k], a);
    int x, y, z;
    node_position(c, k, x, y, z);
    std::size_t link = p.first_link[a];
    for (int i = 0; i < kQ; ++i) {
      const bool solid = g.type[neighbour(c, x, y, z, opposite(i))] != kFluid;
      EXPECT_EQ(bool(p.solid[a] >> i & 1u), solid) << "node " << k << ", direction " << i;
      const auto found = link_delta.find({k, i});
      EXPECT_EQ(bool(p.linked[a] >> i & 1u), found != link_delta.end()) << "node " << k << ", direction " << i;
      if (found == link_delta.end()) continue;
      EXPECT_TRUE(solid) << "a link towards a fluid node: " << k << ", direction " << i;
      EXPECT_EQ(p.delta[link++], found->second) << "node " << k << ", direction " << i;
    }
    EXPECT_EQ(p.first_solid[a], solid_sources) << "node " << k;  // the in-place step's wall values
    solid_sources += std::popcount(p.solid[a]);
  }
  for (std::size_t k = 0; k < p.slot.size(); ++k) EXPECT_EQ(p.slot[k] == kNotFluid, g.type[k] != kFluid) << "node " << k;
  // The bed's open ends: solid sources across them have no link (the full-way rule, which the
  // pressure planes then overwrite), so there are more solid sources than links.
  EXPECT_GT(solid_sources, g.links.size());
  EXPECT_EQ(p.solid_sources, solid_sources);
}

// gpu_step = auto fuses the step where the lattice has solids and keeps the paper's kernels on the
// all-fluid periodic box (faster there); a choice made by the user stands.
TEST(LbmPullNodes, AutoFusesTheStepWhereTheLatticeHasSolids) {
  const auto step_of = [](std::map<std::string, std::string> p) {
    return make_config(lbm_param_table().read(testing::params(p))).gpu_step;
  };
  EXPECT_EQ(step_of(testing::small_tube()), GpuStep::Fused);
  EXPECT_EQ(step_of(testing::small_bed()), GpuStep::Fused);
  EXPECT_EQ(step_of(testing::periodic_box(8, 8, 16)), GpuStep::Paper);
  auto box = testing::periodic_box(8, 8, 16);
  box["gpu_step"] = "fused";
  EXPECT_EQ(step_of(box), GpuStep::Fused);
  auto bed = testing::small_bed();
  bed["gpu_step"] = "paper";
  EXPECT_EQ(step_of(bed), GpuStep::Paper);
}

}  // namespace
}  // namespace ks::lbm
