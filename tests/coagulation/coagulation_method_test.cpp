// aerosol.coagulation as a ks::Method on the CPU: the memory estimate the Runner checks before
// setup, the checks of a checkpoint's state, and the end condition reported by progress().
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "coagulation_test_support.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "expect_error.hpp"
#include "method_test_support.hpp"
#include "method_readme.hpp"

namespace ks::coag {
namespace {

using test_support::cpu_context;
using test_support::cuda_context;
using test_support::method_params;

ParamSet params(int n_s, int n_runs, double t_end = 1.0) {
  return method_params<CoagulationMethod>(
      {{"n_s", std::to_string(n_s)}, {"n_runs", std::to_string(n_runs)}, {"t_end", std::to_string(t_end)}});
}

std::string state_of(const CoagulationMethod& m) {
  std::stringstream out;
  m.save_state(out);
  return out.str();
}

// The README's bytes a particle on the host and the device, and its refused largest ensemble's
// host and device figures, are the estimate's.
TEST(CoagulationMethod, TheReadmesMemoryFiguresAreTheEstimates) {
  const std::string readme = ks::test_support::method_readme("coagulation");
  std::smatch per, huge;
  ASSERT_TRUE(std::regex_search(readme, per, std::regex("counts (\\d+) B a particle[^;]*?host, (\\d+) B on the\\s+device")))
      << "the README no longer gives the bytes a particle";
  ASSERT_TRUE(std::regex_search(readme, huge, std::regex("refused before allocation \\(([^ ]+ [A-Z]+) host, ([^ ]+ [A-Z]+) device\\)")))
      << "the README no longer gives the largest ensemble's memory";
  CoagulationMethod m;
  const MemoryEstimate cpu = m.estimate_memory(params(4000000, 10000), cpu_context());
  const MemoryEstimate gpu = m.estimate_memory(params(4000000, 10000), cuda_context());
  EXPECT_NE(cpu.detail.find("particles x 2 (an iteration's start kept) x " + per[1].str() + " B"), std::string::npos) << cpu.detail;
  EXPECT_NE(gpu.detail.find("device: n_s x n_runs = 4000000 x 10000 = 40000000000 particles x " + per[2].str() + " B"), std::string::npos)
      << gpu.detail;
  EXPECT_EQ(huge[1].str(), ks::format_bytes(cpu.host_bytes));
  EXPECT_EQ(huge[2].str(), ks::format_bytes(gpu.device_bytes));
}

TEST(CoagulationMethod, MemoryEstimateGrowsWithTheEnsembleAndCoversTheSavedState) {
  CoagulationMethod m;
  const MemoryEstimate small = m.estimate_memory(params(2000, 500), cpu_context());
  const MemoryEstimate large = m.estimate_memory(params(2000, 1000), cpu_context());
  // The per-run terms (n_s x 24 B twice, about 48 MB at 500 runs) double; one thread's work arrays and
  // a snapshot of run 0 (n_s x 160 B = 0.32 MB) do not: a ratio of 2 - 0.32 / 48.3 = 1.993.
  EXPECT_NEAR(double(large.host_bytes) / double(small.host_bytes), 2.0, 0.02);
  EXPECT_EQ(small.device_bytes, 0u);
  EXPECT_NE(small.detail.find("n_s x n_runs = 2000 x 500 = 1000000 particles"), std::string::npos) << small.detail;

  // The largest ensemble the ranges allow needs about 1 TB: the Runner refuses it from this estimate
  // instead of failing on the allocation. Nothing is allocated here, so no GPU is needed.
  const MemoryEstimate huge = m.estimate_memory(params(4000000, 10000), cpu_context());
  EXPECT_GE(huge.host_bytes, 40000000000ull * 24);
  const MemoryEstimate huge_gpu = m.estimate_memory(params(4000000, 10000), cuda_context());
  EXPECT_GE(huge_gpu.device_bytes, 40000000000ull * 72);  // v, w, C', the row buffer and the aux (40 B)
  EXPECT_GE(huge_gpu.host_bytes, 40000000000ull * 24);    // the host copy of the ensemble

  // The saved state at the end (statistics of every output) holds the counted ensemble, per-run arrays
  // and statistics plus counts and output times (~0.3 kB); the estimate adds the work arrays, n_s x
  // 160 B, the per-run target of an advance, 8 B, which save_state does not write, and the iteration's
  // start that advance() keeps (the ensemble, n_s x 24 B, and 36 B a run).
  m.setup(params(200, 3), cpu_context());
  while (!m.finished()) m.advance();
  const std::size_t state = state_of(m).size();
  const MemoryEstimate est = m.estimate_memory(params(200, 3), cpu_context());
  EXPECT_GE(est.host_bytes, state);
  EXPECT_LE(est.host_bytes, state + 200 * 160 + 3 * 8 + 3 * (200 * 24 + 36));
}

TEST(CoagulationMethod, CraftedStateIsRefusedAndLeavesTheMethodAsItWas) {
  constexpr int kNs = 200, kRuns = 3, kParticles = kNs * kRuns;
  CoagulationMethod m, straight;
  m.setup(params(kNs, kRuns), cpu_context());
  straight.setup(params(kNs, kRuns), cpu_context());
  for (int i = 0; i < 2; ++i) m.advance(), straight.advance();
  const std::string good = state_of(m);
  const std::vector<double> t_out = m.output_times();
  const std::size_t outputs = t_out.size();
  ASSERT_EQ(outputs, 12u);  // 0, ten outputs in [0.01, 1) tau_char, t_end = 1

  // The layout of save_state: tag (4 + 19 + 4 B), iteration (4 B), events, initial volume, the output
  // times (count + doubles), the next outputs (count + ints), n_runs (4 B), v, w, C' (count + one double
  // per particle each), t, events, since-refresh (count + one value per run each), the statistics count
  // and per output a vector of 24 B statistics (3 runs for the outputs 0-2 reached, none after).
  const std::size_t kIteration = 27, kVolume = 39, kTimes = 47, kNext = kTimes + 8 + 8 * outputs, kRunCount = kNext + 8 + 4 * kRuns,
                    kV = kRunCount + 4, kW = kV + 8 + 8 * kParticles, kC = kW + 8 + 8 * kParticles, kT = kC + 8 + 8 * kParticles,
                    kSince = kT + 2 * (8 + 8 * kRuns), kOutputs = kSince + 8 + 8 * kRuns, kStats = kOutputs + 8;
  ASSERT_EQ(good.size(), kStats + 8 * outputs + 3 * kRuns * 24);
  auto patched = [&good](std::size_t at, auto value) { return ks::test_support::patched(good, at, value); };
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const std::pair<std::string, const char*> crafted[] = {
      {patched(kIteration, std::int32_t(-1)), "iteration -1"},
      {patched(kIteration, std::int32_t(12)), "iteration 12 of 12 output times"},
      {patched(kVolume, nan), "initial volume fraction of nan"},
      {patched(kTimes + 8 + 8 * 3, t_out[2]), "output 3 at"},
      {patched(kTimes + 8 + 8 * (outputs - 1), 2 * t_out.back()), "t_end = 1 tau_char"},
      {patched(kNext, std::uint64_t(4)), "does not match its parameters (n_s, n_runs): it has 4 next outputs"},
      {patched(kNext + 8 + 4 * 1, std::int32_t(0)), "next output 0 for run 1"},
      {patched(kNext + 8 + 4 * 2, std::int32_t(4)), "next output 4 for run 2"},
      {patched(kRunCount, std::int32_t(4)), "4 runs and 3 next outputs"},
      {patched(kV, std::uint64_t(kParticles + 1)), "601 particle volumes"},
      {patched(kW, std::uint64_t(kParticles + 1)), "vector of 601 items"},
      {patched(kV + 8 + 8 * 5, -1.0), "particle 5 of run 0"},
      {patched(kW + 8 + 8 * (kNs + 7), 0.0), "particle 7 of run 1"},
      {patched(kC + 8 + 8 * (2 * kNs + 1), inf), "particle 1 of run 2"},
      {patched(kT + 8 + 8 * 1, t_out.back()), "run 1 at 1 tau_char after output 2"},
      {patched(kSince + 8, std::uint64_t(4 * kNs + 1)), "801 events since the last refresh"},
      {patched(kOutputs, std::uint64_t(outputs - 1)), "statistics of 11 outputs for 12 output times"},
      {patched(kStats, std::uint64_t(2)), "statistics of 2 runs at output 0"},
      {patched(kStats + 8 + 8, nan), "non-finite statistics at output 0"},
      {good.substr(0, good.size() - 4), "truncated"},
  };
  for (const auto& [state, word] : crafted) {
    SCOPED_TRACE(word);
    std::istringstream in(state);
    test_support::expect_error([&] { m.load_state(in); }, ErrorKind::BadInput, {"checkpoint", word});
  }
  CoagulationMethod bare;
  std::istringstream in(good);
  test_support::expect_error([&] { bare.load_state(in); }, ErrorKind::BadInput, {"checkpoint", "no set-up"});

  // Refused states changed nothing: the run goes on bit for bit with the one never checkpointed.
  EXPECT_EQ(m.progress().iteration, 2);
  EXPECT_TRUE(state_of(m) == good) << "the state changed";
  m.advance(), straight.advance();
  EXPECT_EQ(m.ensemble().v, straight.ensemble().v);
  EXPECT_EQ(m.snapshot().series[1].y, straight.snapshot().series[1].y);  // d_g
}

TEST(CoagulationMethod, StateWithLiveChangesIsAcceptedAndContinuesTheRun) {
  // Runs added since the last advance (still at output 0) and a later t_end: a restart sets up with
  // the checkpoint's n_runs and t_end, and must accept the state and continue as if never stopped.
  CoagulationMethod first, restarted;
  first.setup(params(100, 2), cpu_context());
  for (int i = 0; i < 3; ++i) first.advance();
  first.set_live("n_runs", std::int64_t(4));
  first.set_live("t_end", 2.0);
  std::istringstream in(state_of(first));
  restarted.setup(params(100, 4, 2.0), cpu_context());
  restarted.load_state(in);
  EXPECT_EQ(restarted.progress().iteration, 3);
  while (!first.finished()) first.advance(), restarted.advance();
  EXPECT_TRUE(restarted.finished());
  EXPECT_TRUE(state_of(restarted) == state_of(first)) << "save_state differs after the restart";
}

// With selection = majorant (or stepped) the samplers (trees) are not in the checkpoint: they are
// rebuilt from the particles at every advance, so a restart continues bit for bit, on the CPU and on CUDA.
TEST(CoagulationMethod, MajorantRestartContinuesBitForBit) {
  for (const bool cuda : {false, true})
    for (const char* selection : {"majorant", "stepped"}) {
      if (cuda && !query_cuda().usable) {
        std::printf("[  SKIPPED ] the CUDA half: no usable CUDA device\n");
        continue;
      }
      SCOPED_TRACE(std::string(cuda ? "cuda " : "cpu ") + selection);
      const ExecutionContext ctx = cuda ? cuda_context() : cpu_context();
      const ParamSet p = method_params<CoagulationMethod>(
          {{"n_s", "300"}, {"n_runs", "3"}, {"t_end", "10"}, {"selection", selection}, {"step_fraction", "0.01"}});
      CoagulationMethod straight, first, restarted;
      straight.setup(p, ctx);
      first.setup(p, ctx);
      for (int i = 0; i < 4; ++i) straight.advance(), first.advance();
      std::istringstream in(state_of(first));
      restarted.setup(p, ctx);
      restarted.load_state(in);
      while (!straight.finished()) straight.advance(), restarted.advance();
      EXPECT_TRUE(restarted.finished());
      EXPECT_GT(restarted.progress().iteration, 8);
      EXPECT_TRUE(state_of(restarted) == state_of(straight)) << "save_state differs after the restart";
    }
}

TEST(CoagulationMethod, ConvergedStaysFalseWhenTheEndTimeEndsTheRun) {
  // aerosol.coagulation has no convergence tolerance: t_end ends every run.
  CoagulationMethod m;
  m.setup(params(100, 2), cpu_context());
  EXPECT_FALSE(m.progress().converged);
  while (!m.finished()) m.advance();
  EXPECT_EQ(m.progress().fraction_done, 1.0);
  EXPECT_FALSE(m.progress().converged);
}

}  // namespace
}  // namespace ks::coag
