#include "rmc_method.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/balanced_blocks.hpp"
#include "core/end_condition.hpp"
#include "core/checked.hpp"
#include "core/memory_budget.hpp"
#include "core/errors.hpp"
#include "core/solver_choice.hpp"
#include "io/binary_io.hpp"
#include "rmc_cases.hpp"
#include "rmc_reference.hpp"
#include "rmc_params.hpp"

namespace ks::rmc {

namespace {

// The cells as a field grid; a file's field keeps the file's origin, so outputs line up with its source.
Grid cell_grid(const RmcConfig& c) {
  Grid g;
  for (int a = 0; a < 3; ++a) {
    g.cells[a] = c.n[a], g.spacing[a] = c.spacing(a);
    if (c.field && c.field->has_size()) g.origin[a] = c.field->origin[a];
  }
  return g;
}

// Whether every (y, z) column of cells has the same temperature at each x (a slab's field).
bool uniform_across(const RmcConfig& c, const std::vector<double>& T) {
  for (long long cell = 0; cell < c.cells(); ++cell)
    if (T[cell] != T[cell % c.n[0]]) return false;
  return true;
}

}  // namespace

MethodInfo RmcMethod::describe() {
  MethodInfo info;
  info.id = "radiation.rmc";
  info.title = "Reciprocal Monte Carlo radiation (grey and narrow-band correlated-k)";
  info.paper = "radiation-rmc-silvestri-pecnik-2019.txt";
  info.folder = "radiation";
  info.fields = {{"T", "K", 1, "Temperature"},
                 {"Q_R", "W/m^3", 1, "Radiative power: emitted minus absorbed per unit volume (div q)"},
                 {"Q_R_std", "W/m^3", 1, "Standard error of Q_R"},
                 {"kappa_P", "1/m", 1, "Planck-mean absorption coefficient"}};
  info.series = {"Q^R(x)", "Q^R(x) reference", "std(Q^R)(x)", "change per batch", "mean std(Q^R)", "mean std(Q^R) 1/sqrt(N)"};
  info.decomposition =
      "the ray origins (cells) in contiguous blocks, one per rank, re-cut after every batch to the ranks' trace times; the medium on "
      "every rank; Q^R sums gathered every iteration";
  return info;
}

MemoryEstimate RmcMethod::estimate(const RmcParams& p, const ExecutionContext& ctx) {
  const bool cuda = ctx.backend == BackendKind::Cuda, file = p.profile == Profile::File;
  // The cells: nx x ny x nz, or a file's grid from the .vti's header or the .csv's first MiB (never the whole
  // file; see estimate_temperature_file), and the cells of every grid level the grid allows (grid_levels is live).
  std::int64_t cells = 0, level_cells = 0;
  std::uint64_t read_bytes = 0;
  std::string grid;
  if (file) {
    const TemperatureFileEstimate f = estimate_temperature_file(temperature_file_path(p));
    cells = f.cells;
    // A .csv's shape is unknown before it is read: each level holds at most 3/5 of the cells of the one above
    // (its longest axis, >= 5 cells, halves rounding up), so all levels hold at most 2.5 times the cells.
    level_cells = f.n[0] > 0 ? cells_on_all_levels(f.n) : checked_mul(cells, 5, "temperature_file cells x 2.5 (grid levels)") / 2;
    read_bytes = f.read_bytes;
    grid = f.how;
  } else {
    const int n[3] = {p.nx, p.ny, p.nz};
    cells = checked_product({n[0], n[1], n[2]}, "nx x ny x nz cells");
    level_cells = cells_on_all_levels(n);
    grid = "nx x ny x nz = " + std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]);
  }
  // Host, per cell: the temperatures (T_ and the set-up's copy), the running sums, kappa_P, and a snapshot's four
  // fields with the mean and standard error they come from (11 doubles); a file's field (T and the line of each
  // value); with CUDA the solver's download buffer. Per cell of every level: the table coordinate, in the
  // problem and in the solver's copy. The spectral tables (about 25 MB for 370 bands) are left out. Reading a
  // file comes first, and all of it but the field is freed before the rest is allocated.
  const std::int64_t per_cell = 8 * 11 + (file ? 12 : 0) + (cuda ? 8 : 0);
  const std::string grid_cells = grid + ": " + std::to_string(cells) + " cells";
  const std::string level = std::to_string(level_cells) + " cells of the grid levels";
  MemoryBudget b("radiation.rmc");
  b.host(grid_cells, cells, per_cell).host(level, level_cells, 16).host_before("reading temperature_file", std::int64_t(read_bytes));
  if (cuda && cells > 0) {
    // Device, per cell: the batch's sums and face crossings, the running sums, T and kappa_P (7 doubles); per
    // cell of every level: the table coordinate as a double and as a texture float (texture is live); per
    // thread (a cell's chunk of rays; rays_per_batch is live: its most chunks): the chunk's sums (3 doubles),
    // for two batches (the next one traces while this one ends).
    const int chunks = ray_chunks(cells, kMaxRaysPerBatch);
    b.device(grid_cells, cells, 56).device(level, level_cells, 12);
    b.device(grid_cells + " x " + std::to_string(chunks) + " ray threads", checked_mul(cells, chunks, "cells x ray chunks"), 48);
  }
  return b.estimate();
}

double RmcMethod::cost(const RmcParams& p) {
  // Ray-cell crossings of one batch: rays_per_batch rays from every cell, each crossing about as many
  // cells as the longest axis has (a file's grid from its header).
  std::int64_t n[3] = {p.nx, p.ny, p.nz};
  if (p.profile == Profile::File) {
    const TemperatureFileEstimate f = estimate_temperature_file(temperature_file_path(p));
    for (int a = 0; a < 3; ++a) n[a] = f.n[a] > 0 ? f.n[a] : std::int64_t(std::cbrt(double(f.cells)));
  }
  const double longest = double(std::max({n[0], n[1], n[2]}));
  return double(n[0]) * double(n[1]) * double(n[2]) * longest * double(p.rays_per_batch);
}

void RmcMethod::set_up() {
  RmcProblem p;
  p.config = make_config(p_);
  p.settings = make_settings(p_);
  const std::vector<double> T = cell_temperatures(p.config);
  double lo, hi;
  temperature_range(p.config, T, lo, hi);
  const GasData gas = p.config.gas == Gas::Grey ? grey_gas(p.config.kappa) : load_gas_data(gas_data_file(p.config.gas));
  // A file's temperatures must lie in the NB-CK tables (their k is held constant beyond them); a grey
  // gas takes any T > 0, which the reader already checked.
  if (p.config.field && p.config.gas != Gas::Grey)
    check_temperature_range(*p.config.field, gas.T.front(), gas.T.back(), std::string(gas_name(p.config.gas)) + " narrow-band");
  p.tables = build_tables(gas, lo, hi, max_temperature(T));
  p.levels = build_levels(p.config, T, p.tables, p.settings);
  std::unique_ptr<RmcSolver> solver = solver_for(
      ctx_, info().id, [&] { return make_cuda_solver(ctx_.cuda_device); }, [] { return make_cpu_solver(); });
  const Communicator& comm = ranks_of(ctx_);
  if (p.config.cells() < comm.size())
    throw bad_input(param_key(&RmcParams::nx),
                    std::to_string(p.config.cells()) + " cells cannot be shared by " + std::to_string(comm.size()) + " ranks",
                    "at least one cell per rank");
  solver->load(p);
  bounds_.resize(comm.size() + 1);
  for (int r = 0; r <= comm.size(); ++r) bounds_[r] = block_of(p.config.cells(), r, comm.size()).begin;  // r = size: the cells
  problem_ = std::move(p);
  solver_ = std::move(solver);
  T_ = T;
  batch_ = 0;
  restart_estimate();

  reference_ready_ = false;
  kappa_planck_.clear();
  solver_->set_fixed_fields(T_, kappa_planck());
}

const std::vector<double>& RmcMethod::reference() const {
  if (reference_ready_) return reference_;
  reference_ready_ = true;
  const RmcConfig& c = problem_.config;
  reference_.clear();
  // The reference along x: the slab solution (eq. in rmc_reference.hpp) between black walls, on 16
  // sub-cells per cell of the continuous profile for a grey gas and on the cells themselves for
  // NB-CK and for a file's field (if it is the same across y and z); the quadrature solution for a
  // grey box with black walls (analytic profiles only: a file's field is constant per cell).
  const std::vector<double> x = stations();
  const bool file = c.profile == Profile::File;
  bool black = c.walls[0].emissivity == 1.0 && c.walls[1].emissivity == 1.0;
  if (c.one_dimensional() && black && (!file || uniform_across(c, T_))) {
    const int refine = c.gas == Gas::Grey && !file ? 16 : 1;
    std::vector<double> Tx(c.n[0] * refine);
    for (std::size_t j = 0; j < Tx.size(); ++j)
      Tx[j] = refine == 1 ? T_[j] : profile_temperature(c, (j + 0.5) * c.L[0] / Tx.size(), 0.5 * c.L[1], 0.5 * c.L[2]);
    reference_ = slab_net_emission(problem_.tables, Tx, c.L[0], c.walls[0].T, c.walls[1].T, x);
  } else if (!c.one_dimensional() && c.gas == Gas::Grey && !file) {
    for (int s = 2; s < 6; ++s) black = black && c.walls[s].emissivity == 1.0;
    if (black) {
      const double yc = ((c.n[1] - 1) / 2 + 0.5) * c.spacing(1), zc = ((c.n[2] - 1) / 2 + 0.5) * c.spacing(2);
      std::vector<std::array<double, 3>> pts;
      for (double xi : x) pts.push_back({xi, yc, zc});
      reference_ = box_net_emission_grey(
          c.kappa, c.L, c.walls[0].T, [&c](double a, double b, double d) { return profile_temperature(c, a, b, d); }, pts);
    }
  }
  return reference_;
}

void RmcMethod::restart_estimate() {
  sum_.assign(problem_.config.cells(), 0.0);
  sum2_.assign(problem_.config.cells(), 0.0);
  solver_->set_sums(sum_, sum2_);
  sums_out_of_date_ = false;
  rays_ = 0;
  steps_ = 0.0;
  iteration_ = 0;
  change_x_.clear(), change_y_.clear(), sd_x_.clear(), sd_y_.clear();
}

void RmcMethod::rebuild_levels() {
  problem_.settings = make_settings(p_);
  problem_.levels = build_levels(problem_.config, T_, problem_.tables, problem_.settings);
  solver_->load(problem_);
}

std::size_t RmcMethod::write_display(int field, int component, void* device_dst, std::size_t capacity) const {
  using D = RmcSolver::Display;  // T, Q_R, Q_R_std, kappa_P: scalars
  if (!solver_ || component > 0) return 0;
  const D what[] = {D::Temperature, D::Q, D::QStdError, D::KappaPlanck};
  return solver_->write_display_field(what[field], rays_, device_dst, capacity);
}

void RmcMethod::fetch_sums() const {
  if (sums_out_of_date_) solver_->download_sums(sum_, sum2_);
  sums_out_of_date_ = false;
}

std::vector<double> RmcMethod::mean() const {
  fetch_sums();
  std::vector<double> m(sum_.size());
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = estimate_mean(sum_[i], rays_);
  return m;
}

std::vector<double> RmcMethod::std_error() const {
  fetch_sums();
  std::vector<double> s(sum_.size());
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = estimate_std_error(sum_[i], sum2_[i], rays_);
  return s;
}

std::vector<double> RmcMethod::stations() const {
  const RmcConfig& c = problem_.config;
  std::vector<double> x(c.n[0]);
  for (int i = 0; i < c.n[0]; ++i) x[i] = (i + 0.5) * c.spacing(0);
  return x;
}

namespace {

// The cells averaged into each station: a whole plane of a slab, or the one, two or four cells
// nearest a box's centre line y = z = L/2.
struct StationCells {
  int j0, j1, k0, k1;
  double count() const { return double(j1 - j0 + 1) * (k1 - k0 + 1); }
};

StationCells station_cells(const RmcConfig& c) {
  if (c.one_dimensional()) return {0, c.n[1] - 1, 0, c.n[2] - 1};
  return {(c.n[1] - 1) / 2, c.n[1] / 2, (c.n[2] - 1) / 2, c.n[2] / 2};
}

}  // namespace

std::vector<double> RmcMethod::profile(const std::vector<double>& per_cell) const {
  const RmcConfig& c = problem_.config;
  const StationCells s = station_cells(c);
  std::vector<double> out(c.n[0], 0.0);
  for (int k = s.k0; k <= s.k1; ++k)
    for (int j = s.j0; j <= s.j1; ++j)
      for (int i = 0; i < c.n[0]; ++i) out[i] += per_cell[((long long)k * c.n[1] + j) * c.n[0] + i] / s.count();
  return out;
}

std::vector<double> RmcMethod::profile_error(const std::vector<double>& std_error) const {
  // The cells of a station are independent: the variance of their mean is the mean variance / count.
  std::vector<double> var(std_error.size());
  for (std::size_t i = 0; i < var.size(); ++i) var[i] = std_error[i] * std_error[i];
  std::vector<double> out = profile(var);
  const double count = station_cells(problem_.config).count();
  for (double& v : out) v = std::sqrt(v / count);
  return out;
}

const std::vector<double>& RmcMethod::kappa_planck() const {
  if (kappa_planck_.empty()) {
    // Once per distinct temperature (a slab's cells share a few dozen), over the host's threads:
    // each value sums every (band, Gauss point) of the tables.
    std::vector<double> temperatures = T_;
    std::sort(temperatures.begin(), temperatures.end());
    temperatures.erase(std::unique(temperatures.begin(), temperatures.end()), temperatures.end());
    std::vector<double> kappa(temperatures.size());
#pragma omp parallel for schedule(dynamic, 64)
    for (long long i = 0; i < (long long)temperatures.size(); ++i) kappa[i] = problem_.tables.kappa_planck(temperatures[i]);
    kappa_planck_.resize(T_.size());
    for (std::size_t i = 0; i < T_.size(); ++i)
      kappa_planck_[i] = kappa[std::lower_bound(temperatures.begin(), temperatures.end(), T_[i]) - temperatures.begin()];
  }
  return kappa_planck_;
}

void RmcMethod::advance() {
  if (finished()) return;
  const long long target = p_.rays_per_cell;
  const int rays = int(std::min<long long>(p_.rays_per_batch, target - rays_));
  // Where the solver keeps the sums (CUDA, one process), the batch's series come back as numbers.
  const bool kept = ranks_of(ctx_).size() == 1 && solver_->keeps_sums();
  BatchSeries s;
  std::vector<double> before;
  if (kept) {
    const int next_rays = int(std::min<long long>(p_.rays_per_batch, target - rays_ - rays));
    steps_ += solver_->trace_kept(batch_, rays, rays_, s, next_rays);
    sums_out_of_date_ = true;
  } else {
    before = mean();
    double steps = 0.0;
    // A batch stopped on request (ctx_.interrupt) adds nothing: the estimate stays the last batch's,
    // and the next advance() traces the same batch again.
    const auto start = std::chrono::steady_clock::now();
    if (!solver_->trace(batch_, rays, origins(), sum_, sum2_, steps, ctx_.interrupt)) return;
    share_sums(steps, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  ++batch_;
  rays_ += rays;
  ++iteration_;
  if (!kept) s = series_since(before);
  if (s.not_finite >= 0)
    throw run_failed("radiation.rmc: Q^R is not finite in cell " + std::to_string(s.not_finite) + " after " + std::to_string(rays_) +
                     " rays per cell");
  add_series_point(s);
}

// The batch's series from the host's sums, against the estimate `before` it; a cell whose Q^R is not
// finite is named with its value.
BatchSeries RmcMethod::series_since(const std::vector<double>& before) const {
  const std::vector<double> now = mean(), sd = std_error();
  BatchSeries s;
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (!std::isfinite(now[i]))
      throw run_failed("radiation.rmc: Q^R is " + std::to_string(now[i]) + " in cell " + std::to_string(i) + " after " +
                       std::to_string(rays_) + " rays per cell");
    s.change += std::fabs(now[i] - before[i]);
    s.size += std::fabs(now[i]);
    s.sd_mean += sd[i] / double(now.size());
  }
  return s;
}

void RmcMethod::add_series_point(const BatchSeries& s) {
  change_x_.push_back(double(rays_));
  change_y_.push_back(s.size > 0.0 ? s.change / s.size : 0.0);
  sd_x_.push_back(double(rays_));
  sd_y_.push_back(s.sd_mean);
}

Block RmcMethod::origins() const {
  const int rank = ranks_of(ctx_).rank();
  return {bounds_[rank], bounds_[rank + 1]};
}

// Under MPI: every rank's block of the sums, so that every rank holds all cells' (the snapshot reads
// them without a collective), and the face crossings of all ranks (whole numbers: exact sums). The
// ranks' trace times of the batch re-cut the blocks for the next: the sums do not depend on which
// rank traces a cell (rays are keyed by seed, batch and cell), so only the time does.
void RmcMethod::share_sums(double steps, double seconds) {
  const Communicator& comm = ranks_of(ctx_);
  if (comm.size() > 1) {
    const Block own = origins();
    std::vector<double> mine(sum_.begin() + own.begin, sum_.begin() + own.end);
    mine.insert(mine.end(), sum2_.begin() + own.begin, sum2_.begin() + own.end);
    mine.push_back(seconds);
    const std::vector<double> all = comm.all_gather(mine);
    std::vector<double> times(comm.size());
    std::size_t at = 0;
    for (int r = 0; r < comm.size(); ++r) {
      const Block b{bounds_[r], bounds_[r + 1]};
      std::copy(all.begin() + at, all.begin() + at + b.count(), sum_.begin() + b.begin);
      std::copy(all.begin() + at + b.count(), all.begin() + at + 2 * b.count(), sum2_.begin() + b.begin);
      times[r] = all[at + 2 * b.count()];
      at += 2 * b.count() + 1;
    }
    bounds_ = balanced_bounds(bounds_, times);
    solver_->set_sums(sum_, sum2_);
    std::vector<double> total{steps};
    comm.all_sum(total);
    steps = total[0];
  }
  steps_ += steps;
}

bool RmcMethod::finished() const { return rays_ >= p_.rays_per_cell; }

// The march settings (grid_levels, steps_per_level, level_fraction, kappa_ref, sorting, texture,
// single_precision, ray_packets, seed); rays_per_cell and rays_per_batch are read where used.
void RmcMethod::on_live_change(const RmcParams& before) {
  rebuild_levels();
  // Sorting, texture memory and precision change the speed, not the statistics: the estimate goes on. The
  // multigrid settings change the estimator, and packets and the seed the stream: the estimate starts again.
  const bool speed_only = p_.sorting != before.sorting || p_.texture != before.texture || p_.single_precision != before.single_precision;
  if (!speed_only) restart_estimate();
}

Progress RmcMethod::progress() const {
  // No convergence tolerance (`tolerance` is the rays' transmissivity cut-off): the run ends at rays_per_cell, so converged stays false.
  Progress p;
  p.iteration = iteration_;
  p.sim_time = double(rays_);
  p.time_unit = "rays per cell";
  p.residual = change_y_.empty() ? 0.0 : change_y_.back();
  p.fraction_done = std::min(1.0, double(rays_) / double(p_.rays_per_cell));
  p.end_condition = "rays_per_cell";
  p.work_done = double(rays_) * double(problem_.config.cells());
  p.work_unit = "rays";
  return p;
}

Snapshot RmcMethod::snapshot() const {
  Snapshot snap;
  snap.progress = progress();
  const RmcConfig& c = problem_.config;
  const auto& desc = static_info().fields;
  const Grid grid = cell_grid(c);
  const std::vector<double> m = mean(), sd = std_error();
  snap.fields = {{desc[0], grid, T_, {}}, {desc[1], grid, m, {}}, {desc[2], grid, sd, {}}, {desc[3], grid, kappa_planck(), {}}};
  const std::vector<double> x = stations();
  const std::string where = c.one_dimensional() ? "x (m)" : "x (m) at y = z = L/2";
  Series q{"Q^R(x)", where, "Q^R (W/m^3)", x, profile(m), {}};
  q.y_err = profile_error(sd);
  snap.series.push_back(q);
  const std::vector<double>& ref = reference();
  if (!ref.empty()) snap.series.push_back({"Q^R(x) reference", where, "Q^R (W/m^3)", x, ref, {}});
  snap.series.push_back({"std(Q^R)(x)", where, "standard error of Q^R (W/m^3)", x, profile(sd), {}});
  snap.series.push_back({"change per batch", "rays per cell", "mean |change of Q^R| / mean |Q^R|", change_x_, change_y_, {}});
  snap.series.push_back({"mean std(Q^R)", "rays per cell", "mean standard error (W/m^3)", sd_x_, sd_y_, {}});
  // Its companion: the fall as 1/sqrt(N) rays of a mean of independent ray estimates, through the
  // first batch's point; the measured line follows it once the batches are many.
  std::vector<double> clt(sd_x_.size());
  for (std::size_t i = 0; i < clt.size(); ++i) clt[i] = sd_y_[0] * std::sqrt(sd_x_[0] / sd_x_[i]);
  snap.series.push_back({"mean std(Q^R) 1/sqrt(N)", "rays per cell", "mean standard error (W/m^3)", sd_x_, clt, {}});

  nlohmann::json d = {{"cells_per_axis", {c.n[0], c.n[1], c.n[2]}},  // a file's grid may differ from nx, ny, nz
                      {"box_m", {c.L[0], c.L[1], c.L[2]}},
                      {"rays_per_cell", rays_},
                      {"batches", iteration_},
                      {"face_crossings", steps_},
                      {"crossings_per_ray", rays_ > 0 ? steps_ / (double(rays_) * double(c.cells())) : 0.0},
                      {"T_max", problem_.tables.T_max},
                      {"kappa_planck_max", problem_.tables.kappa_planck(problem_.tables.T_max)},
                      {"optical_thickness", problem_.tables.kappa_planck(problem_.tables.T_max) * c.L[0]},
                      {"pseudo_spectral_points", problem_.tables.points()},
                      {"grid_levels", problem_.levels.size()},
                      {"ray_chunks", ray_chunks(c.cells(), p_.rays_per_batch)},
                      {"solver_bytes", double(solver_->bytes())}};
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& l : problem_.levels) steps.push_back(l.steps);
  d["steps_per_level"] = steps;
  if (!ref.empty()) {
    // RMS error over the stations relative to the largest |reference| (the measure of section 2.3).
    const std::vector<double> y = profile(m);
    double se = 0.0, peak = 0.0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      se += (y[i] - ref[i]) * (y[i] - ref[i]) / double(y.size());
      peak = std::max(peak, std::fabs(ref[i]));
    }
    d["rms_error_over_peak"] = peak > 0.0 ? std::sqrt(se) / peak : 0.0;
  }
  snap.diagnostics = d;
  return snap;
}

void RmcMethod::save_body(std::ostream& out) const {
  bin::write<std::int64_t>(out, iteration_);
  bin::write<std::int64_t>(out, rays_);
  bin::write<std::uint32_t>(out, batch_);
  bin::write<double>(out, steps_);
  fetch_sums();
  bin::write_vector(out, sum_);
  bin::write_vector(out, sum2_);
  bin::write_vector(out, change_x_);
  bin::write_vector(out, change_y_);
  bin::write_vector(out, sd_x_);
  bin::write_vector(out, sd_y_);
}

void RmcMethod::load_body(std::istream& in) {
  // Read and check everything first: a refused state leaves the method as it was.
  const auto iteration = bin::read<std::int64_t>(in), rays = bin::read<std::int64_t>(in);
  const auto batch = bin::read<std::uint32_t>(in);
  const double steps = bin::read<double>(in);
  // Every batch adds at least one ray per cell, and the estimate never holds more than the largest rays_per_cell.
  const std::int64_t max_rays = kMaxRaysPerCell;
  if (!(iteration >= 0 && iteration <= rays && rays <= max_rays && (iteration > 0 || rays == 0)))
    throw bad_input(
        "checkpoint",
        "the radiation.rmc state holds " + std::to_string(rays) + " rays per cell from " + std::to_string(iteration) + " batches",
        "0 <= batches <= rays per cell <= " + std::to_string(max_rays) + " (rays_per_cell), no rays without a batch");
  if (!(std::isfinite(steps) && steps >= 0.0))
    throw bad_input("checkpoint", "the radiation.rmc state holds " + std::to_string(steps) + " face crossings", "a finite count >= 0");
  const std::uint64_t cells = std::uint64_t(problem_.config.cells());
  auto s = bin::read_vector<double>(in, cells), s2 = bin::read_vector<double>(in, cells);
  if (s.size() != cells || s2.size() != cells)
    throw bad_input("checkpoint",
                    "the radiation.rmc state has " + std::to_string(s.size()) + " cells, the set-up has " + std::to_string(cells),
                    "a checkpoint written with the same case and grid");
  for (std::size_t i = 0; i < cells; ++i)
    if (!std::isfinite(s[i]) || !std::isfinite(s2[i]) || s2[i] < 0.0)
      throw bad_input(
          "checkpoint",
          "the radiation.rmc state's sums of cell " + std::to_string(i) + " are " + std::to_string(s[i]) + " and " + std::to_string(s2[i]),
          "finite sums, the sum of squares >= 0");
  // One entry per batch of the estimate in each history series.
  std::vector<double> series[4];
  for (auto& v : series) {
    v = bin::read_vector<double>(in, std::uint64_t(iteration));
    if (v.size() != std::uint64_t(iteration) || !std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }))
      throw bad_input("checkpoint",
                      "the radiation.rmc state has a history of " + std::to_string(v.size()) + " entries for " + std::to_string(iteration) +
                          " batches, or a value that is not finite",
                      "one finite entry per batch");
  }
  iteration_ = iteration;
  rays_ = rays;
  batch_ = batch;
  steps_ = steps;
  sum_ = std::move(s), sum2_ = std::move(s2);
  solver_->set_sums(sum_, sum2_);
  sums_out_of_date_ = false;
  change_x_ = std::move(series[0]), change_y_ = std::move(series[1]), sd_x_ = std::move(series[2]), sd_y_ = std::move(series[3]);
}

}  // namespace ks::rmc
