// lbm.binary stopped on request (core/interrupt.hpp): an iteration ends at the last completed step,
// bit for bit the state of a run that took exactly those steps, and goes on from there as if never
// stopped; a set-up stopped while packing spheres keeps the previous set-up.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>

#include "core/interrupt.hpp"
#include "lbm_test_support.hpp"
#include "require_cuda.hpp"

namespace ks::lbm {
namespace {

using namespace std::chrono_literals;

std::vector<double> populations(const LbmMethod& m) {
  std::vector<double> f;
  m.solver().read_f(f);
  return f;
}

void expect_same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
}

// On the CPU the stop lands inside a step (which is dropped); on CUDA between kernels.
class LbmInterrupt : public ::testing::TestWithParam<const char*> {
 protected:
  ExecutionContext context() const { return test_support::context_named(GetParam()); }
};

TEST_P(LbmInterrupt, AStoppedIterationHoldsItsCompletedStepsBitForBitAndGoesOnFromThem) {
  if (std::string(GetParam()) == "cuda") KS_REQUIRE_CUDA();
  auto p = testing::small_bed();
  p["steps_per_iteration"] = "100000";
  p["max_steps"] = "1000000";
  ExecutionContext ctx = context();
  ctx.interrupt = Interrupt::make();
  LbmMethod stopped;
  stopped.setup(testing::params(p), ctx);
  test_support::advance_stopped_under_way(stopped, ctx, 300ms, [&] { return stopped.steps() > 0; });
  const std::int64_t k = stopped.steps();
  ASSERT_GT(k, 0);
  ASSERT_LT(k, 100000);
  EXPECT_EQ(stopped.progress().iteration, 0);  // a stopped iteration adds none, and no residual point
  EXPECT_EQ(stopped.progress().sim_time, double(k));

  p["steps_per_iteration"] = std::to_string(k);
  LbmMethod straight;
  straight.setup(testing::params(p), context());
  straight.advance();
  expect_same_bits(populations(stopped), populations(straight));
  EXPECT_EQ(stopped.moments(), straight.moments());  // what snapshots and files read

  // Ten more steps each: the step abandoned mid-way leaves nothing behind.
  ctx.interrupt.clear();
  stopped.set_live("steps_per_iteration", std::int64_t{10});
  straight.set_live("steps_per_iteration", std::int64_t{10});
  stopped.advance();
  straight.advance();
  EXPECT_EQ(stopped.steps(), k + 10);
  expect_same_bits(populations(stopped), populations(straight));
}

INSTANTIATE_TEST_SUITE_P(CpuAndCuda, LbmInterrupt, ::testing::Values("cpu", "cuda"));

TEST(LbmSetUpInterrupt, ASetUpStoppedWhilePackingKeepsThePreviousOne) {
  ExecutionContext ctx = testing::cpu_context();
  ctx.interrupt = Interrupt::make();
  LbmMethod m;
  m.setup(testing::params(testing::small_tube()), ctx);
  m.advance();
  const std::vector<double> before = populations(m);
  ctx.interrupt.request();
  EXPECT_THROW(m.setup(testing::params(testing::small_bed()), ctx), Interrupted);
  EXPECT_EQ(m.config().geometry, Geometry::Tube);
  EXPECT_EQ(m.params().get_choice("geometry"), "tube");
  expect_same_bits(populations(m), before);
}

}  // namespace
}  // namespace ks::lbm
