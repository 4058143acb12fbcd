// The fused GPU step's table (lbm_pull_nodes.hpp) on the CPU: for every fluid node of a packed bed,
// which pulled populations come from solid nodes and which of those a wall link replaces with eq. (14),
// against the geometry it is built from.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <map>
#include <set>

#include "lbm_test_support.hpp"
#include "methods/lbm/lbm_model.hpp"
#include "methods/lbm/lbm_params.hpp"
#include "methods/lbm/lbm_pull_nodes.hpp"
#include "methods/lbm/lbm_slab.hpp"

namespace ks::lbm {
namespace {

// In index order, and with planes in the order of tiles (the engine's table between a slab's end planes).
class LbmPullNodesTiled : public ::testing::TestWithParam<bool> {};

TEST_P(LbmPullNodesTiled, TableFollowsTheGeometryAndItsWallLinks) {
  LbmMethod m;
  m.setup(testing::params(testing::small_bed()), testing::cpu_context());
  const LbmConfig& c = m.config();
  const LatticeGeometry& g = m.geometry();
  const PullNodes p = GetParam() ? pull_nodes(c, g, 1, c.nz - 1) : pull_nodes(c, g);
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

// The fused step's sources: each moving population's row holds the place in the table of the node it
// streams from, or kNotFluid where that node is solid (where the bounce-back replaces it).
TEST_P(LbmPullNodesTiled, SourcesAreTheUpstreamNodesPlaces) {
  LbmMethod m;
  m.setup(testing::params(testing::small_bed()), testing::cpu_context());
  const LbmConfig& c = m.config();
  const PullNodes p = GetParam() ? pull_nodes(c, m.geometry(), 1, c.nz - 1) : pull_nodes(c, m.geometry());
  const std::vector<std::uint32_t> source = pull_sources(c, p);
  const std::size_t F = p.node.size();
  ASSERT_EQ(source.size(), std::size_t(kQ - 1) * F);
  EXPECT_EQ(cx(kRest), 0);
  EXPECT_EQ(cy(kRest), 0);
  EXPECT_EQ(cz(kRest), 0);
  std::set<int> rows;
  for (int i = 0; i < kQ; ++i)
    if (i != kRest) rows.insert(source_row(i));
  EXPECT_EQ(rows.size(), std::size_t(kQ - 1));
  EXPECT_EQ(*rows.rbegin(), kQ - 2);
  std::size_t solid = 0;
  for (std::size_t a = 0; a < F; ++a) {
    int x, y, z;
    node_position(c, p.node[a], x, y, z);
    for (int i = 0; i < kQ; ++i) {
      if (i == kRest) continue;
      const std::uint32_t from = source[std::size_t(source_row(i)) * F + a];
      const long long upstream = neighbour(c, x, y, z, opposite(i));
      if (p.solid[a] >> i & 1u) {
        EXPECT_EQ(from, kNotFluid) << "node " << p.node[a] << ", direction " << i;
        ++solid;
      } else {
        ASSERT_LT(from, F) << "node " << p.node[a] << ", direction " << i;
        EXPECT_EQ(p.node[from], upstream) << "node " << p.node[a] << ", direction " << i;
      }
    }
  }
  EXPECT_EQ(solid, p.solid_sources);
}

INSTANTIATE_TEST_SUITE_P(Order, LbmPullNodesTiled, ::testing::Bool(), [](const auto& info) { return info.param ? "Tiles" : "Index"; });

// The tiled planes' fluid nodes go tile by tile (kOrderTile^3 nodes counted from the first tiled
// plane), each tile's in index order; the planes around them stay in index order.
TEST(LbmPullNodes, TiledPlanesGoTileByTile) {
  LbmMethod m;
  m.setup(testing::params(testing::small_bed()), testing::cpu_context());
  const LbmConfig& c = m.config();
  const LatticeGeometry& g = m.geometry();
  const int begin = 3, end = c.nz - 2;  // not a multiple of the tile: a partial tile at the end
  ASSERT_GT(end - begin, 2 * kOrderTile);
  const PullNodes p = pull_nodes(c, g, begin, end);
  const std::vector<std::uint32_t> start = plane_starts(c, p);
  const auto tile_of = [&](std::uint32_t k) {
    int x, y, z;
    node_position(c, k, x, y, z);
    return std::array<int, 3>{(z - begin) / kOrderTile, y / kOrderTile, x / kOrderTile};
  };
  std::set<std::array<int, 3>> finished;
  std::size_t tiles = 0;
  for (std::uint32_t a = start[begin]; a < start[end]; ++a) {
    ASSERT_GE(node_plane(c, p.node[a]), begin);
    ASSERT_LT(node_plane(c, p.node[a]), end);
    if (a == start[begin] || tile_of(p.node[a]) != tile_of(p.node[a - 1])) {
      if (a > start[begin]) {
        EXPECT_LT(tile_of(p.node[a - 1]), tile_of(p.node[a])) << "tiles out of order at " << a;
        finished.insert(tile_of(p.node[a - 1]));
      }
      EXPECT_FALSE(finished.count(tile_of(p.node[a]))) << "a tile's nodes split at " << a;
      ++tiles;
    } else {
      EXPECT_LT(p.node[a - 1], p.node[a]) << "a tile's nodes out of index order at " << a;
    }
  }
  EXPECT_GT(tiles, std::size_t(2 * (end - begin) / kOrderTile));  // several tiles a layer of them
  for (std::uint32_t a = 0; a < start[begin]; ++a) EXPECT_LT(p.node[a], p.node[a + 1]);
  for (std::uint32_t a = start[end]; a + 1 < p.node.size(); ++a) EXPECT_LT(p.node[a], p.node[a + 1]);
}

// A plane's fluid nodes are one run of the table, found by plane_starts: a rank steps its owned
// planes' run and sends its end planes' rows from it. The bed's planes have solids in them and
// differ in their fluid count; a plane with no fluid node is an empty run. With planes tiled between
// the end planes, the planes outside them stay runs.
TEST_P(LbmPullNodesTiled, EachPlanesFluidNodesAreARunOfTheTable) {
  LbmMethod m;
  m.setup(testing::params(testing::small_bed()), testing::cpu_context());
  const LbmConfig& c = m.config();
  LatticeGeometry g = m.geometry();
  const long long P = (long long)c.nx * c.ny, solid_plane = c.nz / 2;
  for (long long k = solid_plane * P; k < (solid_plane + 1) * P; ++k) g.type[k] = kWall;
  g.links.erase(std::remove_if(g.links.begin(), g.links.end(), [&](const WallLink& L) { return g.type[L.fluid] != kFluid; }),
                g.links.end());
  const int begin = GetParam() ? 2 : 0, end = GetParam() ? c.nz - 2 : 0;
  const PullNodes p = pull_nodes(c, g, begin, end);
  const std::vector<std::uint32_t> start = plane_starts(c, p);
  ASSERT_EQ(start.size(), std::size_t(c.nz) + 1);
  EXPECT_EQ(start.front(), 0u);
  EXPECT_EQ(start.back(), p.node.size());
  std::set<std::uint32_t> counts;
  for (int z = 0; z < c.nz; ++z) {
    ASSERT_LE(start[z], start[z + 1]) << "plane " << z;
    std::uint32_t fluid = 0;
    for (long long k = z * P; k < (z + 1) * P; ++k) fluid += g.type[k] == kFluid;
    EXPECT_EQ(start[z + 1] - start[z], fluid) << "plane " << z;
    if (z < begin || z >= end) {
      for (std::uint32_t a = start[z]; a < start[z + 1]; ++a) EXPECT_EQ(node_plane(c, p.node[a]), z) << "plane " << z;
    }
    counts.insert(fluid);
  }
  for (std::uint32_t a = start[begin]; a < start[end]; ++a) {
    EXPECT_GE(node_plane(c, p.node[a]), begin);
    EXPECT_LT(node_plane(c, p.node[a]), end);
  }
  EXPECT_EQ(start[solid_plane + 1], start[solid_plane]);  // the solid plane: an empty run
  EXPECT_GT(counts.size(), 2u);                           // the planes differ (the open ends, the bed)
}

// The in-place step needs the whole lattice in one process: a rank of several runs the fused step
// instead; every other choice stands on a rank.
TEST(LbmPullNodes, ARankRunsTheFusedStepWhereTheInPlaceOneWasAsked) {
  LbmConfig c;
  for (const GpuStep asked : {GpuStep::Fused, GpuStep::InPlace, GpuStep::Paper}) {
    c.gpu_step = asked;
    EXPECT_EQ(gpu_step_of(c, slab_of(64, 0, 1)), asked);
    EXPECT_EQ(gpu_step_of(c, slab_of(64, 1, 4)), asked == GpuStep::InPlace ? GpuStep::Fused : asked);
  }
}

// gpu_step = auto fuses the step, but keeps the paper's kernels on the all-fluid periodic box in
// FP64 (faster there); a choice made by the user stands.
TEST(LbmPullNodes, AutoFusesTheStepButOnThePeriodicBoxInFp64) {
  const auto step_of = [](std::map<std::string, std::string> p) {
    return make_config(lbm_param_table().read(testing::params(p))).gpu_step;
  };
  EXPECT_EQ(step_of(testing::small_tube()), GpuStep::Fused);
  EXPECT_EQ(step_of(testing::small_bed()), GpuStep::Fused);
  EXPECT_EQ(step_of(testing::periodic_box(8, 8, 16)), GpuStep::Paper);  // precision's default, fp64
  for (const char* precision : {"fp32", "fp16"}) {
    auto box = testing::periodic_box(8, 8, 16);
    box["precision"] = precision;
    EXPECT_EQ(step_of(box), GpuStep::Fused) << precision;
  }
  auto box = testing::periodic_box(8, 8, 16);
  box["gpu_step"] = "fused";
  EXPECT_EQ(step_of(box), GpuStep::Fused);
  auto bed = testing::small_bed();
  bed["gpu_step"] = "paper";
  EXPECT_EQ(step_of(bed), GpuStep::Paper);
}

}  // namespace
}  // namespace ks::lbm
