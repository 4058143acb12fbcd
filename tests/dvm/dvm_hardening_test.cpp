// kinetic.dvm against what the Runner and a restart rely on: the memory estimate (against the
// README's measured device memory and what a small set-up holds), crafted checkpoints refused
// without touching the run, and what ends a run (tolerance or max_iterations).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <regex>
#include <sstream>
#include <string>

#include "core/errors.hpp"
#include "dvm_test_support.hpp"
#include "expect_error.hpp"
#include "first_of_two_ranks.hpp"
#include "method_readme.hpp"

namespace ks::dvm {
namespace {

using test_support::patched;
using testing::cpu_context;
using testing::cuda_context;
using testing::params;
using testing::run;
using testing::small_cavity;

// --- memory estimate ---

std::map<std::string, std::string> cavity(int cells, int velocities, const char* precision) {
  return {{"case", "cavity"},
          {"nx", std::to_string(cells)},
          {"ny", std::to_string(cells)},
          {"nz", std::to_string(cells)},
          {"nv", std::to_string(velocities)},
          {"precision", precision}};
}

// README, Performance: device memory of the cavity on the H100 (one octant a batch), in MB of 1e6 B.
// The estimate (no device needed: it only computes) must come within 10 % of each; it counts the
// same arrays but the small tables, so it lands within 0.1 % here. On CUDA the slices are not on the
// host: its estimate (the per-cell arrays, about 480 B a cell, and the velocity table) stays below
// a fifth of the device's at 64^3 x 64^3, where the slices are 94 % of it.
TEST(DvmMemoryEstimate, DeviceEstimateMatchesTheReadmesMeasuredMemory) {
  struct Measured {
    int cells, velocities;
    const char* precision;
    double mb;
  };
  const Measured table[] = {{32, 32, "fp32", 42},    {32, 64, "fp32", 284},   {64, 32, "fp32", 191}, {64, 64, "fp32", 1137},
                            {64, 128, "fp32", 8712}, {128, 64, "fp32", 4744}, {64, 64, "fp64", 2211}};
  DvmMethod m;
  for (const Measured& t : table) {
    const MemoryEstimate e = m.estimate_memory(params(cavity(t.cells, t.velocities, t.precision)), cuda_context());
    const double ratio = double(e.device_bytes) / (t.mb * 1e6);
    std::printf("[ measured ] %d^3 x %d^3 (%s): estimate %.1f MB, README %.0f MB (ratio %.4f); host %.1f MB\n", t.cells, t.velocities,
                t.precision, double(e.device_bytes) / 1e6, t.mb, ratio, double(e.host_bytes) / 1e6);
    EXPECT_NEAR(ratio, 1.0, 0.10) << t.cells << "^3 x " << t.velocities << "^3 " << t.precision;
  }
  const MemoryEstimate e = m.estimate_memory(params(cavity(64, 64, "fp32")), cuda_context());
  EXPECT_LT(double(e.host_bytes), 0.2 * double(e.device_bytes));
  EXPECT_NE(e.detail.find("nx x ny x nz = 64 x 64 x 64"), std::string::npos) << e.detail;
  EXPECT_NE(e.detail.find("batch = 32768"), std::string::npos) << e.detail;
  EXPECT_EQ(m.estimate_memory(params(cavity(64, 64, "fp32")), cpu_context()).device_bytes, 0u);
}

// The README's bytes a cell on the host and, in its per-rank formula (fp64 on CUDA), a cell, a slice
// value pair and a velocity on the device are the estimate's: its detail names each term's bytes.
TEST(DvmMemoryEstimate, TheReadmesBytesPerCellAreTheEstimates) {
  const std::string readme = ks::test_support::method_readme("dvm");
  std::smatch host, rank;
  ASSERT_TRUE(std::regex_search(readme, host, std::regex("\\((\\d+) B a cell in all\\)")))
      << "the README no longer gives the host's bytes a cell";
  ASSERT_TRUE(std::regex_search(readme, rank, std::regex("`(\\d+) B x cells \\+ (\\d+) B x nx x ny x batch \\+ (\\d+) B x nv\\^3`")))
      << "the README no longer gives what fits per rank";
  DvmMethod m;
  const MemoryEstimate cpu = m.estimate_memory(params(cavity(16, 16, "fp64")), cpu_context());
  const MemoryEstimate gpu = m.estimate_memory(params(cavity(16, 16, "fp64")), cuda_context());
  EXPECT_NE(cpu.detail.find("16 cells x " + host[1].str() + " B"), std::string::npos) << cpu.detail;
  const std::string device = gpu.detail.substr(gpu.detail.find("device: "));
  EXPECT_NE(device.find("16 cells x " + rank[1].str() + " B"), std::string::npos) << device;
  EXPECT_NE(device.find("(precision fp64) x " + std::to_string(std::stoi(rank[2]) / 2) + " B"), std::string::npos) << device;  // two slices
  EXPECT_NE(device.find("velocities x " + rank[3].str() + " B"), std::string::npos) << device;
}

// A CUDA rank of several adds the sums over the ranks device to device (core/device_sum): a copy of
// the moment sums and wall fluxes that the other ranks read, and the total, 2 x (13 doubles a cell
// and a double a wall face) more than one process; a CPU rank sums through the host.
TEST(DvmMemoryEstimate, ACudaRankCountsTheSumsAcrossRanks) {
  DvmMethod m;
  const auto p = params(cavity(16, 16, "fp64"));
  ExecutionContext rank = cuda_context();
  rank.comm = std::make_shared<test_support::FirstOfTwoRanks>();
  const std::uint64_t cells = 16 * 16 * 16, faces = 6 * 16 * 16;
  EXPECT_EQ(m.estimate_memory(p, rank).device_bytes - m.estimate_memory(p, cuda_context()).device_bytes,
            cells * 2 * kRaw * sizeof(double) + faces * 2 * sizeof(double));
  ExecutionContext cpu_rank = cpu_context();
  cpu_rank.comm = rank.comm;
  EXPECT_EQ(m.estimate_memory(p, cpu_rank).host_bytes, m.estimate_memory(p, cpu_context()).host_bytes);
}

// The slices of f are 2 x nx ny x batch values: the estimate (device on CUDA, host on the CPU) grows
// by exactly that many bytes per added batch velocity and per added byte of a value (fp32 -> fp64). Every per-cell
// and per-face term of the cavity is affine in nz, so equal steps of nz add equal bytes, and at least
// the arrays setup() allocates for each added cell: its flag, links and volume, raw sums and f^S.
TEST(DvmMemoryEstimate, GrowsWithTheBatchThePrecisionAndTheCells) {
  DvmMethod m;
  auto p = cavity(16, 16, "fp32");
  const std::uint64_t slice = 16 * 16;
  p["batch"] = "100";
  const MemoryEstimate b100 = m.estimate_memory(params(p), cuda_context());
  p["batch"] = "200";
  const MemoryEstimate b200 = m.estimate_memory(params(p), cuda_context());
  EXPECT_EQ(b200.device_bytes - b100.device_bytes, 2 * slice * 100 * 4);
  p["precision"] = "fp64";
  EXPECT_EQ(m.estimate_memory(params(p), cuda_context()).device_bytes - b200.device_bytes, 2 * slice * 200 * 4);
  // A batch beyond an octant ((nv / 2)^3 = 512) is one octant.
  p["batch"] = "0";
  const std::uint64_t octant = m.estimate_memory(params(p), cuda_context()).device_bytes;
  p["batch"] = "100000";
  EXPECT_EQ(m.estimate_memory(params(p), cuda_context()).device_bytes, octant);
  // On the CPU the slices are on the host, and nothing else depends on the precision.
  p["batch"] = "0";
  const std::uint64_t fp64 = m.estimate_memory(params(p), cpu_context()).host_bytes;
  p["precision"] = "fp32";
  EXPECT_EQ(fp64 - m.estimate_memory(params(p), cpu_context()).host_bytes, 2 * slice * 512 * 4);

  auto host = [&](int nz) {
    auto q = cavity(16, 16, "fp32");
    q["nz"] = std::to_string(nz);
    return double(m.estimate_memory(params(q), cpu_context()).host_bytes);
  };
  const double step = host(32) - host(16);
  EXPECT_EQ(host(48) - host(32), step);
  EXPECT_GE(step, 16.0 * slice * (1 + 6 * sizeof(int) + sizeof(double) + kRaw * sizeof(double) + sizeof(CellState)));
}

// A small CPU set-up holds the geometry, the raw sums and f^S (state_), the solver's slices and
// per-thread sums; a checkpoint writes the raw sums and wall densities once more. The estimate is not
// below their sum. It is above it by what these leave out, less the state's repeat of the raw sums:
// a sweep's new raw sums and a snapshot's fields (264 B a cell), the two velocity tables (2 x 32 B x
// nv^3), the residual history up to max_iterations (16 B x 500), the faces' emission and influx: on
// the 10 x 9 x 8 cavity (10^3 velocities) 0.19 MB over 0.35 MB (fp32) and 0.44 MB (fp64), on the
// 18 x 14 x 14 cube (12^3) 0.68 MB over 1.6 MB; so below twice the sum.
TEST(DvmMemoryEstimate, IsNotBelowWhatASmallSetUpHoldsAndSaves) {
  auto fp64_cavity = small_cavity();
  fp64_cavity["precision"] = "fp64";
  for (const auto& p : {small_cavity(), fp64_cavity, testing::small_cube()}) {
    const std::string name = p.at("case") + (p.count("precision") ? " " + p.at("precision") : "");
    const ExecutionContext ctx = resolve_backend(BackendRequest::Cpu);  // cpu_threads: the solver's OpenMP threads
    DvmMethod m;
    const MemoryEstimate e = m.estimate_memory(params(p), ctx);
    m.setup(params(p), ctx);
    m.advance();
    std::stringstream state;
    m.save_state(state);
    const Geometry& g = m.geometry();
    const std::size_t cells = g.solid.size();
    const std::size_t held = m.solver().bytes() + cells * (1 + sizeof(double) + sizeof(CellState)) + g.link.size() * sizeof(int) +
                             g.faces.size() * (sizeof(Face) + sizeof(int)) + m.raw_moments().size() * sizeof(double);
    const std::size_t saved = state.str().size();
    std::printf("[ measured ] %s: estimate %llu B, held %zu B + state %zu B (ratio %.3f)\n", name.c_str(), (unsigned long long)e.host_bytes,
                held, saved, double(e.host_bytes) / double(held + saved));
    EXPECT_GE(e.host_bytes, held + saved) << name;
    EXPECT_LT(e.host_bytes, 2 * (held + saved)) << name;
  }
}

// --- crafted checkpoints ---

// The state's layout (save_state): tag (u32 length, "kinetic.dvm", u32 version), iteration (i64),
// mass0, mass defect (double), then u64 count + doubles each: the residual history's iterations and
// values, the raw sums, the wall densities.
struct StateLayout {
  static constexpr std::size_t kIteration = 4 + 11 + 4, kMass0 = kIteration + 8, kDefect = kMass0 + 8, kHistory = kDefect + 8;
  std::size_t residuals, raw, rho;
  StateLayout(std::size_t iterations, std::size_t raw_count)
      : residuals(kHistory + 8 + 8 * iterations), raw(residuals + 8 + 8 * iterations), rho(raw + 8 + 8 * raw_count) {}
};

// A real state with one count, index or value corrupted at a time is refused as bad input naming what
// is wrong; the method keeps its state and runs on bit for bit as a twin that never saw them.
TEST(DvmCheckpoint, CraftedStateIsRefusedAndTheRunGoesOn) {
  DvmMethod m, twin;
  run(m, small_cavity(), cpu_context(), 3);
  run(twin, small_cavity(), cpu_context(), 3);
  std::stringstream out;
  m.save_state(out);
  const std::string good = out.str();
  const std::uint64_t raw = m.raw_moments().size(), faces = m.geometry().faces.size();
  const StateLayout at(3, raw);
  const std::size_t cell5 = at.raw + 8 + 8 * 5 * kRaw;  // the raw sums of cell 5 (a gas cell)
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::string cold = good;  // cell 5 with no thermal energy: T < 0
  for (int q : {kSxx, kSyy, kSzz}) cold = patched<double>(cold, cell5 + 8 * q, 0.0);
  struct Crafted {
    std::string bytes;
    const char* says;  // a word of the refusal
  };
  const Crafted crafted[] = {
      {patched<std::int64_t>(good, at.kIteration, -1), "a count >= 0"},
      {patched<std::int64_t>(good, at.kIteration, 5), "one point per iteration"},  // a history of 3 for 5 iterations
      {patched<std::uint64_t>(good, at.kHistory, std::uint64_t(1) << 40), "corrupt"},
      {patched<double>(good, at.kMass0, 0.0), "initial mass > 0"},
      {patched<double>(good, at.kDefect, nan), "finite defect"},
      {patched<double>(good, at.kHistory + 8 + 8, 7.0), "iteration 2"},
      {patched<double>(good, at.residuals + 8, nan), "finite change"},
      {patched<std::uint64_t>(good, at.raw, raw - kRaw), "the set-up has 720 cells"},
      {patched<std::uint64_t>(good, at.raw, raw + kRaw), "corrupt"},
      {patched<double>(good, cell5, -1.0), "n > 0 and T > 0"},
      {cold, "n > 0 and T > 0"},
      {patched<double>(good, cell5 + 8 * kQx, nan), "finite sums"},
      {patched<std::uint64_t>(good, at.rho, faces - 1), "wall faces, the set-up has"},
      {patched<std::uint64_t>(good, at.rho, faces + 1), "corrupt"},
      {patched<double>(good, at.rho + 8, -1.0), "wall density >= 0"},
      {good.substr(0, at.kDefect + 4), "truncated"},
      {good.substr(0, good.size() - 1), "truncated"},  // the wall densities' count promises more than follows
  };
  const std::vector<double> before = m.raw_moments();
  for (const Crafted& c : crafted) {
    std::istringstream in(c.bytes);
    test_support::expect_error([&] { m.load_state(in); }, ErrorKind::BadInput, {"checkpoint", c.says});
    EXPECT_EQ(m.iterations(), 3) << c.says;
    EXPECT_EQ(m.raw_moments(), before) << c.says;
  }
  DvmMethod fresh;  // nothing set up to restore onto
  std::istringstream in(good);
  test_support::expect_error([&] { fresh.load_state(in); }, ErrorKind::BadInput, {"checkpoint", "after setup"});

  for (DvmMethod* x : {&m, &twin}) x->advance();
  EXPECT_EQ(m.raw_moments(), twin.raw_moments());
  const Snapshot a = m.snapshot(), b = twin.snapshot();
  EXPECT_EQ(a.series[0].y, b.series[0].y);
  EXPECT_EQ(a.fields[0].values, b.fields[0].values);
  std::istringstream again(good);
  m.load_state(again);  // the real state is still accepted
  EXPECT_EQ(m.iterations(), 3);
  EXPECT_EQ(m.raw_moments(), before);
}

// --- what ends a run ---

// Progress::converged is the tolerance met: true when it ended the run, false when max_iterations did
// (tolerance 0, or one not met by then). Couette flow at Kn = 1 (8 cells, 16^3 velocities, fp64
// slices) converges geometrically, about a decade every 3 iterations: 1e-9 in about 30 iterations, far
// before 200; after 5 the relative change is still about 3e-2, far above 1e-12.
TEST(DvmConvergence, ConvergedOnlyWhenTheToleranceEndsTheRun) {
  struct Case {
    const char* tolerance;
    const char* max_iterations;
    bool converged;
  };
  for (const Case c : {Case{"1e-9", "200", true}, Case{"0", "5", false}, Case{"1e-12", "5", false}}) {
    DvmMethod m;
    m.setup(params({{"case", "couette"},
                    {"kn", "1"},
                    {"lid_speed", "0.2"},
                    {"ny", "8"},
                    {"nv", "16"},
                    {"precision", "fp64"},
                    {"tolerance", c.tolerance},
                    {"max_iterations", c.max_iterations}}),
            cpu_context());
    EXPECT_FALSE(m.progress().converged);
    while (!m.finished()) m.advance();
    const Progress g = m.progress();
    std::printf("[ measured ] tolerance %s, max_iterations %s: %lld iterations, residual %.3e, converged %d\n", c.tolerance,
                c.max_iterations, (long long)g.iteration, g.residual, int(g.converged));
    EXPECT_EQ(g.converged, c.converged) << "tolerance " << c.tolerance;
    EXPECT_EQ(m.snapshot().progress.converged, c.converged);
    if (c.converged) EXPECT_LT(g.iteration, 200);
    else EXPECT_EQ(g.iteration, 5);
  }
}

}  // namespace
}  // namespace ks::dvm
