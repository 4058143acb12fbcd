// The progress toward a run's end that the app's time left follows: the time fraction, or the decades
// a residual has fallen toward its tolerance, whichever is further, named.
#include <gtest/gtest.h>

#include "core/end_condition.hpp"

TEST(EndCondition, TheFurtherOfTimeAndResidualDecadesCountsAndIsNamed) {
  // A cavity steady long before t_end: residual 1e-5 of a 1e-7 tolerance is 5/7 of the way.
  ks::EndProgress e = ks::toward_end(0.08, "t_end", 1e-5, 1e-7);
  EXPECT_NEAR(e.fraction, 5.0 / 7.0, 1e-12);
  EXPECT_EQ(e.condition, "steady state (residual 1e-07)");
  // Early, with the residual near 1, the time counts.
  e = ks::toward_end(0.3, "t_end", 0.5, 1e-7);
  EXPECT_EQ(e.fraction, 0.3);
  EXPECT_EQ(e.condition, "t_end");
  // No tolerance, or no residual yet: time alone, clamped to [0, 1].
  EXPECT_EQ(ks::toward_end(1.7, "max_steps", 1e-9, 0.0).fraction, 1.0);
  EXPECT_EQ(ks::toward_end(0.2, "max_steps", 0.0, 1e-7).condition, "max_steps");
  // A residual above 1 is no progress.
  EXPECT_EQ(ks::toward_end(0.0, "t_end", 3.0, 1e-7).fraction, 0.0);
}
