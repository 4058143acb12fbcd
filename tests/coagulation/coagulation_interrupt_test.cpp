// aerosol.coagulation stopped on request (core/interrupt.hpp): an iteration stopped among its events
// is dropped (the runs go back to its start: no events, statistics or iteration), and the next
// advance() gives the state of a run never stopped, whatever the pair selection.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <tuple>

#include "core/interrupt.hpp"
#include "method_test_support.hpp"
#include "methods/coagulation/coag_method.hpp"
#include "require_cuda.hpp"

namespace ks::coag {
namespace {

// One run whose output from 1 to 10 tau_char takes about half a second on one core: 4000 particles
// with the prefix selection's O(n_s) an event, 100000 with the majorant's O(log n_s).
ParamSet params(const std::string& selection) {
  return test_support::method_params<CoagulationMethod>({{"n_s", selection == "prefix" ? "4000" : "100000"},
                                                         {"n_runs", "1"},
                                                         {"t_end", "10"},
                                                         {"outputs_per_decade", "1"},
                                                         {"selection", selection},
                                                         {"step_fraction", "0.01"}});
}

std::string state_of(const CoagulationMethod& m) {
  std::stringstream out;
  m.save_state(out);
  return out.str();
}

class CoagulationInterrupt : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {};

TEST_P(CoagulationInterrupt, AStoppedIterationIsDroppedAndTheNextOneGivesTheStateOfARunNeverStopped) {
  const auto [backend, selection] = GetParam();
  const bool cuda = std::string(backend) == "cuda";
  if (cuda) KS_REQUIRE_CUDA();
  ExecutionContext ctx = test_support::context_named(backend);
  ctx.interrupt = Interrupt::make();
  CoagulationMethod stopped, straight;
  stopped.setup(params(selection), ctx);
  straight.setup(params(selection), test_support::context_named(backend));
  while (stopped.progress().sim_time < 0.99) stopped.advance(), straight.advance();  // to t = 1 tau_char
  const Progress before = stopped.progress();

  const std::string at_start = state_of(stopped);
  // On the CPU the user stops it among its events; on the GPU, whose iteration may end within the
  // delay, before its first launch (the device copy is put back all the same).
  if (cuda) {
    ctx.interrupt.request();
    stopped.advance();
  } else {
    test_support::advance_stopped_after(stopped, ctx, std::chrono::milliseconds(20));
  }
  EXPECT_EQ(stopped.progress().iteration, before.iteration);
  EXPECT_EQ(stopped.progress().work_done, before.work_done);
  EXPECT_TRUE(state_of(stopped) == at_start) << "a stopped iteration changed the state";

  ctx.interrupt.clear();
  stopped.advance();
  straight.advance();
  EXPECT_EQ(stopped.progress().iteration, before.iteration + 1);
  EXPECT_EQ(stopped.progress().work_done, straight.progress().work_done);
  EXPECT_TRUE(state_of(stopped) == state_of(straight)) << "the state differs from a run never stopped";
}

INSTANTIATE_TEST_SUITE_P(CpuAndCuda, CoagulationInterrupt,
                         ::testing::Combine(::testing::Values("cpu", "cuda"), ::testing::Values("prefix", "majorant", "stepped")));

}  // namespace
}  // namespace ks::coag
