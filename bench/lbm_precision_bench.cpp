// lbm.binary precision comparison (Safi & Ashrafizaadeh, Fig. 12): the packed bed's plane-averaged
// axial bulk velocity u_z(z), converged in FP64, FP32 and FP16 storage on both grid levels (the
// presets packed-bed-coarse and packed-bed-fine), and the relative difference of each against FP64
// per plane: at the inlet and the outlet, and its spread over the bed. The
// paper reports FP32 against FP64 from 4 % at the inlet down to below 0.05 % in the bed on the coarse
// level (6 % and 1 % on the fine one). FP64 runs to eq. (19)'s tolerance; FP32 and FP16 then run as
// many steps (their rounding noise keeps their residuals above the paper's 1e-7, so run to it they
// would stop at max_steps, at another time of the flow's development).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "bench_json.hpp"
#include "command_line.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "io/preset.hpp"
#include "methods/lbm/lbm_method.hpp"

namespace {

using namespace ks::lbm;

struct Options {
  std::vector<std::string> levels = {"coarse", "fine"};
  std::string preset_dir = "presets/lbm";
  std::string backend = "auto";
  std::string out = "lbm_precision.json";
};

std::optional<Options> parse(int argc, char** argv) {
  Options o;
  bool help = false;
  std::string levels = "coarse,fine";
  CLI::App app(
      "bench_lbm_precision: the packed bed's plane-averaged bulk velocity along z converged in FP64, FP32 "
      "and FP16 storage, and each against FP64 per plane (Safi & Ashrafizaadeh, Fig. 12); writes JSON.\n\n"
      "usage: bench_lbm_precision [options]",
      "bench_lbm_precision");
  ks::cli::use_conventions(app, help);
  ks::cli::add_choice(app, "--levels", levels, {"coarse", "fine", "coarse,fine"},
                      "grid levels to run (default coarse,fine: presets packed-bed-coarse.json, packed-bed-fine.json)");
  ks::cli::add_text(app, "--presets", o.preset_dir, "folder of the lbm presets (default " + o.preset_dir + ")", "DIR");
  ks::cli::add_choice(app, "--backend", o.backend, {"auto", "cpu", "cuda"}, "where to run (default auto; FP16 storage runs on CUDA only)");
  ks::cli::add_text(app, "--out", o.out, "the JSON result file (default " + o.out + ")", "FILE");
  ks::cli::parse(app, argc, argv);
  if (help) {
    std::fputs(ks::cli::help_text(app).c_str(), stdout);
    return std::nullopt;
  }
  o.levels = levels == "coarse,fine" ? std::vector<std::string>{"coarse", "fine"} : std::vector<std::string>{levels};
  return o;
}

// One converged run: its plane averages and what it took.
struct Run {
  std::vector<double> uz;  // plane-averaged mixture u_z, lattice units
  double bed_z[2] = {0, 0};
  long long steps = 0;
  bool converged = false;
  double seconds = 0.0;
};

Run run_to_the_end(const ks::Preset& preset, const std::string& precision, const ks::ExecutionContext& ctx,
                   std::optional<long long> steps) {
  ks::ParamSet p = preset.params;
  p.set("precision", ks::ParamValue(precision));
  if (steps) {  // exactly this many
    p.set("max_steps", ks::ParamValue(std::int64_t(*steps)));
    p.set("tolerance", ks::ParamValue(0.0));
  }
  LbmMethod m;
  const auto t0 = std::chrono::steady_clock::now();
  m.setup(p, ctx);
  while (!m.finished()) m.advance();
  Run r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.uz = plane_averages(m.config(), m.geometry(), m.moments()).uz_mix;
  r.bed_z[0] = m.scene().bed_z[0];
  r.bed_z[1] = m.scene().bed_z[1];
  r.steps = m.steps();
  r.converged = m.progress().converged;
  return r;
}

// |u - u64| / |u64| per plane: at the inlet and outlet planes, and its largest, median and smallest
// value over the bed (the paper quotes the inlet's and the bed's).
nlohmann::json difference(const Run& run, const Run& fp64) {
  std::vector<double> per_plane(run.uz.size()), bed;
  for (std::size_t z = 0; z < run.uz.size(); ++z) {
    per_plane[z] = std::fabs(run.uz[z] - fp64.uz[z]) / std::fabs(fp64.uz[z]);
    if (double(z) >= fp64.bed_z[0] && double(z) <= fp64.bed_z[1]) bed.push_back(per_plane[z]);
  }
  std::sort(bed.begin(), bed.end());
  return {{"inlet", per_plane.front()},        {"outlet", per_plane.back()}, {"bed_max", bed.back()},
          {"bed_median", bed[bed.size() / 2]}, {"bed_min", bed.front()},     {"per_plane", per_plane}};
}

}  // namespace

int main(int argc, char** argv) try {
  const std::optional<Options> options = parse(argc, argv);
  if (!options) return 0;
  const Options& o = *options;
  const ks::ExecutionContext ctx = ks::resolve_backend(ks::parse_backend(o.backend, "--backend"));
  const bool cuda = ctx.backend == ks::BackendKind::Cuda;
  nlohmann::json result = {
      {"benchmark", "lbm.binary precision (Fig. 12)"},
      {"machine", ks::bench::machine_description(ks::resolve_backend(ks::BackendRequest::Cpu), ks::query_cuda())},
      {"device", ctx.device_name},
      {"paper_fp32_vs_fp64", {{"coarse", {{"inlet", 0.04}, {"bed", 0.0005}}}, {"fine", {{"inlet", 0.06}, {"bed", 0.01}}}}},
      {"levels", nlohmann::json::object()}};
  std::printf("lbm.binary packed bed, plane-averaged bulk u_z against FP64 on %s\n", ctx.device_name.c_str());
  std::printf("%-7s %5s %8s %5s %9s %9s %9s %9s %9s %9s\n", "level", "prec", "steps", "conv", "seconds", "inlet", "bed min", "bed med",
              "bed max", "outlet");
  for (const std::string& level : o.levels) {
    const ks::Preset preset = ks::load_preset(o.preset_dir + "/packed-bed-" + level + ".json", ks::builtin_registry());
    nlohmann::json& out = result["levels"][level];
    const Run fp64 = run_to_the_end(preset, "fp64", ctx, std::nullopt);
    auto report = [&](const std::string& precision, const Run& r) {
      nlohmann::json row = {{"steps", r.steps}, {"converged", r.converged}, {"seconds", r.seconds}, {"uz", r.uz}};
      if (precision != "fp64") row["against_fp64"] = difference(r, fp64);
      const nlohmann::json& d = row.contains("against_fp64") ? row["against_fp64"] : nlohmann::json::object();
      std::printf("%-7s %5s %8lld %5s %9.1f %8.3f%% %8.3f%% %8.3f%% %8.3f%% %8.3f%%\n", level.c_str(), precision.c_str(), r.steps,
                  r.converged ? "yes" : "no", r.seconds, 100 * d.value("inlet", 0.0), 100 * d.value("bed_min", 0.0),
                  100 * d.value("bed_median", 0.0), 100 * d.value("bed_max", 0.0), 100 * d.value("outlet", 0.0));
      std::fflush(stdout);
      out[precision] = row;
      ks::bench::write_json(result, o.out);
    };
    out["bed_z"] = {fp64.bed_z[0], fp64.bed_z[1]};
    report("fp64", fp64);
    report("fp32", run_to_the_end(preset, "fp32", ctx, fp64.steps));
    if (cuda) report("fp16", run_to_the_end(preset, "fp16", ctx, fp64.steps));
  }
  return 0;
} catch (const ks::Error& e) {
  std::fprintf(stderr, "bench_lbm_precision: %s\n", e.what());
  return e.exit_code();
}
