// clear_inherited_vector_state (issue 49: the app's GUI thread left the upper vector state in use, the
// solver thread inherited it, and glibc's log ran 30x slower there). The Runner's use: runner_test.
#include <gtest/gtest.h>

#include "core/vector_state.hpp"
#include "dirty_vector_state.hpp"

TEST(VectorState, ClearingLeavesNoUpperStateInUse) {
  if (!ks::upper_vector_state_observable()) GTEST_SKIP() << "this CPU does not report XINUSE (or has no AVX)";
  leave_upper_vector_state_in_use();
  ASSERT_TRUE(ks::upper_vector_state_in_use()) << "256-bit AVX code did not show as upper state in use";
  ks::clear_inherited_vector_state();
  EXPECT_FALSE(ks::upper_vector_state_in_use());
}
