// kinetic.dvm benchmark (Zhu et al., Table 2): seconds per iteration and solver memory for the
// lid-driven cavity on the paper's grids, CPU (all cores) and CUDA in one process, beside the
// paper's 1-core and Tesla K40 times (single precision there; fp32 slices by default here, updates
// and sums in double).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bench_json.hpp"
#include "command_line.hpp"
#include "core/errors.hpp"
#include "core/param.hpp"
#include "core/text.hpp"
#include "methods/dvm/dvm_method.hpp"

namespace {

using namespace ks::dvm;
using Clock = std::chrono::steady_clock;

struct Row {
  int cells, velocities;
  double paper_1core_s, paper_k40_s, paper_mb;
};
// Table 2 (K40 column; the 128^3 x 64^3 row has no M2000/K80 entries).
const std::vector<Row> kTable2 = {{32, 32, 53.50, 0.55, 75},      {32, 64, 424.56, 2.15, 347},       {64, 32, 429.32, 4.33, 206},
                                  {64, 64, 3097.39, 16.57, 1205}, {64, 128, 24366.40, 132.84, 9242}, {128, 64, 25020.61, 156.47, 4703}};

struct Options {
  double cpu_max_points = 2e10;    // phase-space points per iteration the CPU is timed on
  long long batch = 0;             // velocities per batch (0: an octant)
  std::string precision = "fp32";  // stored f
  int strip = 0;                   // CUDA sweep strip (0: automatic)
  int max_cells = 128, max_velocities = 128;
  std::string out = "dvm_bench.json";
};

// The command line (--help lists it); nothing after --help. --batch, --precision and --strip set the
// method's parameters of those names and take their declared values.
std::optional<Options> parse(int argc, char** argv) {
  Options o;
  bool help = false;
  CLI::App app(
      "bench_dvm: seconds per iteration and solver memory of the lid-driven cavity on the paper's "
      "grids, CPU and GPU (Zhu et al., Table 2); writes JSON.\n\nusage: bench_dvm [options]",
      "bench_dvm");
  ks::cli::use_conventions(app, help);
  const ks::ParamSet declared(DvmMethod::static_info().params);
  const ks::ParamSpec &batch = declared.spec("batch"), &strip = declared.spec("strip");
  ks::cli::add_positive(app, "--cpu-max-points", o.cpu_max_points,
                        "skip the CPU above N phase-space points per iteration (default " + ks::format_number(o.cpu_max_points) + ")", "N");
  ks::cli::add_integer(app, "--batch", o.batch, (long long)batch.min, (long long)batch.max,
                       "velocities per batch (0: an octant; default 0)");
  ks::cli::add_choice(app, "--precision", o.precision, declared.spec("precision").choices, "stored f (default " + o.precision + ")");
  ks::cli::add_integer(app, "--strip", o.strip, (long long)strip.min, (long long)strip.max,
                       "CUDA sweep strip width (0: automatic; default 0)", "W");
  ks::cli::add_integer(app, "--max-cells", o.max_cells, 1, std::numeric_limits<int>::max(),
                       "skip the Table 2 rows with more cells per axis (default " + std::to_string(o.max_cells) + ")");
  ks::cli::add_integer(app, "--max-velocities", o.max_velocities, 1, std::numeric_limits<int>::max(),
                       "skip the Table 2 rows with more velocities per axis (default " + std::to_string(o.max_velocities) + ")", "M");
  ks::cli::add_text(app, "--out", o.out, "the JSON result file (default " + o.out + ")", "FILE");
  ks::cli::parse(app, argc, argv);
  if (!help) return o;
  std::fputs(ks::cli::help_text(app).c_str(), stdout);
  return std::nullopt;
}

ks::ParamSet cavity(int n, int m, const Options& o) {
  ks::ParamSet p(DvmMethod::static_info().params);
  auto set = [&](const std::string& k, const std::string& v) { p.set(k, ks::parse_value(p.spec(k), v, "bench")); };
  set("case", "cavity");
  for (const char* k : {"nx", "ny", "nz"}) set(k, std::to_string(n));
  set("nv", std::to_string(m));
  set("batch", std::to_string(o.batch));
  set("precision", o.precision);
  set("strip", std::to_string(o.strip));
  set("tolerance", "0");
  return p;
}

struct Timing {
  double seconds = 0.0, bytes = 0.0;
};

// Seconds per iteration (the second of two: the first includes first-touch and lazy loading).
Timing time_iteration(const ks::ParamSet& p, const ks::ExecutionContext& ctx) {
  DvmMethod m;
  m.setup(p, ctx);
  m.advance();
  const auto t0 = Clock::now();
  m.advance();
  return {std::chrono::duration<double>(Clock::now() - t0).count(), double(m.solver().bytes())};
}

}  // namespace

int main(int argc, char** argv) try {
  const std::optional<Options> options = parse(argc, argv);
  if (!options) return 0;
  const Options& o = *options;
  const ks::ExecutionContext cpu = ks::resolve_backend(ks::BackendRequest::Cpu);
  const ks::CudaAvailability cuda = ks::query_cuda();
  nlohmann::json result = {{"benchmark", "kinetic.dvm"},
                           {"machine", ks::bench::machine_description(cpu, cuda)},
                           {"batch", o.batch},
                           {"precision", o.precision},
                           {"strip", o.strip}};
  std::printf("kinetic.dvm, cavity: seconds per iteration; CPU = %s; GPU = %s; batch = %s; %s slices; strip %s\n", cpu.device_name.c_str(),
              cuda.usable ? cuda.device_name.c_str() : "none", o.batch ? std::to_string(o.batch).c_str() : "octant", o.precision.c_str(),
              o.strip ? std::to_string(o.strip).c_str() : "auto");
  std::printf("%6s %6s %10s %10s %10s %10s %9s %9s %9s %9s\n", "cells", "vel", "paper 1c", "paper K40", "CPU", "GPU", "GPU MB", "paper MB",
              "GPU/CPU", "K40/GPU");
  nlohmann::json rows = nlohmann::json::array();
  for (const Row& r : kTable2) {
    if (r.cells > o.max_cells || r.velocities > o.max_velocities) continue;
    const ks::ParamSet p = cavity(r.cells, r.velocities, o);
    const double points = std::pow(double(r.cells) * r.velocities, 3.0);
    nlohmann::json row = {{"cells", r.cells},
                          {"velocities", r.velocities},
                          {"phase_points", points},
                          {"paper_1core_s", r.paper_1core_s},
                          {"paper_k40_s", r.paper_k40_s},
                          {"paper_MB", r.paper_mb}};
    Timing c, g;
    if (points <= o.cpu_max_points) {
      c = time_iteration(p, cpu);
      row["cpu_s"] = c.seconds;
      row["cpu_MB"] = c.bytes / 1e6;
    }
    if (cuda.usable) {
      ks::ExecutionContext ctx;
      ctx.backend = ks::BackendKind::Cuda;
      ctx.cuda_device = cuda.device;
      g = time_iteration(p, ctx);
      row["gpu_s"] = g.seconds;
      row["gpu_MB"] = g.bytes / 1e6;
      row["gpu_ns_per_point"] = g.seconds / points * 1e9;
    }
    std::printf("%4d^3 %4d^3 %10.2f %10.2f %10.3f %10.3f %9.0f %9.0f %8.1fx %8.1fx\n", r.cells, r.velocities, r.paper_1core_s,
                r.paper_k40_s, c.seconds, g.seconds, g.bytes / 1e6, r.paper_mb,
                c.seconds > 0 && g.seconds > 0 ? c.seconds / g.seconds : 0.0, g.seconds > 0 ? r.paper_k40_s / g.seconds : 0.0);
    std::fflush(stdout);
    rows.push_back(row);
  }
  result["rows"] = rows;
  ks::bench::write_json(result, o.out);
  return 0;
} catch (const ks::Error& e) {
  std::fprintf(stderr, "bench_dvm: %s\n", e.what());
  return e.exit_code();
}
