// kinetic.bgk stopped on request (core/interrupt.hpp): an iteration ends at the last completed step
// (on the CPU a step under way is dropped, on CUDA the launched ones finish), bit for bit the state
// of a run that took exactly those steps, and goes on from there as if never stopped.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <string>

#include "bgk_test_support.hpp"
#include "core/interrupt.hpp"
#include "require_cuda.hpp"

namespace ks::bgk {
namespace {

using namespace std::chrono_literals;

std::vector<double> distribution(const BgkMethod& m) {
  std::vector<double> f;
  m.solver().read_f(f);
  return f;
}

class BgkInterrupt : public ::testing::TestWithParam<const char*> {
 protected:
  ExecutionContext context() const { return test_support::context_named(GetParam()); }
};

TEST_P(BgkInterrupt, AStoppedIterationHoldsItsCompletedStepsBitForBitAndGoesOnFromThem) {
  if (std::string(GetParam()) == "cuda") KS_REQUIRE_CUDA();
  auto p = testing::small_cavity();
  p["steps_per_iteration"] = "100000";
  p["t_end"] = "1e6";
  p["tolerance"] = "0";
  ExecutionContext ctx = context();
  ctx.interrupt = Interrupt::make();
  BgkMethod stopped;
  stopped.setup(testing::params(p), ctx);
  const auto steps_done = [&] { return std::llround(stopped.time() / stopped.config().dt); };
  test_support::advance_stopped_under_way(stopped, ctx, 300ms, [&] { return steps_done() > 0; });
  const std::int64_t k = steps_done();
  ASSERT_GT(k, 0);
  ASSERT_LT(k, 100000);
  EXPECT_EQ(stopped.progress().iteration, 0);  // no iteration, no residual or drag point

  p["steps_per_iteration"] = std::to_string(k);
  BgkMethod straight;
  straight.setup(testing::params(p), context());
  straight.advance();
  const std::vector<double> a = distribution(stopped), b = distribution(straight);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
  EXPECT_EQ(stopped.raw_moments(), straight.raw_moments());
  EXPECT_EQ(stopped.progress().sim_time, straight.progress().sim_time);

  ctx.interrupt.clear();
  stopped.set_live("steps_per_iteration", std::int64_t{7});
  straight.set_live("steps_per_iteration", std::int64_t{7});
  stopped.advance();
  straight.advance();
  const std::vector<double> c = distribution(stopped), d = distribution(straight);
  EXPECT_EQ(std::memcmp(c.data(), d.data(), c.size() * sizeof(double)), 0);
}

INSTANTIATE_TEST_SUITE_P(CpuAndCuda, BgkInterrupt, ::testing::Values("cpu", "cuda"));

}  // namespace
}  // namespace ks::bgk
