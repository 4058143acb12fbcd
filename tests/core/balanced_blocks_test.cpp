// core/balanced_blocks.hpp: blocks re-cut to equal times, under the model that a block's time is
// spread evenly over its items.
#include "core/balanced_blocks.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace ks {

using Bounds = std::vector<std::int64_t>;

TEST(BalancedBounds, EqualTimesKeepEqualBlocks) {
  EXPECT_EQ(balanced_bounds({0, 100, 200, 300, 400}, {1.0, 1.0, 1.0, 1.0}), (Bounds{0, 100, 200, 300, 400}));
}

// Block 0 took twice as long as block 1 for as many items: each item of block 0 costs 0.02 s, of
// block 1 0.01 s, so equal halves of the 3 s cut block 0 at 75 items.
TEST(BalancedBounds, ASlowBlockGivesItemsAway) { EXPECT_EQ(balanced_bounds({0, 100, 200}, {2.0, 1.0}), (Bounds{0, 75, 200})); }

// Four blocks whose middle two are slow per item (the parabolic slab's hot middle): the new bounds
// give each an equal share of the modelled total, and the model's times of the new blocks are equal.
TEST(BalancedBounds, FourBlocksGetEqualModelledTimes) {
  const Bounds old{0, 1000, 2000, 3000, 4000};
  const std::vector<double> seconds{1.0, 3.0, 3.0, 1.0};
  const Bounds cut = balanced_bounds(old, seconds);
  auto modelled = [&](std::int64_t a, std::int64_t b) {  // time of items [a, b) under the old blocks' rates
    double t = 0.0;
    for (std::int64_t i = a; i < b; ++i) t += seconds[std::size_t(i / 1000)] / 1000.0;
    return t;
  };
  for (int r = 0; r < 4; ++r) EXPECT_NEAR(modelled(cut[r], cut[r + 1]), 2.0, 0.01) << "block " << r;
  EXPECT_EQ(cut, (Bounds{0, 1333, 2000, 2667, 4000}));
}

TEST(BalancedBounds, EveryBlockKeepsAnItem) {
  const Bounds cut = balanced_bounds({0, 1, 2, 3}, {1e-9, 1.0, 1e-9});
  for (int r = 0; r < 3; ++r) EXPECT_GE(cut[r + 1] - cut[r], 1) << "block " << r;
  EXPECT_EQ(cut.back(), 3);
}

TEST(BalancedBounds, TimesNotPositiveLeaveTheBounds) {
  const Bounds old{0, 10, 30};
  EXPECT_EQ(balanced_bounds(old, {0.0, 1.0}), old);
  EXPECT_EQ(balanced_bounds(old, {1.0, std::numeric_limits<double>::quiet_NaN()}), old);
}

}  // namespace ks
