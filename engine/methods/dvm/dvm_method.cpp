#include "dvm_method.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "core/end_condition.hpp"
#include "core/ceil_div.hpp"
#include "core/checked.hpp"
#include "core/memory_budget.hpp"
#include "core/errors.hpp"
#include "core/solver_choice.hpp"
#include "core/text.hpp"
#include "dvm_cases.hpp"
#include "dvm_fields.hpp"
#include "io/binary_io.hpp"
#include "io/checkpoint_records.hpp"
#include "dvm_params.hpp"

namespace ks::dvm {

MethodInfo DvmMethod::describe() {
  MethodInfo info;
  info.id = "kinetic.dvm";
  info.title = "Shakhov-model discrete velocity method (3D cavity, cube)";
  info.paper = "dvm-shakhov-iterative-zhu.txt";
  info.folder = "dvm";
  info.fields = {{"n", "n_ref", 1, "Number density"},    {"U", "v_m", 3, "Bulk velocity"},
                 {"T", "T_ref", 1, "Temperature"},       {"p", "n_ref m v_m^2", 1, "Pressure n T / 2"},
                 {"q", "n_ref m v_m^3", 3, "Heat flux"}, {"P_xy", "n_ref m v_m^2", 1, "Shear stress"}};
  info.series = {"residual",
                 "Ux/U on the vertical centreline",
                 "Uy/U on the horizontal centreline",
                 "T on the vertical centreline",
                 "T on the stagnation line",
                 "n on the stagnation line",
                 "Ux(y)",
                 "Ux(y) free-molecular",
                 "Ux(y) Navier-Stokes slip"};
  info.decomposition =
      "the discrete velocities in blocks of sweep batches, one block per rank; moments and wall fluxes summed every iteration";
  return info;
}

// What setup() and an iteration allocate, counted from the parameters without make_config (the
// cube's stretched axes take seconds to build at nx = 4096; setup refuses what cannot run):
//  per cell, on the host: the geometry (solid flag, six links, volume), the raw sums and f^S
//  parameters (raw_, state_), a sweep's new raw sums and a snapshot's fields (cell_fields and
//  grid_field's copy, 10 values each); on the device: the flag, the links, f^S and the raw sums;
//  per wall face: Face and its type, rho_w, its emission and incident flux (type, rho_w, flux on
//  the device); the velocity table (the method's, and the CPU solver's or the device's copy), the
//  batches and the residual history up to max_iterations; the two slices of f of a batch, and on the
//  CPU each thread's moment sums of a slice. The device figures of the README's table are these
//  terms (the slices about 94 % of 64^3 x 64^3).
MemoryEstimate DvmMethod::estimate(const DvmParams& p, const ExecutionContext& ctx) {
  const bool couette = p.problem == Case::Couette, cuda = ctx.backend == BackendKind::Cuda;
  const std::int64_t nx = couette ? 1 : p.nx, ny = p.ny, nz = couette ? 1 : p.nz;
  const std::int64_t cells = checked_product({nx, ny, nz}, "nx * ny * nz cells");
  const std::int64_t slice = checked_mul(nx, ny, "nx * ny cells of a slice");
  // Diffuse-wall faces: the cavity's six walls, the cube's body_cells^3 solid cells (its box is free
  // stream), the two Couette plates of one cell each.
  const std::int64_t body = p.problem == Case::Cube ? p.body_cells : 0;
  const std::int64_t box = checked_add(checked_add(slice, checked_mul(ny, nz, "ny * nz"), "cavity wall faces"),
                                       checked_mul(nx, nz, "nx * nz"), "cavity wall faces");
  const std::int64_t faces = p.problem == Case::Cavity ? checked_mul(2, box, "cavity wall faces")
                             : p.problem == Case::Cube ? checked_product({6, body, body}, "6 body_cells^2 cube faces")
                                                       : 2;
  const std::int64_t nv = p.nv, half = nv / 2;
  const std::int64_t velocities = checked_product({nv, nv, nv}, "nv^3 velocities");
  const std::int64_t octant = checked_product({half, half, half}, "(nv / 2)^3 velocities of an octant");
  const std::int64_t batch_key = p.batch, batch = std::max<std::int64_t>(batch_key > 0 && batch_key < octant ? batch_key : octant, 1);
  const std::int64_t f_bytes = p.single ? 4 : 8;
  const std::int64_t slice_values = checked_product({2, slice, batch}, "2 slices x nx * ny cells x batch velocities");

  constexpr std::int64_t raw_cell = kRaw * sizeof(double), links_cell = 1 + 6 * sizeof(int);  // and the solid flag
  constexpr std::int64_t host_cell =
      links_cell + sizeof(double) + 2 * raw_cell + sizeof(CellState) + 2 * CellValues::kCount * sizeof(double);
  constexpr std::int64_t device_cell = links_cell + raw_cell + sizeof(CellState);
  constexpr std::int64_t host_face = sizeof(Face) + sizeof(int) + 3 * sizeof(double), device_face = sizeof(int) + 2 * sizeof(double);
  const std::string grid = "nx x ny x nz = " + std::to_string(nx) + " x " + std::to_string(ny) + " x " + std::to_string(nz) + " cells";
  const std::string wall_faces = std::to_string(faces) + " wall faces";
  const std::string table = "nv^3 = " + std::to_string(nv) + "^3 velocities";
  const std::string slices = "two slices of nx * ny = " + std::to_string(slice) + " cells x batch = " + std::to_string(batch) +
                             " velocities (precision " + (p.single ? "fp32" : "fp64") + ")";
  MemoryBudget b("kinetic.dvm");
  b.host(grid, cells, host_cell)
      .host(wall_faces, faces, host_face)
      .host(table, velocities, sizeof(Velocity))
      .host("the velocity batches", 8 * ceil_div(octant, batch), sizeof(Batch))
      .host("max_iterations = " + std::to_string(p.max_iterations) + " residuals", p.max_iterations, 2 * sizeof(double));
  if (cuda) {
    b.device(grid, cells, device_cell).device(wall_faces, faces, device_face).device(slices, slice_values, f_bytes);
    b.device(table, velocities, sizeof(Velocity));
    // Across CUDA ranks the sums are added device to device (core/device_sum): a copy of them that
    // the other ranks read, and the total.
    if (ranks_of(ctx).size() > 1)
      b.device("the moment sums across ranks (a copy the others read, and the total)", cells, 2 * raw_cell)
          .device("the wall fluxes across ranks, likewise", faces, 2 * sizeof(double));
  } else {
    const std::int64_t threads = std::max<std::int64_t>(ctx.cpu_threads, 1);
    b.host(slices, slice_values, f_bytes).host(table + " (the solver's copy)", velocities, sizeof(Velocity));
    b.host(std::to_string(threads) + " threads' moment sums of a slice", checked_mul(threads, slice, "threads x nx * ny cells"), raw_cell);
  }
  return b.estimate();
}

double DvmMethod::cost(const DvmParams& p) {
  // Phase-space point updates of one sweep: the cells x nv^3 velocities.
  const bool couette = p.problem == Case::Couette;
  const double cells = (couette ? 1.0 : double(p.nx) * double(p.nz)) * double(p.ny);
  return cells * std::pow(double(p.nv), 3);
}

void DvmMethod::set_up() {
  DvmConfig c = make_config(p_);
  const Communicator& comm = ranks_of(ctx_);
  c.rank = comm.rank();
  c.ranks = comm.size();
  if (const std::size_t batches = make_batches(c).size(); std::int64_t(batches) < comm.size())
    throw bad_input(param_key(&DvmParams::batch),
                    std::to_string(batches) + " velocity batches cannot be shared by " + std::to_string(comm.size()) + " ranks",
                    "a batch of at most " + std::to_string(c.vg.count() / comm.size()) + " velocities (at least one batch per rank)");
  auto geo = std::make_shared<const Geometry>(make_geometry(c));
  std::unique_ptr<DvmSolver> solver = solver_for(
      ctx_, info().id, [&] { return make_cuda_solver(c, geo, ctx_.cuda_device); }, [&] { return make_cpu_solver(c, geo, ctx_.interrupt); });
  cfg_ = c;
  geo_ = std::move(geo);
  solver_ = std::move(solver);
  velocities_ = velocity_table(cfg_.vg);
  iteration_ = 0;
  residual_it_.clear();
  residual_.clear();
  mass_defect_ = 0.0;
  // The initial iterate: the uniform gas (the free stream for the cube), q = 0 (section 2.2).
  const long long cells = cfg_.cells();
  raw_.assign(cells * kRaw, 0.0);
  const double n = cfg_.initial_n, T = cfg_.initial_T, *U = cfg_.initial_U;
  const double U2 = U[0] * U[0] + U[1] * U[1] + U[2] * U[2];
  for (long long k = 0; k < cells; ++k) {
    if (geo_->solid[k]) continue;
    double* s = &raw_[k * kRaw];
    s[kS0] = n;
    for (int a = 0; a < 3; ++a) {
      s[kSx + a] = n * U[a];
      s[kSxx + a] = n * (U[a] * U[a] + 0.5 * T);
      s[kQx + a] = n * U[a] * (U2 + 2.5 * T);
    }
    s[kSxy] = n * U[0] * U[1];
    s[kSxz] = n * U[0] * U[2];
    s[kSyz] = n * U[1] * U[2];
  }
  solver_->set_display_sums(raw_);
  display_scale_ = 1.0;
  apply_boundaries();
  // Wall densities from the initial gas's flux into each wall (eq. 9).
  face_rho_.resize(geo_->faces.size());
  double incident[6];
  for (int side = 0; side < 6; ++side) incident[side] = incident_flux(velocities_, side, n, U, T);
  for (std::size_t f = 0; f < face_rho_.size(); ++f) face_rho_[f] = incident[geo_->faces[f].side] / emission_[f];
  mass0_ = total_mass();
}

void DvmMethod::apply_boundaries() {
  apply_live_keys(p_, cfg_);
  walls_ = wall_table(cfg_);
  double table[6][kMaxWallTypes] = {};
  for (int side = 0; side < 6; ++side)
    for (int t = 0; t < walls_.count; ++t) table[side][t] = unit_emission(velocities_, walls_, side, t);
  emission_.resize(geo_->faces.size());
  for (std::size_t f = 0; f < emission_.size(); ++f) emission_[f] = table[geo_->faces[f].side][geo_->faces[f].type];
  rebuild_state();
}

void DvmMethod::rebuild_state() {
  const double mu_ref = reference_viscosity(cfg_.kn, cfg_.omega);
  const long long cells = cfg_.cells();
  state_.assign(cells, CellState{});
  for (long long k = 0; k < cells; ++k)
    if (!geo_->solid[k]) state_[k] = cell_state(macro_from_raw(&raw_[k * kRaw]), mu_ref, cfg_.omega, cfg_.prandtl);
}

double DvmMethod::total_mass() const {
  double m = 0.0;
  for (long long k = 0; k < cfg_.cells(); ++k) m += raw_[k * kRaw + kS0] * geo_->volume[k];
  return m;
}

void DvmMethod::advance() {
  if (finished()) return;
  SweepOutput out;
  // A sweep stopped on request (ctx_.interrupt) is dropped: the state stays the last iteration's, and
  // the next advance() sweeps it again.
  // Under MPI each rank sweeps its batches and `out` holds the sums over all of them.
  if (!solver_->sweep({&state_, &face_rho_, walls_, &ranks_of(ctx_)}, out, ctx_.interrupt)) return;
  const long long cells = cfg_.cells();
  for (long long k = 0; k < cells; ++k) {
    const double n = out.raw[k * kRaw + kS0];
    if (!geo_->solid[k] && !(std::isfinite(n) && n > 0.0))
      throw run_failed("kinetic.dvm: density " + std::to_string(n) + " in cell " + std::to_string(k) + " after iteration " +
                       std::to_string(iteration_ + 1) + "; the velocity box may be too small for the flow");
  }
  double mass = 0.0;
  for (long long k = 0; k < cells; ++k) mass += out.raw[k * kRaw + kS0] * geo_->volume[k];
  mass_defect_ = mass / mass0_ - 1.0;
  if (cfg_.closed()) {
    // Eq. (9) uses the previous iterate's incident flux, so a closed domain's mass drifts slightly:
    // rescale the whole field to the initial mass (section 3.4).
    const double s = mass0_ / mass;
    for (double& x : out.raw) x *= s;
    for (double& x : out.face_influx) x *= s;
    display_scale_ = s;
  } else {
    display_scale_ = 1.0;
  }
  const double r = relative_change(raw_, out.raw);
  raw_ = std::move(out.raw);
  for (std::size_t f = 0; f < face_rho_.size(); ++f) face_rho_[f] = out.face_influx[f] / emission_[f];
  rebuild_state();
  ++iteration_;
  residual_it_.push_back(double(iteration_));
  residual_.push_back(r);
}

bool DvmMethod::converged() const {
  const double tol = p_.tolerance;
  return iteration_ > 1 && tol > 0.0 && residual_.back() < tol;
}

bool DvmMethod::finished() const { return converged() || iteration_ >= p_.max_iterations; }

// kn reaches the next sweep through the relaxation rate of f^S (rebuild_state); lid_speed, mach and
// wall_temperature through the walls (tolerance and max_iterations are read where used).
void DvmMethod::on_live_change(const DvmParams& before) {
  if (p_.kn != before.kn) {
    apply_live_keys(p_, cfg_);
    rebuild_state();
  } else {
    apply_boundaries();
  }
}

Progress DvmMethod::progress() const {
  Progress p;
  p.iteration = iteration_;
  p.sim_time = double(iteration_);
  p.time_unit = "iterations";
  p.residual = residual_.empty() ? 0.0 : residual_.back();
  const EndProgress end =
      toward_end(double(iteration_) / double(p_.max_iterations), "max_iterations", p.residual, iteration_ > 1 ? p_.tolerance : 0.0);
  p.fraction_done = finished() ? 1.0 : end.fraction;
  p.end_condition = end.condition;
  p.work_done = double(iteration_) * double(cfg_.cells()) * double(cfg_.vg.count());
  p.work_unit = "phase-space point updates";
  p.converged = converged();
  return p;
}

std::size_t DvmMethod::write_display(int field, int component, void* device_dst, std::size_t capacity) const {
  return !solver_ ? 0 : solver_->write_display_field(field, component, display_scale_, device_dst, capacity);
}

Snapshot DvmMethod::snapshot() const { return snapshot(false); }

// A stretched grid at its own cells, for files; the views' snapshot() resamples it.
std::optional<Snapshot> DvmMethod::file_snapshot() const {
  if (uniform_grid(cfg_)) return std::nullopt;
  return snapshot(true);
}

Snapshot DvmMethod::snapshot(bool native) const {
  Snapshot snap;
  snap.progress = progress();
  const CellFields f = cell_fields(raw_, geo_->solid);
  const auto& desc = static_info().fields;
  snap.fields = {grid_field(cfg_, desc[kFieldN], f.n, native), grid_field(cfg_, desc[kFieldU], f.U, native),
                 grid_field(cfg_, desc[kFieldT], f.T, native), grid_field(cfg_, desc[kFieldP], f.p, native),
                 grid_field(cfg_, desc[kFieldQ], f.q, native), grid_field(cfg_, desc[kFieldPxy], f.Pxy, native)};
  snap.series.push_back({"residual", "iteration", "relative L2 change of n, nU, nE", residual_it_, residual_, {}});
  nlohmann::json d = {{"iterations", iteration_},
                      {"mass", total_mass()},
                      {"mass_defect", mass_defect_},
                      {"phase_points", double(cfg_.cells()) * double(cfg_.vg.count())},
                      {"batch_velocities", cfg_.batch_size()},
                      {"slice_bytes", cfg_.slice_bytes()},
                      {"solver_bytes", double(solver_->bytes())},
                      {"full_f_bytes", double(cfg_.f_bytes()) * double(cfg_.cells()) * double(cfg_.vg.count())}};
  if (cfg_.kind == Case::Cavity) {
    const double U = cfg_.walls[1].U[0] > 0.0 ? cfg_.walls[1].U[0] : 1.0;
    const double mid[3] = {0.5, 0.5, 0.5};
    Series ux = line_profile(cfg_, f.U, 3, 0, 1, mid, 1.0 / U), uy = line_profile(cfg_, f.U, 3, 1, 0, mid, 1.0 / U);
    Series T = line_profile(cfg_, f.T, 1, 0, 1, mid, 1.0);
    ux.name = "Ux/U on the vertical centreline", ux.x_label = "y / L", ux.y_label = "Ux / U_w";
    uy.name = "Uy/U on the horizontal centreline", uy.x_label = "x / L", uy.y_label = "Uy / U_w";
    T.name = "T on the vertical centreline", T.x_label = "y / L", T.y_label = "T / T_ref";
    snap.series.insert(snap.series.end(), {ux, uy, T});
  } else if (cfg_.kind == Case::Cube) {
    const double axis[3] = {0.0, 0.0, 0.0};
    Series T = line_profile(cfg_, f.T, 1, 0, 0, axis, 1.0), n = line_profile(cfg_, f.n, 1, 0, 0, axis, 1.0);
    T.name = "T on the stagnation line", T.x_label = "x / L", T.y_label = "T / T_inf";
    n.name = "n on the stagnation line", n.x_label = "x / L", n.y_label = "n / n_inf";
    snap.series.insert(snap.series.end(), {T, n});
    d["free_stream_speed"] = cfg_.initial_U[0];
  } else {
    const CouetteReference ref = couette_reference(cfg_, cfg_.kn);
    const double x[3] = {0.5, 0.5, 0.5};
    Series u = line_profile(cfg_, f.U, 3, 0, 1, x, 1.0);
    u.name = "Ux(y)", u.x_label = "y / L", u.y_label = "Ux / v_m";
    Series fm{"Ux(y) free-molecular", u.x_label, u.y_label, {0.0, 1.0}, {ref.fm_velocity, ref.fm_velocity}, {}};
    const double u0 = 0.5 * (cfg_.walls[0].U[0] + cfg_.walls[1].U[0]);
    Series ns{"Ux(y) Navier-Stokes slip", u.x_label, u.y_label, {0.0, 1.0}, {u0 - 0.5 * ref.slip_slope, u0 + 0.5 * ref.slip_slope}, {}};
    snap.series.insert(snap.series.end(), {u, fm, ns});
    double shear = 0.0;
    for (double s : f.Pxy) shear += s / double(f.Pxy.size());
    d["shear_stress"] = shear;
    d["shear_free_molecular"] = ref.fm_shear;
    d["shear_navier_stokes_slip"] = ref.slip_shear;
  }
  snap.diagnostics = d;
  return snap;
}

void DvmMethod::save_body(std::ostream& out) const {
  bin::write<std::int64_t>(out, iteration_);
  bin::write<double>(out, mass0_);
  bin::write<double>(out, mass_defect_);
  bin::write_vector(out, residual_it_);
  bin::write_vector(out, residual_);
  bin::write_vector(out, raw_);
  bin::write_vector(out, face_rho_);
}

void DvmMethod::load_body(std::istream& in) {
  // Read and check everything first: a refused state leaves the method as it was.
  const auto iteration = bin::read<std::int64_t>(in);
  const double mass0 = bin::read<double>(in), defect = bin::read<double>(in);
  if (iteration < 0)
    throw bad_input("checkpoint", "the kinetic.dvm state has " + std::to_string(iteration) + " iterations", "a count >= 0");
  // The initial mass divides every later mass (the rescaling, the defect); the defect is mass / mass0 - 1.
  if (!(std::isfinite(mass0) && mass0 > 0.0 && std::isfinite(defect) && defect >= -1.0))
    throw bad_input(
        "checkpoint",
        "the kinetic.dvm state has an initial mass of " + format_number(mass0) + " and a mass defect of " + format_number(defect),
        "a finite initial mass > 0 and a finite defect >= -1");
  // advance() adds one point (its iteration number, the relative change) per iteration.
  History residuals = read_history(
      in, iteration, "kinetic.dvm", "residual history", "iteration",
      [](std::size_t k, double it, double r) { return it == double(k + 1) && std::isfinite(r) && r >= 0.0; },
      [](std::size_t k) { return "iteration " + std::to_string(k + 1) + " and a finite change >= 0"; });
  const std::uint64_t raw_count = std::uint64_t(cfg_.cells()) * kRaw, faces = geo_->faces.size();
  auto raw = read_values(
      in, raw_count, "kinetic.dvm", "raw sums", std::to_string(cfg_.cells()) + " cells x " + std::to_string(int(kRaw)),
      "a checkpoint written with the same case and grid", [](double v) { return std::isfinite(v); }, "finite sums");
  auto rho = read_values(
      in, faces, "kinetic.dvm", "wall faces", std::to_string(faces), "a checkpoint written with the same case and grid",
      [](double r) { return std::isfinite(r) && r >= 0.0; }, "a finite wall density >= 0");
  // f^S of the next sweep needs n > 0 and T > 0 in every gas cell (rebuild_state).
  for (long long k = 0; k < cfg_.cells(); ++k) {
    const Macro m = macro_from_raw(&raw[k * kRaw]);
    if (!geo_->solid[k] && !(m.n > 0.0 && m.T > 0.0 && std::isfinite(m.T)))
      throw bad_input(
          "checkpoint",
          "cell " + std::to_string(k) + " of the kinetic.dvm state has n = " + format_number(m.n) + ", T = " + format_number(m.T),
          "finite sums with n > 0 and T > 0 in every gas cell");
  }
  solver_->set_display_sums(raw);
  iteration_ = iteration;
  mass0_ = mass0;
  mass_defect_ = defect;
  residual_it_ = std::move(residuals.x);
  residual_ = std::move(residuals.y);
  raw_ = std::move(raw);
  display_scale_ = 1.0;
  face_rho_ = std::move(rho);
  rebuild_state();
}

}  // namespace ks::dvm
