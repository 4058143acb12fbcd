// kinetic.dvm stopped on request (core/interrupt.hpp): a sweep stopped part-way is dropped, the
// iterate stays the last one, and the next sweep gives what an uninterrupted run gives.
#include <gtest/gtest.h>

#include <string>

#include "core/interrupt.hpp"
#include "dvm_test_support.hpp"
#include "require_cuda.hpp"

namespace ks::dvm {
namespace {

class DvmInterrupt : public ::testing::TestWithParam<const char*> {};

TEST_P(DvmInterrupt, AStoppedSweepLeavesTheIterateAndTheNextOneEqualsAnUninterruptedRun) {
  if (std::string(GetParam()) == "cuda") KS_REQUIRE_CUDA();
  ExecutionContext ctx = test_support::context_named(GetParam());
  ctx.interrupt = Interrupt::make();
  DvmMethod stopped, straight;
  stopped.setup(testing::params(testing::small_cavity()), ctx);
  straight.setup(testing::params(testing::small_cavity()), test_support::context_named(GetParam()));
  stopped.advance();
  straight.advance();
  const std::vector<double> before = stopped.raw_moments();
  ctx.interrupt.request();  // the next sweep stops at once
  stopped.advance();
  EXPECT_EQ(stopped.progress().iteration, 1);
  EXPECT_EQ(stopped.raw_moments(), before);
  ctx.interrupt.clear();
  stopped.advance();
  straight.advance();
  EXPECT_EQ(stopped.progress().iteration, 2);
  EXPECT_EQ(stopped.raw_moments(), straight.raw_moments());
  EXPECT_EQ(stopped.progress().residual, straight.progress().residual);
}

INSTANTIATE_TEST_SUITE_P(CpuAndCuda, DvmInterrupt, ::testing::Values("cpu", "cuda"));

}  // namespace
}  // namespace ks::dvm
