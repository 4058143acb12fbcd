// lbm.binary benchmark (Safi & Ashrafizaadeh, Fig. 13 and Table 2): million lattice updates per
// second (MLUPS; one update = both species at one node, every node of the box counted as in the
// paper) for the packed bed at the paper's sizes n^2 x 2n (n = 32, 64, 96, 128) and larger, in FP32 and
// FP64, on the CPU (all cores) and the GPU in one process. The bed keeps the paper's 4 <= d_p <= 8 and
// porosity 0.48 at every size (12753 (n/128)^3 spheres, open ends n/4).
// Bytes per update: 2 species x 27 populations x (read + write) x 2, 4 or 8 bytes = 216 (FP16 storage), 432 (FP32) or 864
// (FP64). Per kernel, population traffic only: collide_stream 108 sizeof(Real) per fluid node;
// bounce_back 8 sizeof(Real) + 24 (the link) per wall link; boundary 72 sizeof(Real) per inlet/outlet node.
// Then the bare update on an all-fluid periodic n^3 box (collide-stream only), where 432 bytes per
// update is the whole traffic and the bandwidth target applies.
// The GPU runs its steps in one process: the fused kernel (gpu_step = fused, auto's choice on the bed; its
// fluid-node bandwidth counts the populations of the fluid nodes only), the same in place (gpu_step =
// in_place, one population array) and the paper's three kernels, which the per-kernel columns time.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bench_json.hpp"
#include "command_line.hpp"
#include "core/errors.hpp"
#include "core/param.hpp"
#include "core/text.hpp"
#include "methods/lbm/lbm_method.hpp"
#ifdef KS_HAVE_CUDA
#include "device_bandwidth.hpp"
#endif

namespace {

using namespace ks::lbm;

// The paper's Table 2: Tesla C2070, FP32, packed bed.
struct PaperPoint {
  int n;
  double mlups;
};
constexpr PaperPoint kPaperC2070[] = {{32, 28.2}, {64, 40.6}, {96, 45.0}, {128, 46.2}};

struct Options {
  std::vector<int> sizes = {32, 64, 96, 128, 192, 256};
  std::vector<int> box_sizes = {128, 256};
  long long cpu_max_nodes = 4'300'000;
  double seconds_per_point = 0.5;
  std::string out = "lbm_bench.json";
};

// The command line (--help lists it); nothing after --help.
std::optional<Options> parse(int argc, char** argv) {
  Options o;
  bool help = false;
  CLI::App app(
      "bench_lbm: MLUPS of the packed bed at n^2 x 2n and of the bare update on a periodic n^3 box, "
      "FP32 and FP64, CPU and GPU (Safi & Ashrafizaadeh, Fig. 13 and Table 2); writes JSON.\n\n"
      "usage: bench_lbm [options]",
      "bench_lbm");
  ks::cli::use_conventions(app, help);
  ks::cli::add_integer_list(app, "--sizes", o.sizes, 1, std::numeric_limits<int>::max(),
                            "the packed beds' n (default " + ks::cli::comma_list(o.sizes) + ")");
  ks::cli::add_integer_list(app, "--box-sizes", o.box_sizes, 1, std::numeric_limits<int>::max(),
                            "the periodic boxes' n (default " + ks::cli::comma_list(o.box_sizes) + ")");
  ks::cli::add_integer(app, "--cpu-max-nodes", o.cpu_max_nodes, 0, std::numeric_limits<long long>::max(),
                       "skip the CPU above N nodes (default " + std::to_string(o.cpu_max_nodes) + ", up to the paper's 128^2 x 256)");
  ks::cli::add_positive(app, "--seconds", o.seconds_per_point,
                        "seconds of stepping timed per point (default " + ks::format_number(o.seconds_per_point) + ")");
  ks::cli::add_text(app, "--out", o.out, "the JSON result file (default " + o.out + ")", "FILE");
  ks::cli::parse(app, argc, argv);
  if (!help) return o;
  std::fputs(ks::cli::help_text(app).c_str(), stdout);
  return std::nullopt;
}

using Setter = std::function<void(const std::string&, const std::string&)>;

ks::ParamSet lbm_params(const std::function<void(const Setter&)>& fill) {
  ks::ParamSet p(LbmMethod::static_info().params);
  fill([&](const std::string& k, const std::string& v) { p.set(k, ks::parse_value(p.spec(k), v, "bench")); });
  return p;
}

ks::ParamSet bed_params(int n, const std::string& precision) {
  return lbm_params([&](const Setter& set) {
    set("geometry", "packed_bed");
    set("nx", std::to_string(n));
    set("ny", std::to_string(n));
    set("nz", std::to_string(2 * n));
    set("sphere_count", std::to_string(std::max(1L, std::lround(12753.0 * std::pow(n / 128.0, 3)))));
    set("open_length", std::to_string(n / 4));
    set("pressure_ratio", "0.958");
    set("x_o2", "0.21");
    set("viscosity", "0.06");
    set("d_ab", "0.08");
    set("precision", precision);
  });
}

// The bare binary D3Q27 update: an all-fluid periodic n^3 box (collide-stream only, 432 / 864 bytes
// per node), the figure the bandwidth roofline applies to.
ks::ParamSet box_params(int n, const std::string& precision) {
  return lbm_params([&](const Setter& set) {
    set("geometry", "periodic");
    set("nx", std::to_string(n));
    set("ny", std::to_string(n));
    set("nz", std::to_string(n));
    set("x_o2", "0.21");
    set("viscosity", "0.06");
    set("d_ab", "0.08");
    set("precision", precision);
  });
}

}  // namespace

int main(int argc, char** argv) try {
  const std::optional<Options> options = parse(argc, argv);
  if (!options) return 0;
  const Options& o = *options;
  const ks::ExecutionContext cpu = ks::resolve_backend(ks::BackendRequest::Cpu);
  const ks::CudaAvailability cuda = ks::query_cuda();
  nlohmann::json result = {{"benchmark", "lbm.binary"},
                           {"machine", ks::bench::machine_description(cpu, cuda)},
                           {"bytes_per_update", {{"fp16", 216}, {"fp32", 432}, {"fp64", 864}}}};
  nlohmann::json paper = nlohmann::json::array();
  for (const PaperPoint& pp : kPaperC2070) paper.push_back({{"n", pp.n}, {"mlups", pp.mlups}});
  result["paper_c2070_fp32"] = paper;
  double bandwidth = 0.0;
#ifdef KS_HAVE_CUDA
  if (cuda.usable) bandwidth = ks::bench::measured_device_bandwidth(cuda.device);
#endif
  result["device_bandwidth_GBps"] = bandwidth / 1e9;
  std::printf("lbm.binary packed bed: MLUPS (both species per node update); CPU = %s; GPU = %s (copy bandwidth %.0f GB/s)\n",
              cpu.device_name.c_str(), cuda.usable ? cuda.device_name.c_str() : "none", bandwidth / 1e9);
  std::printf("%-10s %4s %10s %7s %9s %9s %9s %9s %9s %7s %7s %7s %7s %7s %7s %7s\n", "lattice", "prec", "links", "C2070", "CPU", "GPU",
              "GPU AA", "GPU 3k", "GPU/CPU", "BW", "fl BW", "cs BW", "bb BW", "cs %", "bb %", "bc %");
  // One row: CPU and GPU MLUPS of the lattice of p (every node counted): the fused step with its
  // bandwidth over all and over the fluid nodes, the same step in place ("AA": one population array,
  // the same bytes a step), and the paper's three kernels ("3k") with each
  // kernel's share of the step and its achieved fraction of the copy bandwidth.
  auto measure = [&](const std::string& lattice, const std::string& precision, const ks::ParamSet& p,
                     const std::shared_ptr<const LatticeGeometry>& geometry, double paper_mlups) {
    const LbmConfig c = make_config(lbm_param_table().read(p));
    const double nodes = double(c.nodes());
    long long inlet_outlet = 0;
    const long long plane = (long long)c.nx * c.ny;
    if (!c.periodic_z())
      for (long long k = 0; k < plane; ++k)
        inlet_outlet += (geometry->type[k] == kFluid) + (geometry->type[(c.nz - 1) * plane + k] == kFluid);
    nlohmann::json row = {{"lattice", lattice},
                          {"precision", precision},
                          {"nodes", nodes},
                          {"fluid_nodes", geometry->fluid_nodes},
                          {"wall_links", geometry->links.size()}};
    if (paper_mlups > 0 && c.precision == Precision::Fp32) row["paper_c2070_mlups"] = paper_mlups;
    double cpu_mlups = 0.0, gpu_mlups = 0.0, in_place_mlups = 0.0, paper_kernels_mlups = 0.0, bw = 0.0, fluid_bw = 0.0, cs_bw = 0.0,
           bb_bw = 0.0, share[3] = {0, 0, 0};
    const auto mlups = [&](LbmSolver& solver) {
      return nodes / ks::bench::seconds_per_step([&](int n) { solver.step(n); }, o.seconds_per_point) / 1e6;
    };
    if (c.nodes() <= o.cpu_max_nodes && c.precision != Precision::Fp16) {  // fp16 storage is CUDA only
      cpu_mlups = mlups(*make_cpu_solver(c, geometry));
      row["cpu_mlups"] = cpu_mlups;
    }
#ifdef KS_HAVE_CUDA
    if (cuda.usable) {
      const double real = c.precision == Precision::Fp16 ? 2.0 : (c.precision == Precision::Fp32 ? 4.0 : 8.0);  // bytes a population
      LbmConfig fused = c, in_place = c, paper_kernels = c;
      fused.gpu_step = GpuStep::Fused;
      in_place.gpu_step = GpuStep::InPlace;
      paper_kernels.gpu_step = GpuStep::Paper;
      gpu_mlups = mlups(*make_cuda_solver(fused, geometry, cuda.device));
      in_place_mlups = mlups(*make_cuda_solver(in_place, geometry, cuda.device));
      auto gpu = make_cuda_solver(paper_kernels, geometry, cuda.device);
      paper_kernels_mlups = mlups(*gpu);
      const StageTimes t = gpu->profile(20);
      const double total = t.collide_stream + t.bounce_back + t.boundary;
      bw = 108.0 * real * gpu_mlups * 1e6 / bandwidth;
      fluid_bw = bw * double(geometry->fluid_nodes) / nodes;
      cs_bw = 108.0 * real * double(geometry->fluid_nodes) / t.collide_stream / bandwidth;
      bb_bw = t.bounce_back > 0 ? (8.0 * real + 24.0) * double(geometry->links.size()) / t.bounce_back / bandwidth : 0.0;
      share[0] = t.collide_stream / total;
      share[1] = t.bounce_back / total;
      share[2] = t.boundary / total;
      row["gpu_mlups"] = gpu_mlups;
      row["gpu_paper_kernels_mlups"] = paper_kernels_mlups;
      row["gpu_in_place_mlups"] = in_place_mlups;
      row["in_place_fluid_node_bandwidth_fraction"] = fluid_bw * in_place_mlups / gpu_mlups;
      row["bandwidth_fraction"] = bw;
      row["fluid_node_bandwidth_fraction"] = fluid_bw;
      row["collide_stream_bandwidth_fraction"] = cs_bw;
      row["bounce_back_bandwidth_fraction"] = bb_bw;
      if (t.boundary > 0) row["boundary_bandwidth_fraction"] = 72.0 * real * double(inlet_outlet) / t.boundary / bandwidth;
      row["time_share"] = {{"collide_stream", share[0]}, {"bounce_back", share[1]}, {"boundary", share[2]}};
      row["seconds_per_step"] = {{"collide_stream", t.collide_stream}, {"bounce_back", t.bounce_back}, {"boundary", t.boundary}};
    }
#endif
    std::printf("%-10s %4s %10zu %7.1f %9.1f %9.1f %9.1f %9.1f %8.1fx %6.0f%% %6.0f%% %6.0f%% %6.0f%% %6.0f%% %6.0f%% %6.0f%%\n",
                lattice.c_str(), precision.c_str(), geometry->links.size(), c.precision == Precision::Fp32 ? paper_mlups : 0.0, cpu_mlups,
                gpu_mlups, in_place_mlups, paper_kernels_mlups, cpu_mlups > 0 && gpu_mlups > 0 ? gpu_mlups / cpu_mlups : 0.0, 100 * bw,
                100 * fluid_bw, 100 * cs_bw, 100 * bb_bw, 100 * share[0], 100 * share[1], 100 * share[2]);
    std::fflush(stdout);
    return row;
  };
  // The file is rewritten after every row, so a run cut short keeps what it measured.
  result["rows"] = nlohmann::json::array();
  result["periodic_box_rows"] = nlohmann::json::array();
  for (int n : o.sizes) {
    const LbmParams p64 = lbm_param_table().read(bed_params(n, "fp64"));
    const LbmConfig c64 = make_config(p64);
    const Scene scene = LbmMethod::make_scene(p64, c64);
    const auto geometry = std::make_shared<const LatticeGeometry>(build_geometry(c64, scene.shapes));
    double paper_mlups = 0.0;
    for (const PaperPoint& pp : kPaperC2070)
      if (pp.n == n) paper_mlups = pp.mlups;
    for (const char* precision : {"fp32", "fp64", "fp16"}) {
      nlohmann::json row =
          measure(std::to_string(n) + "^2x" + std::to_string(2 * n), precision, bed_params(n, precision), geometry, paper_mlups);
      row["n"] = n;
      row["spheres"] = scene.shapes.spheres.size();
      result["rows"].push_back(row);
      ks::bench::write_json(result, o.out);
    }
  }
  for (int n : o.box_sizes) {
    const LbmParams p64 = lbm_param_table().read(box_params(n, "fp64"));
    const LbmConfig c64 = make_config(p64);
    const auto geometry = std::make_shared<const LatticeGeometry>(build_geometry(c64, LbmMethod::make_scene(p64, c64).shapes));
    for (const char* precision : {"fp32", "fp64", "fp16"}) {
      nlohmann::json row = measure(std::to_string(n) + "^3 box", precision, box_params(n, precision), geometry, 0.0);
      row["n"] = n;
      result["periodic_box_rows"].push_back(row);
      ks::bench::write_json(result, o.out);
    }
  }
  return 0;
} catch (const ks::Error& e) {
  std::fprintf(stderr, "bench_lbm: %s\n", e.what());
  return e.exit_code();
}
