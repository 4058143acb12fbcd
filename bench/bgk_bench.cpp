// kinetic.bgk benchmark (Frezzotti et al., Fig. 7): nanoseconds per phase-space cell per time step
// vs the number of physical cells N_r (N_x for the 1D shock, N_x + N_y for the square cavity), on the
// CPU (all cores) and the GPU in one process, for both GPU step variants, with the fraction of the
// measured device bandwidth each achieves. Bytes per phase-space cell per step: fused 24 (f read in
// the moment kernel, read again and written in the relaxation kernel); paper 40 (Algorithm 1 reads f
// and writes f~; Algorithm 2 reads f~ twice and writes f).
#include <chrono>
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
#include "methods/bgk/bgk_method.hpp"
#ifdef KS_HAVE_CUDA
#include "device_bandwidth.hpp"
#endif

namespace {

using namespace ks::bgk;

struct Options {
  std::vector<int> shock_nx = {128, 512, 2048, 6144, 12288, 18432};
  std::vector<int> cavity_n = {16, 40, 80, 160, 320};  // N_x = N_y; N_r = 2 N
  long long cpu_max_phase_cells = 80'000'000;
  double seconds_per_point = 0.3;
  std::string streaming = "unsplit";  // the cavity's 2D streaming
  std::string out = "bgk_bench.json";
};

// The command line (--help lists it); nothing after --help.
std::optional<Options> parse(int argc, char** argv) {
  Options o;
  bool help = false;
  CLI::App app(
      "bench_bgk: ns per phase-space cell per step of the shock and the cavity, CPU and GPU "
      "(Frezzotti et al., Fig. 7); writes JSON.\n\nusage: bench_bgk [options]",
      "bench_bgk");
  ks::cli::use_conventions(app, help);
  ks::cli::add_integer_list(app, "--shock-nx", o.shock_nx, 1, std::numeric_limits<int>::max(),
                            "the shock's N_x (default " + ks::cli::comma_list(o.shock_nx) + ")");
  ks::cli::add_integer_list(app, "--cavity-n", o.cavity_n, 1, std::numeric_limits<int>::max(),
                            "the cavity's N_x = N_y (N_r = 2 N; default " + ks::cli::comma_list(o.cavity_n) + ")");
  ks::cli::add_integer(app, "--cpu-max-phase-cells", o.cpu_max_phase_cells, 0, std::numeric_limits<long long>::max(),
                       "skip the CPU above N phase-space cells (default " + std::to_string(o.cpu_max_phase_cells) + ")");
  ks::cli::add_positive(app, "--seconds", o.seconds_per_point,
                        "seconds of stepping timed per point (default " + ks::format_number(o.seconds_per_point) + ")");
  const ks::ParamSet declared(BgkMethod::static_info().params);
  ks::cli::add_choice(app, "--streaming", o.streaming, declared.spec("streaming").choices,
                      "the cavity's 2D streaming (default " + o.streaming + ")");
  ks::cli::add_text(app, "--out", o.out, "the JSON result file (default " + o.out + ")", "FILE");
  ks::cli::parse(app, argc, argv);
  if (!help) return o;
  std::fputs(ks::cli::help_text(app).c_str(), stdout);
  return std::nullopt;
}

ks::ParamSet case_params(bool shock, int n, const std::string& streaming) {
  ks::ParamSet p(BgkMethod::static_info().params);
  auto set = [&](const std::string& k, const std::string& v) { p.set(k, ks::parse_value(p.spec(k), v, "bench")); };
  if (shock) {  // section 4, M = 1.5: 16^3 velocities
    set("case", "shock");
    set("nx", std::to_string(n));
  } else {  // section 5: 20^3 velocities in [-3, 3]^3, delta = 10, Courant 0.9 (per axis, or their sum unsplit)
    set("case", "cavity");
    set("nx", std::to_string(n));
    set("ny", std::to_string(n));
    set("nv", "20");
    set("vx_min", "-3");
    set("vx_max", "3");
    set("vt_max", "3");
    set("delta", "10");
    set("streaming", streaming);
    set("courant", "0.9");
  }
  return p;
}

}  // namespace

int main(int argc, char** argv) try {
  const std::optional<Options> options = parse(argc, argv);
  if (!options) return 0;
  const Options& o = *options;
  const ks::ExecutionContext cpu = ks::resolve_backend(ks::BackendRequest::Cpu);
  const ks::CudaAvailability cuda = ks::query_cuda();
  nlohmann::json result = {{"benchmark", "kinetic.bgk"},
                           {"machine", ks::bench::machine_description(cpu, cuda)},
                           {"bytes_per_phase_cell_step", {{"fused", 24}, {"paper", 40}}},
                           {"cavity_streaming", o.streaming}};
  double bandwidth = 0.0;
#ifdef KS_HAVE_CUDA
  if (cuda.usable) bandwidth = ks::bench::measured_device_bandwidth(cuda.device);
#endif
  result["device_bandwidth_GBps"] = bandwidth / 1e9;
  std::printf("kinetic.bgk: ns per phase-space cell per step; CPU = %s; GPU = %s (copy bandwidth %.0f GB/s); cavity streaming %s\n",
              cpu.device_name.c_str(), cuda.usable ? cuda.device_name.c_str() : "none", bandwidth / 1e9, o.streaming.c_str());
  std::printf("%-7s %7s %12s %10s %10s %10s %8s %8s %9s\n", "case", "N_r", "phase cells", "CPU", "GPU fused", "GPU paper", "fused BW",
              "paper BW", "GPU/CPU");
  nlohmann::json rows = nlohmann::json::array();
  for (bool shock : {true, false}) {
    for (int n : shock ? o.shock_nx : o.cavity_n) {
      const BgkConfig c = make_config(bgk_param_table().read(case_params(shock, n, o.streaming)));
      const double cells = double(c.phase_cells());
      nlohmann::json row = {{"case", shock ? "shock" : "cavity"}, {"N_r", shock ? n : 2 * n}, {"phase_cells", cells}};
      double ns_cpu = 0, ns_fused = 0, ns_paper = 0;
      if (c.phase_cells() <= o.cpu_max_phase_cells) {
        auto solver = make_cpu_solver(c);
        ns_cpu = ks::bench::seconds_per_step([&](int n) { solver->step(n); }, o.seconds_per_point) / cells * 1e9;
        row["cpu_ns"] = ns_cpu;
      }
#ifdef KS_HAVE_CUDA
      if (cuda.usable) {
        auto gpu = make_cuda_solver(c, cuda.device);
        ns_fused = ks::bench::seconds_per_step([&](int n) { gpu->step(n); }, o.seconds_per_point) / cells * 1e9;
        gpu->set_variant(StepVariant::Paper);
        ns_paper = ks::bench::seconds_per_step([&](int n) { gpu->step(n); }, o.seconds_per_point) / cells * 1e9;
        row["gpu_fused_ns"] = ns_fused;
        row["gpu_paper_ns"] = ns_paper;
        row["fused_bandwidth_fraction"] = 24.0 / (ns_fused * 1e-9) / bandwidth;
        row["paper_bandwidth_fraction"] = 40.0 / (ns_paper * 1e-9) / bandwidth;
      }
#endif
      const double frac_f = ns_fused > 0 ? 24.0 / (ns_fused * 1e-9) / bandwidth : 0.0;
      const double frac_p = ns_paper > 0 ? 40.0 / (ns_paper * 1e-9) / bandwidth : 0.0;
      // "-" where a side was not run (CPU beyond --cpu-max-phase-cells, no GPU).
      const auto cell = [](double x, const char* format) {
        char text[32] = "-";
        if (x > 0.0) std::snprintf(text, sizeof text, format, x);
        return std::string(text);
      };
      std::printf("%-7s %7d %12.0f %10s %10s %10s %8s %8s %9s\n", shock ? "shock" : "cavity", shock ? n : 2 * n, cells,
                  cell(ns_cpu, "%.3f").c_str(), cell(ns_fused, "%.4f").c_str(), cell(ns_paper, "%.4f").c_str(),
                  cell(100 * frac_f, "%.0f%%").c_str(), cell(100 * frac_p, "%.0f%%").c_str(),
                  cell(ns_cpu > 0 && ns_fused > 0 ? ns_cpu / ns_fused : 0.0, "%.0fx").c_str());
      std::fflush(stdout);
      rows.push_back(row);
    }
  }
  result["rows"] = rows;
  ks::bench::write_json(result, o.out);
  return 0;
} catch (const ks::Error& e) {
  std::fprintf(stderr, "bench_bgk: %s\n", e.what());
  return e.exit_code();
}
