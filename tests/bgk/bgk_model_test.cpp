// kinetic.bgk building blocks: Rankine-Hugoniot states, the conservative discrete Maxwellian,
// the relaxation's collision invariants, wall mass balance and input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <regex>
#include <sstream>

#include "bgk_test_support.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "expect_error.hpp"
#include "io/preset.hpp"
#include "methods/bgk/bgk_boundaries.hpp"
#include "methods/bgk/bgk_model.hpp"
#include "method_readme.hpp"

namespace ks::bgk {
namespace {

// Eq. (18) must conserve the fluxes of mass, momentum and energy of a monatomic gas
// (n V, n (V^2 + T/2), n V (V^2 + 5 T / 2) in this normalisation) exactly.
TEST(BgkModel, RankineHugoniotStatesConserveTheEulerFluxes) {
  for (double M : {1.2, 1.5, 3.0, 6.0}) {
    Macro a, b;
    rankine_hugoniot(M, a, b);
    auto fluxes = [](const Macro& m) {
      const double V = m.V[0];
      return std::array<double, 3>{m.n * V, m.n * (V * V + 0.5 * m.T), m.n * V * (V * V + 2.5 * m.T)};
    };
    const auto fa = fluxes(a), fb = fluxes(b);
    for (int q = 0; q < 3; ++q) EXPECT_NEAR(fb[q] / fa[q], 1.0, 1e-14) << "M = " << M << ", flux " << q;
    EXPECT_NEAR(a.V[0] / std::sqrt(5.0 / 6.0 * a.T), M, 1e-14);  // eq. (19)
  }
}

VelocityGrid coarse_grid() {
  VelocityGrid g;
  for (int a = 0; a < 3; ++a) {
    g.n[a] = 8;
    g.lo[a] = -3.0;
    g.h[a] = 0.75;
  }
  return g;
}

MomentSums sums_of(const VelocityGrid& g, const std::vector<double>& f) {
  MomentSums m;
  for (int j = 0; j < g.count(); ++j) m.add(f[j], g.v(0, g.jx(j)), g.v(1, g.jy(j)), g.v(2, g.jz(j)));
  return m;
}

// On a coarse box (8 cells on [-3, 3]) the plain discrete Maxwellian misses its own moments by
// ~1e-4 (truncated tails); the effective parameters of section 2.1 recover them to round-off.
TEST(BgkModel, ConservativeMaxwellianHasTheMomentsOfF) {
  const VelocityGrid g = coarse_grid();
  Macro target;
  target.n = 1.3;
  target.V[0] = 0.4;
  target.V[1] = -0.2;
  target.T = 1.4;
  const Macro plain = macro_from_sums(sums_of(g, discrete_maxwellian(g, target)), g.cell_volume());
  EXPECT_GT(std::fabs(plain.n / target.n - 1.0), 1e-5);
  const Macro got = macro_from_sums(sums_of(g, discrete_maxwellian(g, effective_maxwellian(target, g))), g.cell_volume());
  EXPECT_NEAR(got.n / target.n, 1.0, 1e-12);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(got.V[a], target.V[a], 1e-12);
  EXPECT_NEAR(got.T / target.T, 1.0, 1e-12);
}

// The relaxation of eq. (14) towards the conservative Maxwellian keeps n, V and T of any f.
TEST(BgkModel, ConservativeRelaxationKeepsTheCollisionInvariants) {
  BgkConfig c;
  c.vg = coarse_grid();
  c.conservative = true;
  c.dt = 0.3;
  // Two counter-streaming beams: far from equilibrium.
  Macro beam1, beam2;
  beam1.V[0] = 0.8;
  beam1.T = 0.5;
  beam2.V[0] = -0.6;
  beam2.n = 0.7;
  beam2.T = 0.8;
  const std::vector<double> f1 = discrete_maxwellian(c.vg, beam1), f2 = discrete_maxwellian(c.vg, beam2);
  std::vector<double> f(f1.size());
  for (std::size_t j = 0; j < f.size(); ++j) f[j] = f1[j] + f2[j];
  const MomentSums before = sums_of(c.vg, f);
  const CellRelaxation r = cell_relaxation(before, c);
  EXPECT_GT(1.0 - r.decay, 0.2);  // a real relaxation step
  const std::vector<double> phi = discrete_maxwellian(c.vg, r.phi);
  for (std::size_t j = 0; j < f.size(); ++j) f[j] = relax(f[j], phi[j], r.decay);
  const MomentSums after = sums_of(c.vg, f);
  EXPECT_NEAR(after.s0 / before.s0, 1.0, 1e-13);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(after.s1[a] / before.s0, before.s1[a] / before.s0, 1e-13);
  EXPECT_NEAR(after.s2 / before.s2, 1.0, 1e-13);
}

// Eq. (24) discretely: a wall re-emits exactly what arrives, for a gas at rest or moving along it.
TEST(BgkModel, DiffuseWallsHaveZeroNetMassFlux) {
  BgkConfig c;
  c.kind = Case::Cavity;
  c.vg = coarse_grid();
  c.lid_speed = 0.1;
  const BoundaryData b = make_boundaries(c);
  Macro gas;
  gas.n = 0.9;
  gas.V[0] = 0.05;
  gas.V[1] = 0.03;
  gas.T = 1.1;
  const std::vector<double> f = discrete_maxwellian(c.vg, gas);
  double out = 0.0, in_unit = 0.0;  // through the lid (v_y > 0 arrives)
  for (int j = 0; j < c.vg.count(); ++j) {
    const double vy = c.vg.v(1, c.vg.jy(j));
    if (vy > 0) out += vy * f[j];
    else in_unit += -vy * b.top[j];
  }
  EXPECT_NEAR(in_unit / b.in_top, 1.0, 1e-14);
  const double nw = wall_density(out, b.in_top);
  EXPECT_NEAR(nw * b.in_top / out, 1.0, 1e-14);
  EXPECT_GT(nw, 0.9);  // gas arriving with V_y > 0 piles up: n_w above the mean density
}

// The small cavity: dx = 1/12, dy = 1/10, fastest velocity cell 2.625. Split streaming allows
// dt <= dx / 2.625 = 0.0317, unsplit dt <= 1 / (2.625 / dx + 2.625 / dy) = 0.0173.
TEST(BgkInput, CavityTimeStepAboveTheCourantLimitIsRefusedWithTheLimit) {
  for (const auto& [streaming, limit] : {std::pair{"split", "dt <= 0.031"}, std::pair{"unsplit", "dt <= 0.017"}}) {
    BgkMethod m;
    auto p = testing::small_cavity();
    p["dt"] = "0.02";
    p["streaming"] = streaming;
    if (std::string(streaming) == "split")
      EXPECT_NO_THROW(m.setup(testing::params(p), testing::cpu_context())) << "dt = 0.02 was refused with split streaming";
    else test_support::expect_error([&] { m.setup(testing::params(p), testing::cpu_context()); }, ErrorKind::BadInput, {"dt", limit});
    p["dt"] = "0.5";
    test_support::expect_error([&] { m.setup(testing::params(p), testing::cpu_context()); }, ErrorKind::BadInput, {limit});
  }
}

// `courant` sets dt for the grid and the streaming in use. Small cavity (above): split 0.9 dx / 2.625,
// unsplit 0.9 / (2.625 / dx + 2.625 / dy). Small shock: dx = 70 / 64, fastest v_x cell 6.25 in
// [-5, 7] with 8 cells, so 0.5 dx / 6.25.
TEST(BgkInput, CourantNumberSetsTheTimeStepForTheGridAndStreaming) {
  auto split = testing::small_cavity(), unsplit = split, shock = testing::small_shock();
  split["streaming"] = "split";
  unsplit["streaming"] = "unsplit";
  split["courant"] = unsplit["courant"] = "0.9";
  shock["courant"] = "0.5";
  const double dx = 1.0 / 12, dy = 1.0 / 10;
  const std::pair<std::map<std::string, std::string>, double> cases[] = {
      {split, 0.9 * dx / 2.625}, {unsplit, 0.9 / (2.625 / dx + 2.625 / dy)}, {shock, 0.5 * (70.0 / 64) / 6.25}};
  for (const auto& [p, dt] : cases) {
    BgkMethod m;
    m.setup(testing::params(p), testing::cpu_context());
    EXPECT_NEAR(m.config().dt, dt, 1e-12 * dt) << p.at("case");
    const nlohmann::json d = m.snapshot().diagnostics;
    EXPECT_NEAR(d.at("dt").get<double>(), dt, 1e-12 * dt);
    EXPECT_NEAR(d.at("courant").get<double>(), std::stod(p.at("courant")), 1e-12);
  }
  // Live: a new Courant number rescales dt; 0 hands dt back to the `dt` parameter.
  BgkMethod m;
  m.setup(testing::params(unsplit), testing::cpu_context());
  m.advance();
  m.set_live("courant", 0.45);
  EXPECT_NEAR(m.config().dt, 0.45 / (2.625 / dx + 2.625 / dy), 1e-15);
  m.set_live("courant", 0.0);
  EXPECT_EQ(m.config().dt, 0.01);
}

// The declared maximum courant = 1 must set up and step. Rescaling dt by 1 / C lands an ulp above 1
// for the small cavity with unsplit streaming (12 x 10) and with split streaming on 10 x 10, which
// the cavity's bound (C <= 1) refused; dt now steps down to the largest value with C <= 1. The few
// ulps it takes leave C within 1e-14 of 1.
TEST(BgkInput, DeclaredMaximumCourantNumberSetsUpAndSteps) {
  auto unsplit = testing::small_cavity(), split = unsplit, shock = testing::small_shock();
  unsplit["streaming"] = "unsplit";
  split["streaming"] = "split";
  split["nx"] = "10";
  for (auto* p : {&unsplit, &split, &shock}) (*p)["courant"] = "1";
  for (const auto& p : {unsplit, split, shock}) {
    SCOPED_TRACE(p.at("case") + (p.count("streaming") ? " " + p.at("streaming") : ""));
    BgkMethod m;
    ASSERT_NO_THROW(m.setup(testing::params(p), testing::cpu_context()));
    const double C = courant_number(m.config());
    EXPECT_LE(C, 1.0);
    EXPECT_GT(C, 1.0 - 1e-14);
    m.advance();
    EXPECT_GT(m.time(), 0.0);
    EXPECT_TRUE(std::isfinite(m.total_mass()));
  }
  // Live, from another Courant number.
  unsplit["courant"] = "0.5";
  BgkMethod m;
  m.setup(testing::params(unsplit), testing::cpu_context());
  m.advance();
  EXPECT_NO_THROW(m.set_live("courant", 1.0));
  EXPECT_LE(courant_number(m.config()), 1.0);
  m.advance();
}

// At the declared maxima (nx = 2^20, ny = 2^14, nv = 64) nx * ny no longer fits an int and the phase
// space is 2^52 cells: refused as bad input naming the keys, never a wrapped size.
TEST(BgkInput, LargestDeclaredGridIsRefusedNamingItsKeys) {
  auto cavity = testing::small_cavity(), shock = testing::small_shock();
  cavity["nx"] = shock["nx"] = std::to_string(1 << 20);
  cavity["ny"] = std::to_string(1 << 14);
  cavity["nv"] = shock["nv"] = "64";
  test_support::expect_error([&] { make_config(bgk_param_table().read(testing::params(cavity))); }, ErrorKind::BadInput, {"nx * ny"});
  test_support::expect_error([&] { make_config(bgk_param_table().read(testing::params(shock))); }, ErrorKind::BadInput,
                             {"nx, ny, nv", "64 GB"});
  // The estimate still counts it in 64-bit: two copies of 2^52 doubles.
  BgkMethod m;
  EXPECT_GE(m.estimate_memory(testing::params(cavity), testing::cpu_context()).host_bytes, std::uint64_t(1) << 56);
}

// The estimate counts f^n and f^{n+1} (8 B per phase-space cell each) and ~400 B of per-cell arrays.
// Small shock: 64 cells x 8^3 velocities, 4 KiB of f per cell, so the CPU estimate is 2 + 384 / 4096
// ~ 2.1 times the saved state (f and a few counters). Doubling nx doubles every term; nv 8 -> 16
// multiplies f by 8 and leaves the per-cell arrays: a ratio between 7 and 8.
TEST(BgkMemory, EstimateScalesWithThePhaseSpaceAndCoversTheState) {
  const auto shock = testing::small_shock();
  BgkMethod m;
  const MemoryEstimate cpu = m.estimate_memory(testing::params(shock), testing::cpu_context());
  EXPECT_EQ(cpu.device_bytes, 0u);
  EXPECT_NE(cpu.detail.find("nx x ny = 64 x 1"), std::string::npos) << cpu.detail;
  EXPECT_NE(cpu.detail.find("nv^3 = 8^3"), std::string::npos) << cpu.detail;
  auto wide = shock, fine = shock;
  wide["nx"] = "128";
  fine["nv"] = "16";
  EXPECT_EQ(m.estimate_memory(testing::params(wide), testing::cpu_context()).host_bytes, 2 * cpu.host_bytes);
  const double ratio = double(m.estimate_memory(testing::params(fine), testing::cpu_context()).host_bytes) / double(cpu.host_bytes);
  EXPECT_GT(ratio, 7.0);
  EXPECT_LT(ratio, 8.0);
  auto cavity = testing::small_cavity(), taller = cavity;
  taller["ny"] = "20";
  EXPECT_EQ(m.estimate_memory(testing::params(taller), testing::cpu_context()).host_bytes,
            2 * m.estimate_memory(testing::params(cavity), testing::cpu_context()).host_bytes);

  m.setup(testing::params(shock), testing::cpu_context());
  std::stringstream state;
  m.save_state(state);
  const double f_bytes = double(m.config().phase_cells()) * sizeof(double), saved = double(state.str().size());
  EXPECT_GE(double(cpu.host_bytes), 2.0 * f_bytes);
  EXPECT_GE(double(cpu.host_bytes), saved);
  EXPECT_LT(double(cpu.host_bytes), 2.2 * saved);
  // CUDA: both copies of f on the device, one (the upload's, save_state's) on the host.
  const MemoryEstimate gpu = m.estimate_memory(testing::params(shock), testing::cuda_context());
  EXPECT_GE(double(gpu.device_bytes), 2.0 * f_bytes);
  EXPECT_GE(double(gpu.host_bytes), f_bytes);
  EXPECT_LT(double(gpu.host_bytes), 2.0 * f_bytes);
}

// The README's bytes a cell on the CPU (beside the two copies of f) are the estimate's.
TEST(BgkMemory, TheReadmesBytesPerCellAreTheEstimates) {
  const std::string readme = ks::test_support::method_readme("bgk");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(readme, m, std::regex("\\((\\d+) B a cell on the CPU"))) << "the README no longer gives the bytes a cell";
  const auto cavity = testing::small_cavity();
  BgkMethod method;
  const MemoryEstimate cpu = method.estimate_memory(testing::params(cavity), testing::cpu_context());
  const BgkConfig c = make_config(bgk_param_table().read(testing::params(cavity)));
  const double f_bytes = 2.0 * double(c.phase_cells()) * sizeof(double);
  EXPECT_EQ(std::stod(m[1]), (double(cpu.host_bytes) - f_bytes) / double(c.cells()));
}

// BgkConfig's own defaults (what tests and benchmarks build on) are the parameter table's.
TEST(BgkInput, TheConfigsDefaultsAreTheTables) {
  BgkParams p = bgk_param_table().read(ParamSet(bgk_param_table().specs()));
  const BgkConfig table_shock = make_config(p), plain;
  EXPECT_EQ(plain.nx, table_shock.nx);
  EXPECT_EQ(plain.ny, table_shock.ny);
  EXPECT_DOUBLE_EQ(plain.dx, table_shock.dx);
  EXPECT_DOUBLE_EQ(plain.x0, table_shock.x0);
  EXPECT_DOUBLE_EQ(plain.dt, table_shock.dt);
  EXPECT_DOUBLE_EQ(plain.omega, table_shock.omega);
  EXPECT_EQ(plain.conservative, table_shock.conservative);
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(plain.vg.n[a], table_shock.vg.n[a]);
    EXPECT_DOUBLE_EQ(plain.vg.lo[a], table_shock.vg.lo[a]);
    EXPECT_DOUBLE_EQ(plain.vg.h[a], table_shock.vg.h[a]);
  }
  p.problem = Case::Cavity;
  p.courant = 0.5;  // the table's dt is above the cavity's limit on the table's grid
  const BgkConfig table_cavity = make_config(p);
  EXPECT_EQ(plain.streaming, table_cavity.streaming);
  EXPECT_DOUBLE_EQ(plain.lid_speed, table_cavity.lid_speed);
}

TEST(BgkInput, VelocityBoxTooNarrowForTheDownstreamStateIsRefused) {
  BgkMethod m;
  auto p = testing::small_shock();
  p["mach"] = "5";  // downstream T = 8.7: its Maxwellian needs vt_max >= 7.4
  test_support::expect_error([&] { m.setup(testing::params(p), testing::cpu_context()); }, ErrorKind::BadInput, {"vt_max"});
}

TEST(BgkInput, LiveDtAboveTheCavityLimitLeavesTheRunAsItWas) {
  BgkMethod m;
  m.setup(testing::params(testing::small_cavity()), testing::cpu_context());
  m.advance();
  EXPECT_THROW(m.set_live("dt", 1.0), Error);
  EXPECT_DOUBLE_EQ(m.config().dt, 0.01);
  m.advance();  // still runs
  EXPECT_GT(m.time(), 0.01);
}

}  // namespace
}  // namespace ks::bgk

namespace ks::bgk {
namespace {

// Every shipped kinetic.bgk preset describes a problem that sets up (grids, Courant limit, velocity box).
TEST(BgkInput, EveryShippedPresetSetsUp) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(KS_SOURCE_DIR) + "/presets/bgk")) {
    SCOPED_TRACE(entry.path().string());
    const Preset p = load_preset(entry.path().string(), builtin_registry());
    EXPECT_NO_THROW(make_config(bgk_param_table().read(p.params)));
    ++count;
  }
  EXPECT_GE(count, 7);
}

}  // namespace
}  // namespace ks::bgk
