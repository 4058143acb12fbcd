#include "lbm_method.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/end_condition.hpp"
#include "core/constants.hpp"
#include "core/checked.hpp"
#include "core/memory_budget.hpp"
#include "core/errors.hpp"
#include "core/interruptible_steps.hpp"
#include "core/solver_choice.hpp"
#include "core/text.hpp"
#include "io/binary_io.hpp"
#include "io/checkpoint_records.hpp"
#include "lbm_diagnostics.hpp"
#include "lbm_pull_nodes.hpp"
#include "lbm_node_fields.hpp"
#include "lbm_model.hpp"
#include "lbm_regrid.hpp"
#include "lbm_params.hpp"

namespace ks::lbm {

namespace {

const char* precision_name(Precision q) { return q == Precision::Fp16 ? "fp16" : q == Precision::Fp32 ? "fp32" : "fp64"; }

}  // namespace

MethodInfo LbmMethod::describe() {
  MethodInfo info;
  info.id = "lbm.binary";
  info.title = "Entropic lattice Boltzmann, O2/N2 mixture (tube, packed bed)";
  info.paper = "elbm-binary-packed-bed-safi.txt";
  info.folder = "lbm";
  // The flow runs along z: views slice the lattice along it first (the x-z plane, normal y).
  constexpr int kAlongFlow = 1;
  info.fields = {{"rho_O2", "kg/m^3", 1, "O2 density", kAlongFlow},
                 {"rho_N2", "kg/m^3", 1, "N2 density", kAlongFlow},
                 {"X_O2", "", 1, "O2 mole fraction", kAlongFlow},
                 {"u_O2", "m/s", 3, "O2 velocity J_O2 / rho_O2", kAlongFlow},
                 {"u_N2", "m/s", 3, "N2 velocity J_N2 / rho_N2", kAlongFlow},
                 {"u", "m/s", 3, "Mixture velocity J / rho", kAlongFlow, true},
                 {"solid", "", 1, "Solid mask (1 solid, 0 fluid)", kAlongFlow},
                 {"sphere_diameter", "dx", 1, "Packed bed: a point at each sphere's centre, its diameter the value (exported as .vtp)"}};
  info.decomposition = "the lattice in slabs of z planes, one per rank; the populations crossing a slab face exchanged every step";
  info.series = {"residual", "rho_O2(z)", "rho_N2(z)", "u_z O2(z)", "u_z N2(z)", "u_z(z)", "u_z(r)", "u_z(r) Poiseuille"};
  return info;
}

Scene LbmMethod::make_scene(const LbmParams& p, const LbmConfig& c, const Interrupt& stop) {
  if (c.geometry != Geometry::PackedBed) return scene_at_level(p, c, std::nullopt);
  const int nx = p.nx, ny = p.ny, nz = p.nz;
  const Shapes tube = centred_tube(nx, ny);
  PackingSpec spec;
  spec.count = p.sphere_count;
  spec.d_min = p.d_min;
  spec.d_max = p.d_max;
  if (spec.d_max < spec.d_min)
    throw bad_input(param_key(&LbmParams::d_max), "d_max = " + format_number(spec.d_max) + " is below d_min = " + format_number(spec.d_min),
                    "d_max >= d_min");
  spec.porosity = p.porosity;
  spec.axis[0] = tube.axis[0];
  spec.axis[1] = tube.axis[1];
  spec.radius = tube.radius;
  const int open = p.open_length;
  spec.z0 = open;
  spec.z1 = nz - 1 - open;
  if (spec.z1 - spec.z0 < spec.d_max || 2.0 * tube.radius < spec.d_max)
    throw bad_input(param_key(&LbmParams::open_length),
                    "the bed section [" + format_number(spec.z0) + ", " + format_number(spec.z1) + "] of radius " +
                        format_number(tube.radius) + " cannot hold a sphere of diameter " + format_number(spec.d_max),
                    "open_length <= " + format_number(std::max(0.0, (nz - 1 - spec.d_max) / 2)));
  spec.seed = std::uint64_t(p.seed);
  return scene_at_level(p, c, pack_spheres(spec, stop));
}

Scene LbmMethod::scene_at_level(const LbmParams& p, const LbmConfig& c, std::optional<Packing> packing) {
  Scene scene;
  if (c.geometry == Geometry::Periodic) return scene;
  scene.shapes = centred_tube(p.nx, p.ny);
  if (c.geometry == Geometry::PackedBed && packing) {
    const int open = p.open_length;
    scene.shapes.spheres = packing->spheres;
    scene.bed_z[0] = open;
    scene.bed_z[1] = p.nz - 1 - open;
    scene.packing = std::move(packing);
  }
  if (p.grid_level == GridLevel::Coarse) {
    scene.shapes = coarsened(scene.shapes);
    for (double& z : scene.bed_z) z = 0.5 * (z - 0.5);
  }
  return scene;
}

namespace {

void require_precision_on_backend(const LbmConfig& c, const ExecutionContext& ctx) {
  if (ctx.backend != BackendKind::Cuda && c.precision == Precision::Fp16)
    throw bad_input(param_key(&LbmParams::precision), "fp16 (compressed storage) runs on the CUDA backend only",
                    "fp32 or fp64 on the CPU, or backend cuda");
}

// Sums over the 26 moving directions of D3Q27 of |c_i| and of |(c_ix, c_iy)|.
const double kSumSpeeds = 6.0 + 12.0 * std::sqrt(2.0) + 8.0 * std::sqrt(3.0);
const double kSumSpeedsXY = 12.0 + 12.0 * std::sqrt(2.0);

std::unique_ptr<LbmSolver> make_solver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> geometry, const Slab& slab,
                                       const ExecutionContext& ctx) {
  require_precision_on_backend(c, ctx);
  return solver_for(
      ctx, LbmMethod::static_info().id, [&] { return make_cuda_solver(c, geometry, ctx.cuda_device, slab, ranks_of(ctx)); },
      [&] { return make_cpu_solver(c, geometry, slab, ranks_of(ctx)); });
}

// This rank's slab; refuses more ranks than planes.
Slab rank_slab(const LbmConfig& c, const ExecutionContext& ctx) {
  const Communicator& comm = ranks_of(ctx);
  if (comm.size() > c.nz)
    throw bad_input(param_key(&LbmParams::nz),
                    "a lattice of " + std::to_string(c.nz) + " planes in z cannot be cut into " + std::to_string(comm.size()) + " slabs",
                    "at most " + std::to_string(c.nz) + " ranks (one z plane each at least)");
  return slab_of(c.nz, comm.rank(), comm.size());
}

}  // namespace

// A wall link runs from a fluid node to a solid one along c_i. Along c_i, lattice lines cross a plane
// normal to c_i |c_i| times per unit area, and a convex solid is entered by one link per line at most:
// a sphere of radius r takes at most sum_i |c_i| pi (r + sqrt(2)/2)^2 links (the lines meeting its
// shadow pass within the covering radius, <= sqrt(2)/2, of the disc). The tube's lateral wall takes
// sum_i |c_i,xy| 2 R nz links for a smooth wall (the lines leaving a circle of radius R); one lattice
// unit more on R covers the staircase (measured: the links are 57 % to 91 % of that for 8 <= nx, ny <= 48).
std::int64_t LbmMethod::wall_link_bound(const LbmParams& p) {
  if (p.geometry == Geometry::Periodic) return 0;
  const double h = p.grid_level == GridLevel::Coarse ? 0.5 : 1.0;  // level lattice units per fine one
  const double radius = h * centred_tube(p.nx, p.ny).radius;
  double links = kSumSpeedsXY * 2.0 * (radius + 1.0) * h * double(p.nz);
  if (p.geometry == Geometry::PackedBed) {
    const double r = 0.5 * h * std::max(p.d_min, p.d_max) + 0.5 * std::sqrt(2.0);
    links += double(p.sphere_count) * kSumSpeeds * constants::kPi * r * r;
  }
  return std::int64_t(std::ceil(links));
}

MemoryEstimate LbmMethod::estimate(const LbmParams& p, const ExecutionContext& ctx) {
  const LbmConfig c = make_config(p);
  require_precision_on_backend(c, ctx);
  const bool cuda = ctx.backend == BackendKind::Cuda;
  const std::int64_t storage = c.precision == Precision::Fp16 ? 2 : c.precision == Precision::Fp32 ? 4 : 8;
  const std::int64_t pops = std::int64_t(kSpecies) * kQ;
  std::int64_t snapshot = 0;
  for (int f = 0; f < kNodeFields; ++f) snapshot += NodeFields::components(f) * std::int64_t(sizeof(double));
  // Under MPI a rank holds its slab with two halo planes. Rank 0 gathers the moments and node types of
  // the whole lattice for a snapshot (the parts and their rearranged copy) and makes its fields,
  // unless every rank writes its own piece (field_pieces).
  const Slab slab = rank_slab(c, ctx);
  // CUDA steps with the fused kernel (in one process or on each rank's slab), whose table
  // (lbm_pull_nodes.hpp) holds a slot per node, 16 B per fluid node and a delta per link, and for the
  // fused step in FP32 and FP64 its sources (104 B per fluid node, pulls_from_sources); the paper's
  // kernels read a list of active nodes (4 B each) and the links themselves. The in-place step adds
  // 4 B per fluid node (not the sources) and holds one population array instead of two, plus a value
  // per species and solid source.
  const bool fused = cuda && gpu_step_of(c, slab) != GpuStep::Paper;
  const bool in_place = cuda && gpu_step_of(c, slab) == GpuStep::InPlace;
  const std::int64_t sources = pulls_from_sources(int(storage)) ? 4 * (kQ - 1) : 0;
  const std::int64_t table_node = fused ? 4 + 16 + (in_place ? 4 : sources) : 4;
  // Per node on the host: the populations as double twice (read_f's copy, for a grid-level switch or
  // a checkpoint, and the state save_state writes from it), the moments kept and
  // those being computed, a snapshot's fields, the node types and the solid mask they are built from;
  // on the CPU both population arrays, on CUDA one in the storage type (staging of read_f / write_f)
  // and the GPU's node table at set-up.
  std::int64_t host_node = 2 * pops * 8 + 2 * kNodeMoments * 8 + snapshot + 2;
  host_node += cuda ? pops * storage + table_node : 2 * pops * storage;
  // On the GPU: both population arrays, the moments, the node types and the node table; the fused
  // step adds a block of kStateBlockNodes of the paper's state for read_f.
  const std::int64_t device_node = (in_place ? 1 : 2) * pops * storage + kNodeMoments * 8 + 1 + table_node;
  const std::int64_t device_fixed = fused ? kStateBlockNodes * pops * storage : 0;
  // Wall links: the geometry's list and, while it is built or sorted for the GPU, a second one (and
  // the fused step's deltas as double and as Real); on the GPU the links or the deltas.
  const std::int64_t links = wall_link_bound(p), link_bytes = sizeof(WallLink);
  const std::int64_t host_link = 2 * link_bytes + (fused ? 16 : 0);
  const std::int64_t device_link = fused ? (storage == 8 ? 8 : 4) + (in_place ? kSpecies * storage : 0) : link_bytes;
  // The in-place step's values are per solid source: the links, and across the open ends those without
  // a link (at most 9 a node of the end planes).
  const std::int64_t end_sources = in_place && !c.periodic_z() ? 18 * std::int64_t(c.nx) * c.ny : 0;
  // Spheres: the packing, the scene, the geometry and the snapshot each hold the list. The packing's
  // cell list (at most 24 B per fine node for d_max >= 1) is freed before the lattice is allocated.
  const std::int64_t spheres = c.geometry == Geometry::PackedBed ? p.sphere_count : 0;
  const std::int64_t nodes = std::int64_t(c.nx) * c.ny * slab.planes();
  const bool gathers = slab.halo && ranks_of(ctx).rank() == 0 && !ctx.field_pieces;
  const std::string grid =
      "nx x ny x nz = " + std::to_string(p.nx) + " x " + std::to_string(p.ny) + " x " + std::to_string(p.nz) + ", grid_level " +
      level_name(p) + ": " + std::to_string(nodes) + " nodes" +
      (slab.halo ? " (z planes " + std::to_string(slab.begin) + " to " + std::to_string(slab.end - 1) + " on this rank, and 2 halo planes)"
                 : std::string()) +
      " (2 species x 27 populations x " + std::to_string(storage) + " B, precision " + precision_name(c.precision) + ", and more)";
  const std::string wall_links = "wall links <= " + std::to_string(links);
  MemoryBudget b("lbm.binary");
  b.host(grid, nodes, host_node)
      .host(wall_links, links, host_link)
      .host("sphere_count = " + std::to_string(spheres) + " spheres, four lists", checked_mul(spheres, 4, "4 sphere lists"), sizeof(Sphere))
      .host("the whole lattice's snapshot gathered on rank 0 (--pieces avoids it)", gathers ? c.nodes() : 0,
            2 * (kNodeMoments + 1) * 8 + snapshot);
  if (cuda) {
    b.device(grid, nodes, device_node).device(wall_links, links, device_link);
    b.device("a block of the paper's state (read_f)", device_fixed).device("the open ends' solid sources", end_sources, kSpecies * storage);
  }
  // Where the device refuses the fused step in one process, the message names the step that needs
  // less (MPI ranks run the fused step for in_place: gpu_step_of).
  if (fused && !in_place && !slab.halo) {
    LbmParams one_array = p;
    one_array.gpu_step = GpuStep::InPlace;
    b.note("gpu_step = in_place (one population array) needs about " + format_bytes(estimate(one_array, ctx).device_bytes) +
           " on the device");
  }
  return b.estimate();
}

double LbmMethod::cost(const LbmParams& p) {
  // Lattice updates: every node of the chosen grid level, steps_per_iteration times.
  return double(make_config(p).nodes()) * double(p.steps_per_iteration);
}

void LbmMethod::set_up() {
  const LbmConfig c = make_config(p_);
  const Slab slab = rank_slab(c, ctx_);
  Scene scene = make_scene(p_, c, ctx_.interrupt);  // the same packing on every rank (from the seed)
  LatticeGeometry built = build_geometry(c, scene.shapes, slab, ctx_.interrupt);
  ctx_.interrupt.report("allocating the lattice", 1.0);
  std::vector<double> counts{double(built.fluid_nodes), double(built.links.size())};  // of the whole lattice
  if (slab.halo) ranks_of(ctx_).all_sum(counts);
  built.lattice_fluid_nodes = (long long)counts[0];
  auto geometry = std::make_shared<const LatticeGeometry>(std::move(built));
  std::unique_ptr<LbmSolver> solver = make_solver(c, geometry, slab, ctx_);
  cfg_ = c;
  slab_ = slab;
  scene_ = std::move(scene);
  geometry_ = std::move(geometry);
  solver_ = std::move(solver);
  wall_links_ = std::int64_t(counts[1]);
  iteration_ = steps_ = level_start_ = 0;
  residual_step_.clear();
  residual_.clear();
  state_changed();
}

// An iteration stopped on request (ctx_.interrupt) keeps the steps it completed and ends there: its
// steps count, it adds no iteration and no residual point, and the next iteration starts afresh.
void LbmMethod::advance() {
  if (finished()) return;
  const int steps = int(std::min<std::int64_t>(p_.steps_per_iteration, p_.max_steps - steps_));
  const Interrupt& stop = ctx_.interrupt;
  const int chunk = ctx_.backend == BackendKind::Cpu ? 1 : steps;
  auto step = [&](int n) { return solver_->step(n, stop); };
  // Eq. (19)-(20) between the last two steps of the iteration.
  int done = step_until(0, steps - 1, steps, chunk, stop, step);
  const bool last = done == steps - 1 && !stop.requested();
  const double before = last ? solver_->momentum_rms() : 0.0;
  if (last) done = step_until(done, steps, steps, chunk, stop, step);
  if (done == 0) return;
  steps_ += done;
  state_changed();
  // Stopped (one process only): ended at once, its momentum and moments found when first asked.
  if (done < steps) return;
  const double now = momentum_rms();
  if (!std::isfinite(now))
    throw run_failed("lbm.binary: the momentum became " + format_number(now) + " at step " + std::to_string(steps_) +
                     "; raise the viscosity or lower the pressure drop");
  ++iteration_;
  residual_step_.push_back(double(steps_));
  residual_.push_back(before > 0.0 ? std::fabs(now / before - 1.0) : (now > 0.0 ? 1.0 : 0.0));
}

void LbmMethod::state_changed() { moments_stale_ = momentum_stale_ = true; }

// The moments of every node in doubles (and on CUDA a copy to the host): a pass over all
// populations, made when a snapshot, a file or a test asks, not every iteration.
const std::vector<double>& LbmMethod::moments() const {
  if (moments_stale_) moments_ = solver_->moments();
  moments_stale_ = false;
  return moments_;
}

double LbmMethod::momentum_rms() const {
  if (momentum_stale_) momentum_rms_ = solver_->momentum_rms();
  momentum_stale_ = false;
  return momentum_rms_;
}

bool LbmMethod::converged() const {
  const double tol = p_.tolerance;
  // Two iterations on the current lattice: a residual from before a grid-level switch does not count.
  return iteration_ > level_start_ + 1 && tol > 0.0 && residual_.back() <= tol;
}

bool LbmMethod::finished() const { return converged() || steps_ >= p_.max_steps; }

// grid_level moves the state to the other lattice; bounce_back, pressure_ratio, x_o2, viscosity and
// d_ab reconfigure the solver (steps_per_iteration, max_steps and tolerance are read where used).
void LbmMethod::on_live_change(const LbmParams& before) {
  if (p_.grid_level != before.grid_level && slab_.halo)
    throw bad_input(param_key(&LbmParams::grid_level),
                    "the grid level cannot change during a run across MPI ranks (the state would be interpolated across slabs)",
                    "the grid level it was set up with; or one process");
  if (p_.grid_level != before.grid_level) {
    switch_grid_level();
    return;
  }
  const LbmConfig c = make_config(p_);  // refuses an inadmissible Schmidt number
  cfg_ = c;
  solver_->configure(c);
}

void LbmMethod::switch_grid_level() {
  // Everything of the new level is built before the method changes: a refusal (an odd nx for the
  // coarse level, memory) leaves the run as it was. The new level's estimate is checked against what
  // is free now, with the current level still held, as both are while the state is interpolated.
  check_memory(static_info().id, estimate_memory(params_, ctx_), ctx_);
  const LbmConfig c = make_config(p_);
  Scene scene = scene_at_level(p_, c, scene_.packing);  // the same packing: no new draw
  auto geometry = std::make_shared<const LatticeGeometry>(build_geometry(c, scene.shapes));
  std::unique_ptr<LbmSolver> solver = make_solver(c, geometry, slab_of(c.nz, 0, 1), ctx_);  // one process (on_live_change)
  std::vector<double> f;
  solver->read_f(f);  // the new level's initial state, kept at interior solid nodes
  regrid_state(cfg_, *geometry_, solver_->moments(), c, *geometry, level_map(p_.grid_level), f);
  solver->write_f(f);
  cfg_ = c;
  slab_ = slab_of(c.nz, 0, 1);
  scene_ = std::move(scene);
  geometry_ = std::move(geometry);
  solver_ = std::move(solver);
  level_start_ = iteration_;  // steps, iterations and the residual history carry on
  wall_links_ = std::int64_t(geometry_->links.size());
  state_changed();
}

Progress LbmMethod::progress() const {
  Progress p;
  p.iteration = iteration_;
  p.sim_time = double(steps_);
  p.time_unit = "steps";
  p.residual = residual_.empty() ? 0.0 : residual_.back();
  const EndProgress end =
      toward_end(double(steps_) / double(p_.max_steps), "max_steps", p.residual, iteration_ > level_start_ + 1 ? p_.tolerance : 0.0);
  p.fraction_done = finished() ? 1.0 : end.fraction;
  p.end_condition = end.condition;
  p.work_done = double(steps_) * double(cfg_.nodes());
  p.work_unit = "lattice updates (both species)";
  p.converged = converged();
  return p;
}

std::size_t LbmMethod::write_display(int field, int component, void* device_dst, std::size_t capacity) const {
  if (!solver_ || field >= kNodeFields) return 0;  // "sphere_diameter" (geometry) is drawn from the host
  return solver_->write_display_field(field, component, density_si(1.0), velocity_si(1.0), device_dst, capacity);
}

void LbmMethod::save_body(std::ostream& out) const {
  bin::write<std::int64_t>(out, iteration_);
  bin::write<std::int64_t>(out, steps_);
  bin::write_vector(out, residual_step_);
  bin::write_vector(out, residual_);
  std::vector<double> f;
  solver_->read_f(f);
  bin::write_vector(out, f);
}

void LbmMethod::load_body(std::istream& in) {
  // Read and check everything first: a refused state leaves the method as it was.
  const auto iteration = bin::read<std::int64_t>(in);
  const auto steps = bin::read<std::int64_t>(in);
  // Every iteration runs at least one step and adds one point to the residual history (advance).
  if (iteration < 0 || steps < iteration)
    throw bad_input("checkpoint",
                    "the lbm.binary state has " + std::to_string(iteration) + " iterations of " + std::to_string(steps) + " steps",
                    "0 <= iterations <= steps");
  History residuals = read_history(
      in, iteration, "lbm.binary", "residual history", "step",
      [steps](std::size_t, double step, double r) { return step >= 1.0 && step <= double(steps) && std::isfinite(r) && r >= 0.0; },
      [steps](std::size_t) { return "a step in [1, " + std::to_string(steps) + "] and a finite residual >= 0"; });
  // This rank's owned planes (the whole lattice in one process).
  const std::uint64_t expected =
      std::uint64_t(kSpecies) * kQ * std::uint64_t(cfg_.nx) * std::uint64_t(cfg_.ny) * std::uint64_t(slab_.owned());
  const std::vector<double> f = read_values(
      in, expected, "lbm.binary", "populations", std::to_string(expected),
      "a checkpoint written with the same lattice (nx, ny, nz, grid_level) on as many ranks", [](double v) { return std::isfinite(v); },
      "finite populations");
  solver_->write_f(f);
  iteration_ = iteration;
  steps_ = steps;
  level_start_ = 0;  // not in the state: a restart counts its residual history as on this level
  residual_step_ = std::move(residuals.x);
  residual_ = std::move(residuals.y);
  state_changed();
}

}  // namespace ks::lbm
