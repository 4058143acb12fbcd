// The CUDA path of aerosol.coagulation against the CPU reference. Skips, saying so,
// where no CUDA device is usable; run on a GPU machine before a release.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "coagulation_test_support.hpp"
#include "core/errors.hpp"
#include "expect_error.hpp"
#include "method_test_support.hpp"
#include "methods/coagulation/coag_cpu.hpp"
#include "methods/coagulation/coag_stepped.hpp"
#include "methods/coagulation/coag_units.hpp"
#include "require_cuda.hpp"
#include "scoped_env.hpp"
#ifdef KS_HAVE_CUDA
#include <cuda_runtime.h>

#include "methods/coagulation/coag_cuda_ensemble.hpp"
#endif

namespace ks::coag {
namespace {

#ifdef KS_HAVE_CUDA
// One run spread over the blocks of a thread-block cluster, with its particles in shared memory
// (up to 3200 per block) or in global memory, must make the CPU's choices.
struct Layout {
  int blocks, n_s;
  Selection selection = Selection::Prefix;
};
class GpuClusterSize : public ::testing::TestWithParam<Layout> {};

TEST_P(GpuClusterSize, GpuRepeatsTheCpuEventsForTheSameSeed) {
  KS_REQUIRE_CUDA();
  // refresh_every 300: a full recompute of C' inside the compared events too.
  EnsembleConfig cfg = testing::free_molecular_config(GetParam().n_s, 300, 3);
  cfg.selection = GetParam().selection;
  Ensemble cpu = testing::make_ensemble(cfg, 2, 1.4);
  CudaEnsemble gpu(0);
  gpu.set_cluster_size(GetParam().blocks);
  gpu.upload(cpu, cfg);
  // Before Hopper (or with code built for it) a run is one block: the same events, one block slower.
  ASSERT_EQ(gpu.cluster_size(), std::min(GetParam().blocks, gpu.max_cluster_size()));
  constexpr std::uint64_t kEvents = 400;
  bool reached = false;
  EXPECT_EQ(gpu.launch({1e300, 1e300}, kEvents, reached), 2 * kEvents);
  for (int r = 0; r < 2; ++r) advance_run_cpu(cpu, r, cfg, 1e300, kEvents);
  Ensemble g;
  gpu.download(g);
  // Same random numbers, same selections: the pair choices agree unless a sum's rounding order moves
  // a target across an interval boundary (probability ~1e-13 per event). Volumes then agree to round-off.
  for (std::size_t k = 0; k < cpu.v.size(); ++k) {
    ASSERT_NEAR(g.v[k] / cpu.v[k], 1.0, 1e-12) << "particle " << k;
    ASSERT_EQ(g.w[k], cpu.w[k]) << "particle " << k;
    ASSERT_NEAR(g.C[k] / cpu.C[k], 1.0, 1e-9) << "particle " << k;
  }
  for (int r = 0; r < 2; ++r) EXPECT_NEAR(g.t[r] / cpu.t[r], 1.0, 1e-12);
}

// Thread-block clusters need an sm_90 device and sm_90 code: a build with PTX for an older
// architecture (KS_CUDA_ARCH_LIST, e.g. 80-virtual JIT-compiled on an H100) runs single blocks.
TEST(CoagulationCuda, ClustersWhereTheDeviceAndTheCodeHaveThem) {
  KS_REQUIRE_CUDA();
  int major = 0;
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), cudaSuccess);
  const std::string built = KS_CUDA_ARCH_LIST;  // e.g. "75-real 80-real 86-real 89-real 90"
  const bool hopper_code = built.find("90") != std::string::npos || built.find("native") != std::string::npos;
  CudaEnsemble gpu(0);
  EXPECT_EQ(gpu.max_cluster_size(), major >= 9 && hopper_code ? 16 : 1) << "built for " << built;
  std::printf("[ measured ] %s, built for %s: up to %d blocks a run, %d particles a block in shared memory\n",
              query_cuda().device_name.c_str(), built.c_str(), gpu.max_cluster_size(), gpu.max_resident_particles());
}

// A GPU with less shared memory a block than Hopper keeps fewer particles there (Turing: 64 KiB)
// and the rest in global memory, with the same events for the same seed.
TEST(CoagulationCuda, SmallerSharedMemoryKeepsTheCpuEvents) {
  KS_REQUIRE_CUDA();
  const test_support::ScopedEnv limit("KS_CUDA_SHARED_MEMORY_LIMIT", "65536");
  const EnsembleConfig cfg = testing::free_molecular_config(1500, 300, 3);
  Ensemble cpu = testing::make_ensemble(cfg, 1, 1.4);
  CudaEnsemble gpu(0);
  // 64 KiB less the event loop's static part, 64 B a particle: several hundred, not 3200.
  EXPECT_GT(gpu.max_resident_particles(), 300);
  EXPECT_LT(gpu.max_resident_particles(), 1024);
  gpu.set_cluster_size(1);
  gpu.upload(cpu, cfg);
  bool reached = false;
  EXPECT_EQ(gpu.launch({1e300}, 400, reached), 400u);
  advance_run_cpu(cpu, 0, cfg, 1e300, 400);
  Ensemble g;
  gpu.download(g);
  for (std::size_t k = 0; k < cpu.v.size(); ++k) ASSERT_NEAR(g.v[k] / cpu.v[k], 1.0, 1e-12) << "particle " << k;
}

TEST(CoagulationCuda, NonFiniteRatesFailTheRejectionRunInsteadOfHanging) {
  KS_REQUIRE_CUDA();
  EnsembleConfig cfg = testing::free_molecular_config(1500, 1 << 30, 3);
  cfg.selection = Selection::Rejection;
  Ensemble e = testing::make_ensemble(cfg, 1, 1.4);
  e.C[5] = INFINITY;
  CudaEnsemble gpu(0);
  gpu.set_cluster_size(4);
  gpu.upload(e, cfg);
  bool reached = false;
  test_support::expect_error([&] { gpu.launch({1e300}, 10, reached); }, ErrorKind::RunFailed, {"not finite"});
}

TEST(CoagulationCuda, DeviceInitialisationMatchesTheCpuRates) {
  KS_REQUIRE_CUDA();
  const EnsembleConfig cfg = testing::free_molecular_config(3000, 4 * 3000, 9);
  const Ensemble cpu = testing::make_ensemble(cfg, 3, 1.6);
  Ensemble bare = cpu;
  for (double& c : bare.C) c = -1.0;  // poisoned: every value must be written by the kernel
  CudaEnsemble gpu(0);
  gpu.upload(bare, cfg);
  gpu.recompute_rates(1);  // runs 1 and 2 only; run 0 keeps its poison
  Ensemble g;
  gpu.download(g);
  for (int k = 0; k < cfg.n_s; ++k) ASSERT_EQ(g.C[k], -1.0);
  // Same sums in the same order; only contraction into FMA may differ: 1e-12 relative.
  for (std::size_t k = cfg.n_s; k < cpu.C.size(); ++k) ASSERT_NEAR(g.C[k] / cpu.C[k], 1.0, 1e-12) << "particle " << k;
}

// Selection against a majorant (coag_majorant.hpp): one warp a run makes the CPU's trials, picks and
// sampler moves, through rebuilds at every advance, every refresh_every events and when a value
// leaves its window (the additive kernel's volumes grow fastest), for one run and an ensemble.
struct MajorantCase {
  KernelKind kernel;
  int runs, n_s;
  std::int64_t refresh_every;
};
class GpuMajorant : public ::testing::TestWithParam<MajorantCase> {};

// `runs` runs of cfg (the kernel's K and B set here) advanced on the GPU and on the CPU to `waits` and
// then 3 `waits` of run 0's initial mean waiting times (eq. 4): two advances, the samplers or trees
// rebuilt at the start of each; the GPU makes the same events (volumes to 1e-12, weights, times and
// counts exactly).
void expect_gpu_repeats_the_cpu_events(EnsembleConfig cfg, int runs, double waits = 300.0) {
  cfg.kernel.K = 3e-16;
  cfg.kernel.B = 1e8;
  Ensemble cpu = testing::make_ensemble(cfg, runs, 1.4);
  CudaEnsemble gpu(0);
  gpu.upload(cpu, cfg);
  double sum_C = 0.0;  // make_ensemble's C' of run 0
  for (int k = 0; k < cfg.n_s; ++k) sum_C += cpu.C[k];
  const double dt = waits * waiting_time(sum_C, cfg.box_volume);
  std::uint64_t gpu_events = 0, cpu_events = 0;
  for (double t : {dt, 3 * dt}) {
    gpu_events += gpu.advance(std::vector<double>(runs, t), 700);
    for (int r = 0; r < runs; ++r) cpu_events += advance_run_cpu(cpu, r, cfg, t, ~0ull);
  }
  Ensemble g;
  gpu.download(g);
  EXPECT_EQ(gpu_events, cpu_events);
  EXPECT_GT(cpu_events, std::uint64_t(runs) * 200);
  for (std::size_t k = 0; k < cpu.v.size(); ++k) {
    ASSERT_NEAR(g.v[k] / cpu.v[k], 1.0, 1e-12) << "particle " << k;
    ASSERT_EQ(g.w[k], cpu.w[k]) << "particle " << k;
  }
  for (int r = 0; r < runs; ++r) {
    EXPECT_NEAR(g.t[r] / cpu.t[r], 1.0, 1e-12);
    EXPECT_EQ(g.events[r], cpu.events[r]);
    EXPECT_EQ(g.since_refresh[r], cpu.since_refresh[r]);
  }
}

TEST_P(GpuMajorant, GpuRepeatsTheCpuEventsForTheSameSeed) {
  KS_REQUIRE_CUDA();
  const MajorantCase c = GetParam();
  EnsembleConfig cfg = testing::free_molecular_config(c.n_s, c.refresh_every, 5);
  cfg.selection = Selection::Majorant;
  cfg.kernel.kind = c.kernel;
  expect_gpu_repeats_the_cpu_events(cfg, c.runs);
}

// Non-finite particles make every trial's acceptance NaN: the warp gives up after kMaxRounds and the
// run fails with the CPU's message instead of hanging.
TEST(CoagulationCuda, MajorantNonFiniteParticlesFailTheRunInsteadOfHanging) {
  KS_REQUIRE_CUDA();
  EnsembleConfig cfg = testing::free_molecular_config(64, 1 << 30, 3);
  cfg.selection = Selection::Majorant;
  Ensemble e = testing::make_ensemble(cfg, 1, 1.4);
  for (double& v : e.v) v = NAN;
  CudaEnsemble gpu(0);
  gpu.upload(e, cfg);
  test_support::expect_error([&] { gpu.advance({1e300}, 10); }, ErrorKind::RunFailed, {"majorant", "not finite"});
}

// Majorant trials in parallel steps (coag_stepped.hpp): a thread block a run makes the CPU's trials,
// stops and events, through rebuilds at every advance and when a value leaves its window (additive
// kernel), for one large run with full blocks and for ensembles; K = 1 is a block with one trial.
// Above 1024 trials a step spans several blocks (coag_cuda_stepped_grid.cu): at n_s 2e5 a step stops
// after about 900 trials, and K 2050 makes three blocks of 704 slots, so most stops come from a touch
// across blocks; 9000 events.
struct SteppedCase {
  KernelKind kernel;
  int runs, n_s, K;
  double waits = 300.0;
};
class GpuStepped : public ::testing::TestWithParam<SteppedCase> {};

TEST_P(GpuStepped, GpuRepeatsTheCpuEventsForTheSameSeed) {
  KS_REQUIRE_CUDA();
  const SteppedCase c = GetParam();
  EnsembleConfig cfg = testing::free_molecular_config(c.n_s, 1 << 30, 5);
  cfg.selection = Selection::Stepped;
  cfg.step_trials = c.K;
  cfg.kernel.kind = c.kernel;
  expect_gpu_repeats_the_cpu_events(cfg, c.runs, c.waits);
}

TEST(CoagulationCuda, SteppedNonFiniteParticlesFailTheRunInsteadOfHanging) {
  KS_REQUIRE_CUDA();
  for (const int K : {kBlockStepTrials, 4 * kBlockStepTrials}) {  // the give-up after kMaxGroupTrials in 2^15 or 2^13 steps
    SCOPED_TRACE("K " + std::to_string(K));
    EnsembleConfig cfg = testing::free_molecular_config(2048, 1 << 30, 3);
    cfg.selection = Selection::Stepped;
    cfg.step_trials = K;
    Ensemble e = testing::make_ensemble(cfg, 1, 1.4);
    for (double& v : e.v) v = NAN;
    CudaEnsemble gpu(0);
    gpu.upload(e, cfg);
    test_support::expect_error([&] { gpu.advance({1e300}, 10); }, ErrorKind::RunFailed, {"stepped", "not finite"});
  }
}

INSTANTIATE_TEST_SUITE_P(CoagulationCuda, GpuStepped,
                         ::testing::Values(SteppedCase{KernelKind::FreeMolecular, 1, 20000, 64},
                                           SteppedCase{KernelKind::FreeMolecular, 1, 200000, 1024},
                                           SteppedCase{KernelKind::FreeMolecular, 5, 1500, 15},
                                           SteppedCase{KernelKind::Additive, 3, 1000, 10}, SteppedCase{KernelKind::Constant, 2, 800, 1},
                                           SteppedCase{KernelKind::FreeMolecular, 1, 200000, 2050, 3000.0},
                                           SteppedCase{KernelKind::FreeMolecular, 2, 100000, 2000, 3000.0},
                                           SteppedCase{KernelKind::Additive, 1, 100000, 3000, 3000.0}),
                         [](const auto& info) {
                           const SteppedCase& c = info.param;
                           return std::to_string(int(c.kernel)) + "kernel_" + std::to_string(c.runs) + "runs_" + std::to_string(c.n_s) +
                                  "_K" + std::to_string(c.K);
                         });

INSTANTIATE_TEST_SUITE_P(CoagulationCuda, GpuMajorant,
                         ::testing::Values(MajorantCase{KernelKind::FreeMolecular, 1, 20000, 1 << 30},
                                           MajorantCase{KernelKind::FreeMolecular, 5, 1500, 300},
                                           MajorantCase{KernelKind::Additive, 3, 1000, 1 << 30},
                                           MajorantCase{KernelKind::Constant, 2, 800, 250}),
                         [](const auto& info) {
                           const MajorantCase& c = info.param;
                           return std::to_string(int(c.kernel)) + "kernel_" + std::to_string(c.runs) + "runs_" + std::to_string(c.n_s);
                         });

INSTANTIATE_TEST_SUITE_P(CoagulationCuda, GpuClusterSize,
                         ::testing::Values(Layout{1, 1500}, Layout{4, 1500}, Layout{16, 1500},  // shared memory
                                           Layout{1, 4000}, Layout{2, 8000},                    // global memory
                                           Layout{1, 1500, Selection::Rejection}, Layout{16, 1500, Selection::Rejection},
                                           Layout{1, 4000, Selection::Rejection}, Layout{2, 8000, Selection::Rejection}),
                         [](const auto& info) {
                           return std::to_string(info.param.blocks) + "blocks_" + std::to_string(info.param.n_s) +
                                  (info.param.selection == Selection::Rejection ? "_rejection" : "");
                         });
#endif

TEST(CoagulationCuda, GpuEnsembleStatisticsMatchTheCpu) {
  KS_REQUIRE_CUDA();
  const std::map<std::string, ParamValue> p = {{"n_s", std::int64_t(1000)}, {"n_runs", std::int64_t(32)}, {"t_end", 100.0}};
  auto cpu = testing::run_to_end(p, BackendRequest::Cpu);
  auto gpu = testing::run_to_end(p, BackendRequest::Cuda);
  const int last = int(cpu->output_times().size()) - 1;
  for (auto stat : {&CoagulationMethod::mean_dg, &CoagulationMethod::mean_sigma_g, &CoagulationMethod::mean_number_ratio}) {
    const MeanAndError a = ((*cpu).*stat)(last), b = ((*gpu).*stat)(last);
    // Same seed and streams: equal up to rare selection flips; 3 combined standard errors at most.
    EXPECT_NEAR(a.mean, b.mean, 3.0 * std::hypot(a.stderr_, b.stderr_));
  }
  EXPECT_NEAR(gpu->total_volume() / cpu->total_volume(), 1.0, 1e-10);
}

TEST(CoagulationCuda, GpuTableOneCaseReachesTheSelfPreservingWidth) {
  KS_REQUIRE_CUDA();
  for (const std::string selection : {"prefix", "rejection", "majorant"}) {
    SCOPED_TRACE("selection " + selection);
    auto m = testing::run_to_end({{"n_s", std::int64_t(2000)}, {"n_runs", std::int64_t(100)}, {"t_end", 1000.0}, {"selection", selection}},
                                 BackendRequest::Cuda);
    const int last = int(m->output_times().size()) - 1;
    EXPECT_NEAR(m->mean_sigma_g(last).mean, 1.455, 0.02);
    EXPECT_LT(testing::eq13_error_dg(*m), 0.03);
  }
}

TEST(CoagulationCuda, GpuStateIsAcceptedAndTheRestartContinuesBitForBit) {
  KS_REQUIRE_CUDA();
  for (const std::string selection : {"prefix", "rejection"}) {
    SCOPED_TRACE("selection " + selection);
    // load_state checks what the GPU leaves in a state (run times at most their last output, events
    // since a refresh up to 4 n_s, C' >= 0): a GPU checkpoint passes and continues as if never stopped.
    const ParamSet p =
        test_support::method_params<CoagulationMethod>({{"n_s", "1500"}, {"n_runs", "4"}, {"t_end", "10"}, {"selection", selection}});
    CoagulationMethod first, restarted;
    first.setup(p, test_support::cuda_context());
    for (int i = 0; i < 12; ++i) first.advance();
    std::stringstream state;
    first.save_state(state);
    restarted.setup(p, test_support::cuda_context());
    restarted.load_state(state);
    while (!first.finished()) first.advance(), restarted.advance();
    EXPECT_TRUE(restarted.finished());
    // Past a refresh of C' (after 4 n_s events of a run), where the GPU's count can reach 4 n_s.
    EXPECT_GT(first.progress().work_done, 4 * 4 * 1500);
    std::stringstream a, b;
    first.save_state(a);
    restarted.save_state(b);
    EXPECT_TRUE(a.str() == b.str()) << "save_state differs after the restart";
  }
}

TEST(CoagulationCuda, LargeSingleRunConservesVolume) {
  KS_REQUIRE_CUDA();
  for (const std::string selection : {"prefix", "rejection", "majorant"}) {
    SCOPED_TRACE("selection " + selection);
    auto m = testing::run_to_end({{"n_s", std::int64_t(20000)}, {"n_runs", std::int64_t(1)}, {"t_end", 10.0}, {"selection", selection}},
                                 BackendRequest::Cuda);
    EXPECT_NEAR(m->total_volume() / (1e17 * volume_of_diameter(3e-9)), 1.0, 1e-10);
    EXPECT_LT(testing::eq13_error_dg(*m), 0.03);
  }
}

}  // namespace
}  // namespace ks::coag
