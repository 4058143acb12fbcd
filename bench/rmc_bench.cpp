// radiation.rmc benchmark (Silvestri & Pecnik, Tables 2, 3, 4, 7): case 10 (H2O slab, parab1) on
// N^3 grids, CPU (all cores) and each CUDA variant (naive, +texture, +sorting, +multigrid, additive
// as in the paper, then the same in float arithmetic) in one process; a grid sweep at the paper's 6e4 rays per cell and a ray sweep at
// 64^3. Each point traces one batch; where the full ray count would exceed the time budget a smaller
// batch is timed and scaled linearly in rays (the rays are independent; the ray sweep measures the
// exponent). Reports seconds, rays and face crossings (ray-cell steps) per second.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "bench_json.hpp"
#include "command_line.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "methods/radiation/rmc_cases.hpp"
#include "methods/radiation/rmc_method.hpp"

namespace {

using namespace ks::rmc;
using Clock = std::chrono::steady_clock;

// The paper's Tesla K40m times (s) for case 10 and its 1-core Xeon E5-2680 times (Tables 2, 3, 4, 7).
struct PaperRow {
  int n;
  double cpu, naive, texture, sorting, optimised;
};
const std::vector<PaperRow> kPaperGrid = {{16, 269.4, 11.8, 8.5, 6.4, 4.4},         {32, 2921.1, 84.8, 48.6, 43.2, 17.1},
                                          {48, 13182.7, 394.0, 260.0, 180.8, 53.7}, {64, 39313.3, 1169.5, 716.0, 573.0, 132.8},
                                          {96, 271844.4, 6143, 4381, 2866, 476.6},  {128, 0, 19623, 12343, 9597, 1262},
                                          {160, 0, 47539, 34047, 22189, 2612}};
struct PaperRays {
  double rays, cpu, naive, texture, sorting, optimised;
};
const std::vector<PaperRays> kPaperRays = {{600, 369.7, 14.1, 9.6, 10.3, 4.1},          {1500, 961.7, 31.8, 20.6, 21.7, 6.3},
                                           {6000, 3928.6, 119.2, 74.3, 73.2, 17.1},     {15000, 10432.2, 294.4, 180.7, 165.5, 37.5},
                                           {30000, 19661.1, 585.8, 358.6, 308.0, 69.9}, {60000, 39313.3, 1170, 714.5, 573.2, 132.4},
                                           {150000, 132641.3, 2916, 1784, 1313, 316.0}};

enum class Variant { Cpu, Naive, Texture, Sorting, Multigrid, Single, Packets };
constexpr Variant kVariants[] = {Variant::Cpu,       Variant::Naive,  Variant::Texture, Variant::Sorting,
                                 Variant::Multigrid, Variant::Single, Variant::Packets};
const char* name(Variant v) {
  switch (v) {
    case Variant::Cpu: return "cpu";
    case Variant::Naive: return "naive";
    case Variant::Texture: return "texture";
    case Variant::Sorting: return "sorting";
    case Variant::Multigrid: return "multigrid";
    case Variant::Single: return "multigrid_fp32";
    case Variant::Packets: return "packets_fp32";
  }
  return "?";
}

struct Options {
  std::vector<int> grids = {16, 32, 48, 64, 96, 128, 160};
  std::vector<int> ray_sweep = {600, 1500, 6000, 15000, 30000, 60000, 150000};
  int rays = 60000, sweep_grid = 64, cpu_max_grid = 64;
  double budget = 6.0, cpu_budget = 10.0;  // seconds per timed batch
  std::string out = "rmc_bench.json";
  std::vector<std::string> variants;  // names to run; empty: all
};

// The command line (--help lists it); nothing after --help.
std::optional<Options> parse(int argc, char** argv) {
  Options o;
  bool help = false;
  CLI::App app(
      "bench_rmc: case 10 (H2O slab) on N^3 grids and a ray sweep, CPU and each GPU variant "
      "(Silvestri & Pecnik, Tables 2, 3, 4, 7); writes JSON.\n\nusage: bench_rmc [options]",
      "bench_rmc");
  ks::cli::use_conventions(app, help);
  ks::cli::add_integer_list(app, "--grids", o.grids, 1, std::numeric_limits<int>::max(),
                            "the grid sweep's N (default " + ks::cli::comma_list(o.grids) + ")");
  ks::cli::add_integer_list(app, "--ray-sweep", o.ray_sweep, 1, std::numeric_limits<int>::max(),
                            "the ray sweep's rays per cell (default " + ks::cli::comma_list(o.ray_sweep) + ")");
  ks::cli::add_integer(app, "--rays", o.rays, 1, std::numeric_limits<int>::max(),
                       "rays per cell of the grid sweep (default " + std::to_string(o.rays) + ")");
  ks::cli::add_integer(app, "--sweep-grid", o.sweep_grid, 1, std::numeric_limits<int>::max(),
                       "the ray sweep's N (default " + std::to_string(o.sweep_grid) + ")");
  ks::cli::add_integer(app, "--cpu-max-grid", o.cpu_max_grid, 0, std::numeric_limits<int>::max(),
                       "skip the CPU on grids above N^3 (default " + std::to_string(o.cpu_max_grid) + ")");
  ks::cli::add_positive(app, "--budget", o.budget,
                        "seconds a GPU batch may take; where the full ray count would take longer, a smaller batch is "
                        "timed and scaled linearly in rays (default " +
                            ks::format_number(o.budget) + ")");
  ks::cli::add_positive(app, "--cpu-budget", o.cpu_budget, "the same for the CPU (default " + ks::format_number(o.cpu_budget) + ")");
  std::vector<std::string> names;
  for (Variant v : kVariants) names.push_back(name(v));
  app.add_option_function<std::string>(
         "--variants",
         [&o, names](const std::string& list) {
           std::stringstream items(list);
           for (std::string v; std::getline(items, v, ',');) {
             if (std::find(names.begin(), names.end(), v) == names.end())
               throw ks::bad_input("--variants " + ks::cut(v, 40), "unknown variant", ks::cli::comma_list(names, ", "));
             o.variants.push_back(v);
           }
         },
         "run only the named variants (default: all)")
      ->type_name(ks::cli::comma_list(names));
  ks::cli::add_text(app, "--out", o.out, "the JSON result file (default " + o.out + ")", "FILE");
  ks::cli::parse(app, argc, argv);
  if (!help) return o;
  std::fputs(ks::cli::help_text(app).c_str(), stdout);
  return std::nullopt;
}

ks::ParamSet case10(int n, Variant v, int max_levels) {
  ks::ParamSet p(RmcMethod::static_info().params);
  auto set = [&](const std::string& k, const std::string& val) { p.set(k, ks::parse_value(p.spec(k), val, "bench")); };
  set("profile", "parab1");
  set("gas", "H2O");
  for (const char* k : {"nx", "ny", "nz"}) set(k, std::to_string(n));
  set("rays_per_cell", "1000000000");
  set("texture", v >= Variant::Texture ? "true" : "false");
  set("sorting", v >= Variant::Sorting ? "true" : "false");
  // The paper's multigrid: coarsening ratio 2 down to 3^3 (3 levels at 16^3 ... 6 at 96^3 and up), 5 steps each.
  set("grid_levels", v >= Variant::Multigrid ? std::to_string(max_levels) : "1");
  set("single_precision", v >= Variant::Single ? "true" : "false");
  set("ray_packets", v == Variant::Packets ? "true" : "false");
  set("steps_per_level", "5");
  return p;
}

struct Timing {
  int rays_timed;
  double seconds_timed, seconds_at_target, crossings_per_ray;
};

// Times one batch of `target` rays per cell, or of fewer when a pilot batch predicts more than `budget` s.
Timing time_case(int n, Variant v, int target, double budget, const ks::ExecutionContext& ctx) {
  RmcMethod m;
  ks::ParamSet p = case10(n, v, 1);
  RmcConfig probe = make_config(rmc_param_table().read(p));
  p = case10(n, v, max_levels(probe));
  auto run_batch = [&](int rays) {
    p.set("rays_per_batch", std::int64_t(rays));
    m.setup(p, ctx);
    const auto t0 = Clock::now();
    m.advance();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  const double cells = double(n) * n * n;
  const int pilot = int(std::clamp(2e6 / cells * (v == Variant::Cpu ? 1.0 : 64.0), 1.0, 64.0));
  const double per_ray = run_batch(pilot) / pilot;
  const int rays = int(std::clamp(budget / per_ray, 1.0, double(target)));
  const double s = run_batch(rays);
  return {rays, s, s * double(target) / rays, m.face_crossings() / (double(rays) * cells)};
}

nlohmann::json point(int n, int target, Variant v, const Timing& t) {
  const double rays = double(n) * n * n * target;
  return {{"grid", n},
          {"rays_per_cell", target},
          {"variant", name(v)},
          {"rays_per_cell_timed", t.rays_timed},
          {"seconds_timed", t.seconds_timed},
          {"seconds", t.seconds_at_target},
          {"rays_per_second", rays / t.seconds_at_target},
          {"crossings_per_ray", t.crossings_per_ray},
          {"ray_cell_steps_per_second", rays * t.crossings_per_ray / t.seconds_at_target}};
}

}  // namespace

int main(int argc, char** argv) try {
  const std::optional<Options> options = parse(argc, argv);
  if (!options) return 0;
  const Options& o = *options;
  const ks::ExecutionContext cpu = ks::resolve_backend(ks::BackendRequest::Cpu);
  const ks::CudaAvailability cuda = ks::query_cuda();
  ks::ExecutionContext gpu;
  gpu.backend = ks::BackendKind::Cuda;
  gpu.cuda_device = cuda.device;
  std::vector<Variant> variants = {Variant::Cpu};
  if (cuda.usable) variants.assign(std::begin(kVariants), std::end(kVariants));
  if (!o.variants.empty())
    variants.erase(std::remove_if(variants.begin(), variants.end(),
                                  [&](Variant v) { return std::find(o.variants.begin(), o.variants.end(), name(v)) == o.variants.end(); }),
                   variants.end());

  nlohmann::json grid_rows = nlohmann::json::array(), ray_rows = nlohmann::json::array();
  constexpr int kCount = int(std::size(kVariants));
  std::vector<std::vector<double>> grid_x(kCount), grid_t(kCount), ray_x(kCount), ray_t(kCount);
  for (int n : o.grids)
    for (Variant v : variants) {
      if (v == Variant::Cpu && n > o.cpu_max_grid) continue;
      const Timing t = time_case(n, v, o.rays, v == Variant::Cpu ? o.cpu_budget : o.budget, v == Variant::Cpu ? cpu : gpu);
      grid_rows.push_back(point(n, o.rays, v, t));
      grid_x[int(v)].push_back(double(n) * n * n), grid_t[int(v)].push_back(t.seconds_at_target);
      std::printf("grid %4d^3 %-9s %10.2f s at %d rays/cell (timed %d)  %.3g ray-cell steps/s\n", n, name(v), t.seconds_at_target, o.rays,
                  t.rays_timed, double(grid_rows.back()["ray_cell_steps_per_second"]));
      std::fflush(stdout);
    }
  for (int r : o.ray_sweep)
    for (Variant v : variants) {
      const Timing t = time_case(o.sweep_grid, v, r, v == Variant::Cpu ? o.cpu_budget : o.budget, v == Variant::Cpu ? cpu : gpu);
      ray_rows.push_back(point(o.sweep_grid, r, v, t));
      ray_x[int(v)].push_back(r), ray_t[int(v)].push_back(t.seconds_at_target);
      std::printf("rays %7d %-9s %10.2f s at %d^3 (timed %d)\n", r, name(v), t.seconds_at_target, o.sweep_grid, t.rays_timed);
      std::fflush(stdout);
    }
  nlohmann::json fits = nlohmann::json::object();
  for (Variant v : variants)
    fits[name(v)] = {{"exponent_in_cells", ks::bench::power_law_exponent(grid_x[int(v)], grid_t[int(v)])},
                     {"exponent_in_rays", ks::bench::power_law_exponent(ray_x[int(v)], ray_t[int(v)])}};
  nlohmann::json paper_grid = nlohmann::json::array(), paper_rays = nlohmann::json::array();
  for (const auto& r : kPaperGrid)
    paper_grid.push_back({{"grid", r.n},
                          {"cpu_1core", r.cpu},
                          {"naive", r.naive},
                          {"texture", r.texture},
                          {"sorting", r.sorting},
                          {"multigrid", r.optimised}});
  for (const auto& r : kPaperRays)
    paper_rays.push_back({{"rays_per_cell", r.rays},
                          {"cpu_1core", r.cpu},
                          {"naive", r.naive},
                          {"texture", r.texture},
                          {"sorting", r.sorting},
                          {"multigrid", r.optimised}});
  const nlohmann::json result = {
      {"benchmark", "radiation.rmc case 10 (H2O 1 atm, parab1), Silvestri & Pecnik Tables 2-4, 7"},
      {"machine", ks::bench::machine_description(cpu, cuda)},
      {"note",
       "seconds: one batch of rays_per_cell rays per cell; where rays_per_cell_timed is smaller the timed batch is scaled "
       "linearly in rays. Variants are additive as in the paper: texture includes naive's kernel, sorting adds texture, "
       "multigrid adds sorting (max levels down to 3^3, 5 steps each), multigrid_fp32 marches the multigrid variant in float "
       "and packets_fp32 adds coherent ray packets (ray_packets: 32 cells along x share each ray's random numbers); "
       "neither is in the paper. CPU: all cores, double precision."},
      {"grid_sweep", grid_rows},
      {"ray_sweep", ray_rows},
      {"fits", fits},
      {"paper_k40_grid_sweep_s", paper_grid},
      {"paper_k40_ray_sweep_s", paper_rays}};
  ks::bench::write_json(result, o.out);
  std::printf("wrote %s\n", o.out.c_str());
  return 0;
} catch (const ks::Error& e) {
  std::fprintf(stderr, "bench_rmc: %s\n", e.what());
  return e.exit_code();
}
