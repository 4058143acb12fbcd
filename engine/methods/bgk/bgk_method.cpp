#include "bgk_method.hpp"

#include <algorithm>
#include <cmath>

#include "bgk_cavity_tiles.hpp"
#include "bgk_diagnostics.hpp"
#include "bgk_model.hpp"
#include "bgk_params.hpp"
#include "bgk_strip.hpp"
#include "core/end_condition.hpp"
#include "core/checked.hpp"
#include "core/memory_budget.hpp"
#include "core/column_blocks.hpp"
#include "core/errors.hpp"
#include "core/interruptible_steps.hpp"
#include "core/solver_choice.hpp"
#include "io/binary_io.hpp"
#include "io/checkpoint_records.hpp"

namespace ks::bgk {

namespace {

// Paper's Table 1 (D, G) for the cavity at the rarefaction parameters it lists.
struct TableRow {
  double delta, D, G;
};
constexpr TableRow kTable1[] = {{0.1, 0.675, 0.0975}, {1.0, 0.624, 0.103}, {10.0, 0.393, 0.143}};

}  // namespace

MethodInfo BgkMethod::describe() {
  MethodInfo info;
  info.id = "kinetic.bgk";
  info.title = "Explicit BGK kinetic solver (shock, driven cavity)";
  info.paper = "bgk-kinetic-frezzotti.txt";
  info.folder = "bgk";
  info.decomposition =
      "the grid in strips (columns along x for the shock, rows for the cavity), one per rank; halos as wide as the upwind "
      "stencil exchanged every step, cell moments gathered every iteration";
  info.fields = {{"n", "n_ref", 1, "Number density"},
                 {"V", "v_ref", 3, "Bulk velocity"},
                 {"T", "T_ref", 1, "Temperature"},
                 {"P_xy", "p_ref", 1, "Shear stress"},
                 {"q", "p_ref v_ref", 2, "Heat flux (x, y)"},
                 {"f(x, vx)", "n_ref / v_ref", 1, "Reduced distribution sum over vy, vz of f, in the middle row"}};
  info.series = {"residual",
                 "n(x)",
                 "V(x)",
                 "T(x)",
                 "n(x) Rankine-Hugoniot",
                 "V(x) Rankine-Hugoniot",
                 "T(x) Rankine-Hugoniot",
                 "Vx/U on x = delta/2",
                 "Vy/U through the vortex",
                 "D(t)"};
  return info;
}

// Host and device bytes of what setup() and an iteration allocate, per backend:
//  CPU host: f^n and f^{n+1} (8 B per phase-space cell each) and per cell the relaxation data.
//  CUDA host: one copy of f (the initial distribution setup uploads, the copy save_state reads back).
//  CUDA device: f^n and f^{n+1}, per cell the relaxation data, the raw sums of raw_moments() and the
//  fused step's moment sums per v_x slice (5 nv doubles; the cavity up to kMaxTileParts per slice).
//  Both hosts, per cell: own_ and a step's new sums (kRawMoments doubles each) and the two
//  CellFields of the residual (n, V (3), T, P_xy, q (2): 8 doubles each), the peak of advance().
// The boundary Maxwellians (4 nv^3) and the wall densities (per row and column) are left out.
MemoryEstimate BgkMethod::estimate(const BgkParams& p, const ExecutionContext& ctx) {
  const bool cuda = ctx.backend == BackendKind::Cuda;
  std::int64_t nx = p.nx, ny = p.problem == Case::Cavity ? p.ny : 1;
  const std::int64_t nv = p.nv;
  // Under MPI a rank holds its strip and halos (bgk_strip.hpp); every rank gathers the cell moments.
  std::int64_t gathered = 0;
  if (const Communicator& comm = ranks_of(ctx); comm.size() > 1) {
    const BgkConfig c = make_config(p);
    const Strip s = strip_of(c, comm.rank(), comm.size());
    gathered = checked_mul(nx, ny, "kinetic.bgk gathered cells");
    (s.rows ? ny : nx) = s.held();
  }
  const std::int64_t cells = checked_mul(nx, ny, "nx * ny cells");
  const std::int64_t velocities = checked_product({nv, nv, nv}, "nv^3 velocities");
  const std::int64_t f_values = checked_mul(cells, velocities, "nx * ny cells x nv^3 velocities");
  constexpr std::int64_t kCellFieldValues = 8;
  constexpr std::int64_t host_cell = (2 * kRawMoments + 2 * kCellFieldValues) * sizeof(double);
  constexpr std::int64_t relax_cell = sizeof(CellRelaxation);
  const std::int64_t parts = p.problem == Case::Cavity ? kMaxTileParts : 1;
  const std::int64_t slice_sums = checked_product({5, nv, parts, std::int64_t(sizeof(double))}, "5 nv moment sums x 8 B");
  const std::int64_t device_cell = checked_add(relax_cell + kRawMoments * sizeof(double), slice_sums, "kinetic.bgk device bytes per cell");
  const std::string grid =
      "nx x ny = " + std::to_string(nx) + " x " + std::to_string(ny) + (gathered ? " cells on this rank (its strip and halos)" : " cells");
  const std::string f = grid + " x nv^3 = " + std::to_string(nv) + "^3 velocities";
  MemoryBudget b("kinetic.bgk");
  b.host(f + (cuda ? " (f)" : " x 2 copies of f"), checked_mul(cuda ? 1 : 2, f_values, "two copies of f"), sizeof(double))
      .host(grid + "' moments and fields", cells, host_cell + (cuda ? 0 : relax_cell))
      .host("the whole grid's gathered moments", gathered, 2 * kRawMoments * sizeof(double));
  if (cuda) b.device(f + " x 2 copies of f", checked_mul(2, f_values, "two copies of f"), sizeof(double)).device(grid, cells, device_cell);
  return b.estimate();
}

double BgkMethod::cost(const BgkParams& p) {
  // Phase-space cell updates: nx x ny cells x nv^3 velocities, steps_per_iteration times.
  const double ny = p.problem == Case::Cavity ? p.ny : 1;
  return double(p.nx) * ny * std::pow(double(p.nv), 3) * double(p.steps_per_iteration);
}

void BgkMethod::set_up() {
  const BgkConfig c = make_config(p_);
  const Communicator& comm = ranks_of(ctx_);
  const Strip strip = strip_of(c, comm.rank(), comm.size());
  const BgkConfig held = comm.size() > 1 ? held_config(c, strip) : c;
  // Everything is built before the method changes: a refusal or a stop request keeps the last set-up.
  std::unique_ptr<BgkSolver> solver = solver_for(
      ctx_, info().id, [&] { return make_cuda_solver(held, ctx_.cuda_device); }, [&] { return make_cpu_solver(held, ctx_.interrupt); });
  if (comm.size() > 1) solver = make_strip_solver(std::move(solver), c, strip, comm);
  solver->set_variant(p_.variant);
  ctx_.interrupt.report("moments of the initial state", 1.0);
  std::vector<double> own = solver->raw_moments(ctx_.interrupt);
  cfg_ = c;
  strip_ = strip;
  bounds_ = make_boundaries(c);
  solver_ = std::move(solver);
  iteration_ = steps_ = 0;
  time_ = 0.0;
  residual_t_.clear();
  residual_.clear();
  drag_t_.clear();
  drag_.clear();
  own_ = std::move(own);
  own_stale_ = false;
}

const std::vector<double>& BgkMethod::own() const {
  if (own_stale_) own_ = solver_->raw_moments();
  own_stale_ = false;
  return own_;
}

std::vector<double> BgkMethod::whole_raw_moments() const {
  std::vector<double> raw = own();
  const Communicator& comm = ranks_of(ctx_);
  if (comm.size() == 1) return raw;
  return join_column_blocks(comm.all_gather(raw), kRawMoments, owned_cells_of_ranks(cfg_, comm.size()), cfg_.cells());
}

std::vector<double> BgkMethod::whole_row(int k) const {
  std::vector<double> part = solver_->row(k);
  const Communicator& comm = ranks_of(ctx_);
  if (comm.size() == 1) return part;
  const std::vector<double> parts = comm.gather(part);  // whole rows: only the owner's part is not empty
  if (comm.rank() != 0 || strip_.rows) return parts;
  return join_column_blocks(parts, cfg_.vg.count(), owned_cells_of_ranks(cfg_, comm.size()), cfg_.nx);  // columns (1D)
}

void BgkMethod::apply_config(const BgkConfig& c) {
  BoundaryData b = make_boundaries(c);
  solver_->configure(c);  // may refuse (a Courant number beyond the ranks' halos): nothing changed then
  cfg_ = c;
  bounds_ = std::move(b);
}

double BgkMethod::mass_of(const std::vector<double>& raw) const {
  const long long cells = (long long)(raw.size() / kRawMoments);
  double m = 0.0;
  for (long long k = 0; k < cells; ++k) m += raw[k];
  return m * cfg_.dx * (cfg_.kind == Case::Cavity ? cfg_.dy : 1.0);
}

void BgkMethod::advance() {
  if (finished()) return;
  const double t_end = p_.t_end;
  const int steps = int(std::clamp<double>(std::ceil((t_end - time_) / cfg_.dt - 1e-9), 1.0, double(p_.steps_per_iteration)));
  const std::vector<double> before = own();
  const double t0 = time_;
  // An iteration stopped on request (ctx_.interrupt) keeps its completed steps and ends there without
  // a residual or drag point; the next one starts afresh.
  const Interrupt& stop = ctx_.interrupt;
  const int chunk = ctx_.backend == BackendKind::Cpu ? 1 : steps;
  const int done = step_until(0, steps, steps, chunk, stop, [&](int n) { return solver_->step(n, stop); });
  if (done == 0) return;
  steps_ += done;
  time_ += done * cfg_.dt;
  // Stopped (one process only): ended at once; the moments are made when first asked.
  if (done < steps) {
    own_stale_ = true;
    return;
  }
  own_ = solver_->raw_moments();
  // Every rank stops at the first cell of the grid whose density is not finite and positive.
  const Communicator& comm = ranks_of(ctx_);
  const long long cells = (long long)(own_.size() / kRawMoments), first = strip_.owned_in_whole().begin;
  std::int64_t bad = 0;
  for (long long k = 0; k < cells && !bad; ++k)
    if (!std::isfinite(own_[k]) || own_[k] <= 0.0) bad = cfg_.cells() - (first + k);  // the largest is the first
  if ((bad = comm.all_max(bad)) > 0) {
    const long long cell = cfg_.cells() - bad;
    throw run_failed("kinetic.bgk: density not finite and positive in cell " + std::to_string(cell) + " at t = " + std::to_string(time_) +
                     "; reduce dt or enlarge the velocity box");
  }
  ++iteration_;
  residual_t_.push_back(time_);
  residual_.push_back(residual_since(before, time_ - t0));
  if (cfg_.kind == Case::Cavity) {
    drag_t_.push_back(time_);
    drag_.push_back(lid_drag_now());
  }
}

double BgkMethod::residual_since(const std::vector<double>& before, double dt) const {
  // The largest relative L2 change of n, V, T per unit time.
  const long long cells = (long long)(own_.size() / kRawMoments), unit = strip_.unit;
  const CellFields a = cell_fields(before, cells), b = cell_fields(own_, cells);
  enum { kDn, kNn, kDv, kNv, kDT, kNT, kSums };
  std::vector<double> sums(std::size_t(cells / unit) * kSums, 0.0);  // per row (column)
  for (long long k = 0; k < cells; ++k) {
    double* s = &sums[std::size_t(k / unit) * kSums];
    s[kDn] += (b.n[k] - a.n[k]) * (b.n[k] - a.n[k]);
    s[kNn] += b.n[k] * b.n[k];
    for (auto [p, q] : {std::pair{&a.Vx, &b.Vx}, {&a.Vy, &b.Vy}, {&a.Vz, &b.Vz}}) {
      s[kDv] += ((*q)[k] - (*p)[k]) * ((*q)[k] - (*p)[k]);
      s[kNv] += (*q)[k] * (*q)[k];
    }
    s[kDT] += (b.T[k] - a.T[k]) * (b.T[k] - a.T[k]);
    s[kNT] += b.T[k] * b.T[k];
  }
  const Communicator& comm = ranks_of(ctx_);
  if (comm.size() > 1) sums = comm.all_gather(sums);  // rank order is row (column) order
  double t[kSums] = {};
  for (std::size_t r = 0; r < sums.size(); r += kSums)
    for (int q = 0; q < kSums; ++q) t[q] += sums[r + q];
  return std::max({std::sqrt(t[kDn] / t[kNn]), t[kNv] > 0 ? std::sqrt(t[kDv] / t[kNv]) : 0.0, std::sqrt(t[kDT] / t[kNT])}) / dt;
}

double BgkMethod::lid_drag_now() const {
  // The lid's row is the last rank's.
  const Communicator& comm = ranks_of(ctx_);
  const long long cells = (long long)(own_.size() / kRawMoments), lid_row = (long long)(cfg_.ny - 1) * cfg_.nx;
  std::vector<double> drag;
  if (strip_.end == cfg_.ny) drag.push_back(lid_drag(cfg_, own_, cells, lid_row - strip_.owned_in_whole().begin));
  return comm.size() > 1 ? comm.all_gather(drag).at(0) : drag.at(0);
}

bool BgkMethod::converged() const {
  const double tol = p_.tolerance;
  return !residual_.empty() && iteration_ > 1 && tol > 0.0 && residual_.back() < tol;
}

bool BgkMethod::finished() const { return converged() || time_ >= p_.t_end - 1e-9 * cfg_.dt; }

// mach, delta, lid_speed, dt, courant, conservative and streaming reconfigure the solver on its grids;
// variant switches its step (t_end, tolerance and steps_per_iteration are read where used).
void BgkMethod::on_live_change(const BgkParams& before) {
  if (p_.variant != before.variant) solver_->set_variant(p_.variant);
  else apply_config(make_config(p_));  // refuses a value the current grids cannot take
}

Progress BgkMethod::progress() const {
  Progress p;
  p.iteration = iteration_;
  p.sim_time = time_;
  p.time_unit = "1/nu_ref";
  p.residual = residual_.empty() ? 0.0 : residual_.back();
  const EndProgress end = toward_end(time_ / p_.t_end, "t_end", p.residual, iteration_ > 1 ? p_.tolerance : 0.0);
  p.fraction_done = finished() ? 1.0 : end.fraction;
  p.end_condition = end.condition;
  p.work_done = double(steps_) * double(cfg_.phase_cells());
  p.work_unit = "phase-space cell updates";
  p.converged = converged();
  return p;
}

Snapshot BgkMethod::snapshot() const {
  Snapshot snap;
  snap.progress = progress();
  // Under MPI the cells' sums and the rows are gathered on rank 0, which makes the snapshot.
  const std::vector<double> raw = whole_raw_moments();
  const std::vector<double> middle = whole_row(cfg_.ny / 2);
  const std::vector<double> lid = cfg_.kind == Case::Cavity ? whole_row(cfg_.ny - 1) : std::vector<double>{};
  if (ranks_of(ctx_).rank() != 0) return snap;
  const long long cells = cfg_.cells();
  const CellFields f = cell_fields(raw, cells);
  Grid g;
  g.cells = {cfg_.nx, cfg_.ny, 1};
  g.origin = {cfg_.x0, cfg_.y0, 0.0};
  g.spacing = {cfg_.dx, cfg_.kind == Case::Cavity ? cfg_.dy : cfg_.dx, 1.0};
  g.axes = spatial_axes("lambda_ref");
  auto field = [&](int index, std::initializer_list<const std::vector<double>*> comps) {
    FieldData d;
    d.desc = static_info().fields[index];
    d.grid = g;
    d.values.reserve(cells * comps.size());
    for (long long k = 0; k < cells; ++k)
      for (const auto* c : comps) d.values.push_back((*c)[k]);
    return d;
  };
  snap.fields = {field(kFieldN, {&f.n}), field(kFieldV, {&f.Vx, &f.Vy, &f.Vz}), field(kFieldT, {&f.T}), field(kFieldPxy, {&f.Pxy}),
                 field(kFieldQ, {&f.qx, &f.qy})};
  FieldData ps;
  ps.desc = static_info().fields[kFieldPhaseSpace];
  ps.grid.cells = {cfg_.nx, cfg_.vg.n[0], 1};
  ps.grid.origin = {cfg_.x0, cfg_.vg.lo[0], 0.0};
  ps.grid.spacing = {cfg_.dx, cfg_.vg.h[0], 1.0};
  ps.grid.axes = {{{"x", "lambda_ref"}, {"v_x", "v_ref"}, {"", ""}}};
  ps.values = phase_space(cfg_, middle);
  snap.fields.push_back(std::move(ps));

  snap.series.push_back({"residual", "t (1/nu_ref)", "relative change per unit time", residual_t_, residual_, {}});
  // dt: the step taken (set by `courant` when that is above 0).
  nlohmann::json d = {
      {"steps", steps_}, {"dt", cfg_.dt}, {"courant", courant_number(cfg_)}, {"mass", mass_of(raw)}, {"phase_cells", cfg_.phase_cells()}};
  if (cfg_.kind == Case::Shock) {
    const ShockAnalysis a = analyse_shock(cfg_, raw);
    Series n{"n(x)", "x (lambda-)", "n / n-"}, V{"V(x)", "x (lambda-)", "V / sqrt(2RT-)"}, T{"T(x)", "x (lambda-)", "T / T-"};
    for (int i = 0; i < cfg_.nx; ++i) {
      const double x = cfg_.x0 + (i + 0.5) * cfg_.dx;
      for (Series* s : {&n, &V, &T}) s->x.push_back(x);
      n.y.push_back(f.n[i]);
      V.y.push_back(f.Vx[i]);
      T.y.push_back(f.T[i]);
    }
    // Rankine-Hugoniot states (eq. 18) as a step at the measured shock centre.
    auto step = [&](const char* name, const char* y, double up, double down) {
      const double xl = cfg_.x0, xr = cfg_.x0 + cfg_.nx * cfg_.dx;
      return Series{name, "x (lambda-)", y, {xl, a.centre, a.centre, xr}, {up, up, down, down}, {}};
    };
    snap.series.push_back(n);
    snap.series.push_back(V);
    snap.series.push_back(T);
    snap.series.push_back(step("n(x) Rankine-Hugoniot", "n / n-", cfg_.upstream.n, cfg_.downstream.n));
    snap.series.push_back(step("V(x) Rankine-Hugoniot", "V / sqrt(2RT-)", cfg_.upstream.V[0], cfg_.downstream.V[0]));
    snap.series.push_back(step("T(x) Rankine-Hugoniot", "T / T-", cfg_.upstream.T, cfg_.downstream.T));
    d["rankine_hugoniot_error"] = a.rh_error;
    d["flux_spread_mass"] = a.flux_spread[0];
    d["flux_spread_momentum"] = a.flux_spread[1];
    d["flux_spread_energy"] = a.flux_spread[2];
    d["inverse_thickness"] = a.inverse_thickness;
    d["shock_centre"] = a.centre;
  } else {
    const CavityAnalysis a = analyse_cavity(cfg_, bounds_, raw, lid);
    Series u{"Vx/U on x = delta/2", "y / delta", "Vx / U"}, v{"Vy/U through the vortex", "x / delta", "Vy / U"};
    u.y = centreline_velocity(cfg_, f);
    for (int k = 0; k < cfg_.ny; ++k) u.x.push_back((k + 0.5) / cfg_.ny);
    const int kv = std::clamp(int(a.vortex_y / cfg_.dy), 0, cfg_.ny - 1);
    for (int i = 0; i < cfg_.nx; ++i) {
      v.x.push_back((i + 0.5) / cfg_.nx);
      v.y.push_back(f.Vy[std::size_t(kv) * cfg_.nx + i] / cfg_.lid_speed);
    }
    snap.series.push_back(u);
    snap.series.push_back(v);
    snap.series.push_back({"D(t)", "t (1/nu_ref)", "D", drag_t_, drag_, {}});
    d["D"] = a.D;
    d["D_wall"] = a.D_wall;
    d["G"] = a.G;
    d["vortex_centre_y"] = a.vortex_y;
    const double delta = cfg_.dx * cfg_.nx;
    for (const TableRow& row : kTable1)
      if (std::fabs(delta / row.delta - 1.0) < 1e-9) {
        d["paper_D"] = row.D;
        d["paper_G"] = row.G;
        d["D_relative_error"] = a.D / row.D - 1.0;
        d["G_relative_error"] = a.G / row.G - 1.0;
      }
  }
  snap.diagnostics = d;
  return snap;
}

std::size_t BgkMethod::write_display(int field, int component, void* device_dst, std::size_t capacity) const {
  return solver_ ? solver_->write_display_field(field, component, cfg_.ny / 2, device_dst, capacity) : 0;
}

void BgkMethod::save_body(std::ostream& out) const {
  bin::write<std::int64_t>(out, iteration_);
  bin::write<std::int64_t>(out, steps_);
  bin::write<double>(out, time_);
  bin::write_vector(out, residual_t_);
  bin::write_vector(out, residual_);
  bin::write_vector(out, drag_t_);
  bin::write_vector(out, drag_);
  std::vector<double> f;
  solver_->read_f(f);
  bin::write_vector(out, f);
}

void BgkMethod::load_body(std::istream& in) {
  // Read and check everything first: a refused state leaves the method as it was.
  const auto iteration = bin::read<std::int64_t>(in);
  const auto steps = bin::read<std::int64_t>(in);
  const double time = bin::read<double>(in);
  // Every iteration takes at least one step and appends one residual (and, in the cavity, one drag).
  if (iteration < 0 || steps < iteration)
    throw bad_input("checkpoint",
                    "the kinetic.bgk state has " + std::to_string(iteration) + " iterations and " + std::to_string(steps) + " steps",
                    "0 <= iterations <= steps");
  if (!std::isfinite(time) || time < 0.0)
    throw bad_input("checkpoint", "the kinetic.bgk state is at time " + std::to_string(time), "a finite time >= 0");
  // advance() adds a point per iteration: the time after it, and the residual (and, in the cavity, the lid drag).
  const auto within = [time](std::size_t, double t, double) { return std::isfinite(t) && t > 0.0 && t <= time; };
  const auto allowed = [](std::size_t) { return std::string("a time in (0, the state's time]"); };
  History residuals = read_history(in, iteration, "kinetic.bgk", "residual history", "time", within, allowed);
  History drags = read_history(in, cfg_.kind == Case::Cavity ? iteration : 0, "kinetic.bgk", "lid drag history", "time", within, allowed);
  const auto phase = std::uint64_t(strip_.owned_cells()) * std::uint64_t(cfg_.vg.count());  // this rank's cells
  const std::vector<double> f = read_values(
      in, phase, "kinetic.bgk", "phase-space cells", std::to_string(phase),
      "a checkpoint written with the same nx, ny and nv on as many ranks", [](double v) { return std::isfinite(v); }, "finite values");
  solver_->write_f(f);
  iteration_ = iteration;
  steps_ = steps;
  time_ = time;
  residual_t_ = std::move(residuals.x);
  residual_ = std::move(residuals.y);
  drag_t_ = std::move(drags.x);
  drag_ = std::move(drags.y);
  own_ = solver_->raw_moments();
  own_stale_ = false;
}

}  // namespace ks::bgk
