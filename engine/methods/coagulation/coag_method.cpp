#include "coag_method.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <utility>

#include "coag_config.hpp"
#include "coag_solver.hpp"
#include "coag_units.hpp"
#include "core/checked.hpp"
#include "core/memory_budget.hpp"
#include "core/errors.hpp"
#include "core/solver_choice.hpp"
#include "core/text.hpp"
#include "io/binary_io.hpp"
#include "coag_params.hpp"

namespace ks::coag {

namespace {

constexpr double kFirstOutputTau = 1e-2;  // first output time after t = 0, in tau_char
constexpr std::uint64_t kMaxEventsPerLaunch = 1u << 15;
constexpr std::uint32_t kPurposePosition = 2;  // RNG draws for the particle cloud view
constexpr int kHistogramBins = 40;
constexpr double kShownFraction = 1e-8;  // sections holding less of the number are not drawn

// An empty size distribution, dN/dlog10(d) / N against d in nm, shown on log axes: the ensemble's
// histogram and the sectional solution's share it.
Series size_distribution_series(const std::string& name) {
  Series s{name, "d (nm)", "dN/dlog10(d) / N"};
  s.log_x = s.log_y = true;
  return s;
}

// Output times in tau_char: 0, log-spaced from kFirstOutputTau at outputs_per_decade, and t_end.
std::vector<double> output_schedule(const CoagParams& p) {
  const double t_end = p.t_end;
  const double per_decade = double(p.outputs_per_decade);
  std::vector<double> x = {0.0};
  for (int m = 0;; ++m) {
    const double xm = kFirstOutputTau * std::pow(10.0, m / per_decade);
    if (xm >= t_end * (1.0 - 1e-9)) break;
    x.push_back(xm);
  }
  x.push_back(t_end);
  return x;
}

// The length that starts the next vector of `in`, left unread; `otherwise` where `in` cannot seek
// (a checkpoint's state is an in-memory stream).
std::uint64_t peek_length(std::istream& in, std::uint64_t otherwise) {
  const std::istream::pos_type at = in.tellg();
  if (at == std::istream::pos_type(-1)) return otherwise;
  const auto n = bin::read<std::uint64_t>(in);
  in.seekg(at);
  return n;
}

}  // namespace

MethodInfo CoagulationMethod::describe() {
  MethodInfo info;
  info.id = "aerosol.coagulation";
  info.title = "Aerosol coagulation (weighted inverse Monte Carlo)";
  info.paper = "coagulation-mc-wei-kruis-2013.txt";
  info.folder = "coagulation";
  info.fields = {{"diameter", "nm", 1, "Diameter of each simulation particle of run 0"},
                 {"weight", "1", 1, "Real particles represented by each simulation particle of run 0"}};
  info.series = {"N/N0",
                 "d_g",
                 "sigma_g",
                 "N/N0 sectional",
                 "d_g sectional",
                 "sigma_g sectional",
                 "size distribution",
                 "size distribution sectional",
                 "size distribution at t = 0"};
  info.decomposition = "the ensemble's runs in contiguous blocks, one per rank; statistics gathered at every output";
  return info;
}

// What setup() and an iteration hold, from the parameters alone. On the host: per particle the
// ensemble's v, w and C' (24 B); per run its time, event counter, events since a refresh, next output
// and target (36 B) and one RunStatistics per output; per CPU thread advancing a run, advance_run_cpu's
// aux and two rows and recompute_rates' aux at a refresh (96 B per particle of a run); a snapshot's
// diameter and weight of run 0 with their positions (64 B per particle of a run). On CUDA the host
// keeps the ensemble (downloaded after every output) without work arrays; the device holds v, w, C',
// the row or second C' buffer and the aux per particle (72 B) and five values per run. The sectional
// reference (200 sections) is a small table. Where a Runner may stop an iteration, the ensemble and
// its runs' values are held twice (advance() keeps the iteration's start).
MemoryEstimate CoagulationMethod::estimate(const CoagParams& p, const ExecutionContext& ctx) {
  const bool cuda = ctx.backend == BackendKind::Cuda;
  const std::int64_t n_s = p.n_s, n_runs = p.n_runs;
  const std::int64_t outputs = std::int64_t(output_schedule(p).size());
  const std::int64_t particles = checked_mul(n_s, n_runs, "n_s * n_runs simulation particles");
  constexpr std::int64_t host_particle = 3 * sizeof(double);
  constexpr std::int64_t host_run = 4 * sizeof(double) + sizeof(int);
  constexpr std::int64_t thread_particle = 2 * sizeof(ParticleAux) + 2 * sizeof(double);
  constexpr std::int64_t snapshot_particle = 2 * (sizeof(double) + 3 * sizeof(double));
  const SelectionStrategy& selection = strategy(p.selection);
  const std::int64_t samplers = selection.bytes_per_particle;
  const std::int64_t device_particle = 4 * sizeof(double) + sizeof(ParticleAux) + samplers,
                     device_run = 5 * sizeof(std::uint64_t) + selection.bytes_per_run;
  // Runs advance in parallel, one per thread; a single run uses the threads inside its loops.
  const std::int64_t threads = cuda ? 0 : std::min<std::int64_t>(std::max(ctx.cpu_threads, 1), n_runs);
  const std::string runs =
      "n_s x n_runs = " + std::to_string(n_s) + " x " + std::to_string(n_runs) + " = " + std::to_string(particles) + " particles";
  MemoryBudget b("aerosol.coagulation");
  b.host(runs + " x 2 (an iteration's start kept)", checked_mul(2, particles, "2 x n_s * n_runs particles"), host_particle)
      .host(std::to_string(n_runs) + " runs' values and " + std::to_string(outputs) + " outputs' statistics (t_end, outputs_per_decade)",
            n_runs, 2 * host_run + outputs * std::int64_t(sizeof(RunStatistics)))
      .host(std::to_string(threads) + " thread(s)' work arrays of n_s = " + std::to_string(n_s) + " particles",
            checked_mul(threads, n_s, "threads x n_s"), thread_particle + samplers)
      .host("a snapshot of n_s = " + std::to_string(n_s) + " particles", n_s, snapshot_particle);
  if (cuda) b.device(runs, particles, device_particle).device(std::to_string(n_runs) + " runs' values", n_runs, device_run);
  return b.estimate();
}

double CoagulationMethod::cost(const CoagParams& p) {
  // Events of one output interval: about one per simulation particle of every run.
  return double(p.n_s) * double(p.n_runs);
}

void CoagulationMethod::set_up() {
  const Communicator& comm = ranks_of(ctx_);
  if (p_.n_runs < comm.size())
    throw bad_input(param_key(&CoagParams::n_runs),
                    std::to_string(p_.n_runs) + " runs cannot be shared by " + std::to_string(comm.size()) + " ranks",
                    "n_runs >= the number of ranks (" + std::to_string(comm.size()) + ")");
  const Block mine = block_of(p_.n_runs, comm.rank(), comm.size());
  EnsembleConfig cfg = make_config(p_);
  cfg.first_run = int(mine.begin);
  const KernelParams& k = cfg.kernel;
  std::unique_ptr<CoagSolver> solver = solver_for(
      ctx_, info().id, [&] { return make_cuda_solver(cfg, ctx_.cuda_device, kMaxEventsPerLaunch); }, [&] { return make_cpu_solver(cfg); });
  cfg_ = cfg;
  solver_ = std::move(solver);
  const double d0 = initial_diameter();
  const ParticleAux a0 = make_aux(volume_of_diameter(d0), k);
  tau_ = k.kind == KernelKind::FreeMolecular ? free_molecular_tau(k.KF, p_.N0, d0) : initial_halving_tau(beta(a0, a0, k), p_.N0);

  build_schedule();
  iteration_ = 0;
  events_ = 0;
  ens_ = Ensemble{};
  stats_.assign(t_out_.size(), {});
  next_out_.clear();
  resize_runs(int(mine.count()));
  share_statistics(0);
  share_ensemble_sums();
  initial_volume_ = current_sums().volume;
  solve_sectional();
}

void CoagulationMethod::build_schedule() {
  t_out_.clear();
  for (double xi : output_schedule(p_)) t_out_.push_back(xi * tau_);
}

// The sectional solution's size distribution as the ensemble's histogram is drawn: dN/dlog10(d) / N
// at the pivot diameters (nm), each section one pivot ratio wide in volume (a third of it in log10 d).
Series CoagulationMethod::size_distribution(const SectionalSolver& solver, const std::string& name) {
  Series s = size_distribution_series(name);
  const std::vector<double>& n = solver.number();
  double total = 0.0;
  for (double nk : n) total += nk;
  if (!(total > 0.0)) return s;
  const double width = std::log10(solver.pivots()[1] / solver.pivots()[0]) / 3.0;
  for (std::size_t k = 0; k < n.size(); ++k) {
    if (n[k] < kShownFraction * total) continue;  // off a log axis
    s.x.push_back(diameter_of_volume(solver.pivots()[k]) * 1e9);
    s.y.push_back(n[k] / total / width);
  }
  return s;
}

void CoagulationMethod::solve_sectional() {
  const KernelParams kp = cfg_.kernel;
  sectional_.clear();
  sectional_sizes_.clear();
  sectional_initial_ = {};
  if (kp.kind == KernelKind::Additive) {
    // The additive kernel grows a heavy tail that makes the explicit sectional integration stiff
    // (minutes); its reference is the exact solution instead (preset reference additive_kernel_number).
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (double t : t_out_) sectional_.push_back({t, nan, nan, nan, nan});
    return;
  }
  const double d0 = initial_diameter(), sigma_g0 = p_.sigma_g0;
  SectionalGrid grid;
  grid.v_min = volume_of_diameter(sigma_g0 > 1.0 ? d0 * std::pow(sigma_g0, -3.0) : d0);
  SectionalSolver solver(grid, [kp](double v1, double v2) { return beta(make_aux(v1, kp), make_aux(v2, kp), kp); });
  if (sigma_g0 > 1.0) solver.set_lognormal(p_.N0, d0, sigma_g0);
  else solver.set_monodisperse(p_.N0, volume_of_diameter(d0));
  sectional_initial_ = size_distribution(solver, "size distribution at t = 0");
  for (double t : t_out_) {
    solver.advance_to(t);
    sectional_.push_back(solver.moments());
    sectional_sizes_.push_back(size_distribution(solver, "size distribution sectional"));
  }
}

// Adds runs (initialised at t = 0, to catch up at the next advance) or drops the last ones.
void CoagulationMethod::resize_runs(int n_runs) {
  const int old = ens_.n_runs;
  ens_.resize(n_runs, cfg_.n_s);
  next_out_.resize(n_runs, 1);
  const int end = cfg_.first_run + n_runs;  // one past this rank's last run, in the ensemble
  for (auto& per_output : stats_)
    if (int(per_output.size()) > end) per_output.resize(end);
  if (int(stats_[0].size()) < end) stats_[0].resize(end);
  for (int r = old; r < n_runs; ++r) {
    initialise_run(ens_, r, cfg_, initial_diameter(), p_.sigma_g0, false);  // C' of the new runs: the solver's load()
    stats_[0][cfg_.first_run + r] =
        run_statistics(&ens_.v[std::size_t(r) * cfg_.n_s], &ens_.w[std::size_t(r) * cfg_.n_s], cfg_.n_s, cfg_.box_volume);
  }
  solver_->load(ens_, old);
}

// Brings every run to output k, recording the statistics of each output it passes
// (new runs catch up through the outputs they missed); on a stop requested (ctx_.interrupt) it returns
// with the runs where they stand.
std::uint64_t CoagulationMethod::bring_runs_to(int k) {
  std::uint64_t new_events = 0;
  while (true) {
    std::vector<double> target(ens_.n_runs);
    bool behind = false;
    for (int r = 0; r < ens_.n_runs; ++r) {
      const int next = std::min(next_out_[r], k);
      behind = behind || next_out_[r] <= k;
      target[r] = t_out_[next];
    }
    if (!behind) return new_events;
    new_events += solver_->advance(ens_, target, ctx_.interrupt);
    if (ctx_.interrupt.requested()) return new_events;  // the runs short of the output record nothing
    std::vector<char> at_output(ens_.n_runs);
    for (int r = 0; r < ens_.n_runs; ++r) at_output[r] = next_out_[r] <= k;
    const std::vector<RunStatistics> taken =
        runs_statistics(ens_.v.data(), ens_.w.data(), cfg_.n_s, ens_.n_runs, at_output, cfg_.box_volume);
    for (int r = 0; r < ens_.n_runs; ++r) {
      if (!at_output[r]) continue;
      const RunStatistics& s = taken[r];
      if (!std::isfinite(s.d_g) || !std::isfinite(s.sigma_g) || !std::isfinite(s.number))
        throw run_failed("aerosol.coagulation: run " + std::to_string(r) +
                         " has a non-finite size distribution at t = " + std::to_string(t_out_[next_out_[r]] / tau_) + " tau_char");
      auto& at = stats_[next_out_[r]];
      const int run = cfg_.first_run + r;
      if (int(at.size()) <= run) at.resize(run + 1);
      at[run] = s;
      ++next_out_[r];
    }
  }
}

void CoagulationMethod::advance() {
  if (finished()) return;
  // Where a Runner may stop the iteration (one process only), its start is kept: a stopped iteration
  // is dropped, since taking the runs on from mid-way would rebuild the majorant's samplers there and
  // draw other events than a run never stopped.
  std::optional<std::pair<Ensemble, std::vector<int>>> start;
  if (ctx_.interrupt.armed()) start.emplace(ens_, next_out_);
  std::vector<double> events{double(bring_runs_to(iteration_ + 1))};  // exact up to 2^53 events
  if (ctx_.interrupt.requested()) {
    std::tie(ens_, next_out_) = std::move(*start);
    solver_->load(ens_, ens_.n_runs);  // the device copy too; every C' is kept
    return;
  }
  ranks_of(ctx_).all_sum(events);
  events_ += std::uint64_t(events[0]);
  share_statistics(iteration_ + 1);
  share_ensemble_sums();
  ++iteration_;
}

// Under MPI: the statistics of every rank's runs at output k, so that every rank holds the whole
// ensemble's (the snapshot reads them without a collective).
void CoagulationMethod::share_statistics(int k) {
  const Communicator& comm = ranks_of(ctx_);
  if (comm.size() == 1) return;
  std::vector<double> mine;
  for (int r = 0; r < ens_.n_runs; ++r) {
    const RunStatistics& s = stats_[k][cfg_.first_run + r];
    mine.insert(mine.end(), {s.number, s.d_g, s.sigma_g});
  }
  const std::vector<double> all = comm.all_gather(mine);
  stats_[k].resize(all.size() / 3);
  for (std::size_t r = 0; r < stats_[k].size(); ++r) stats_[k][r] = {all[3 * r], all[3 * r + 1], all[3 * r + 2]};
}

// The volume fraction and the size distribution of all runs now: number fraction per unit log10 d in
// log-spaced bins. Each run's sums are added in run order, so they do not depend on how the runs are
// shared by ranks. Collective under MPI (only in set_up, advance and load_state: share_ensemble_sums).
CoagulationMethod::EnsembleSums CoagulationMethod::ensemble_sums() const {
  const Communicator& comm = ranks_of(ctx_);
  const int n = cfg_.n_s;
  // The diameter grows with the volume: the extreme volumes give the extreme diameters.
  const auto [v_lo, v_hi] = min_and_max(ens_.v.data(), ens_.v.size());
  double lo = ens_.v.empty() ? 1e300 : diameter_of_volume(v_lo), hi = ens_.v.empty() ? 0.0 : diameter_of_volume(v_hi);
  if (comm.size() > 1) {
    const std::vector<double> ends = comm.all_gather({lo, hi});
    for (std::size_t r = 0; r < ends.size(); r += 2) {
      lo = std::min(lo, ends[r]);
      hi = std::max(hi, ends[r + 1]);
    }
  }
  const bool spread = hi > lo * (1 + 1e-9);
  const double l0 = spread ? std::log10(lo) : 0.0, dl = spread ? (std::log10(hi) - l0) / kHistogramBins * (1 + 1e-12) : 1.0;
  // Per run: its volume, then its weight in each bin (the volume only where the sizes do not spread).
  const int per_run = 1 + (spread ? kHistogramBins : 0);
  std::vector<double> sums = runs_volume_and_histogram(ens_.v.data(), ens_.w.data(), n, ens_.n_runs, l0, dl, per_run - 1);
  if (comm.size() > 1) sums = comm.all_gather(sums);
  std::vector<double> total(per_run, 0.0);
  for (std::size_t r = 0; r < sums.size() / per_run; ++r)
    for (int q = 0; q < per_run; ++q) total[q] += sums[r * per_run + q];
  EnsembleSums out{total[0] / cfg_.box_volume, size_distribution_series("size distribution")};
  if (!spread) return out;
  double wsum = 0.0;
  for (int b = 0; b < kHistogramBins; ++b) wsum += total[1 + b];
  for (int b = 0; b < kHistogramBins; ++b) {
    out.histogram.x.push_back(std::pow(10.0, l0 + (b + 0.5) * dl) * 1e9);
    out.histogram.y.push_back(total[1 + b] / wsum / dl);
  }
  return out;
}

// Under MPI the snapshot may not gather: the sums are taken at every collective step instead. One
// process takes them when a snapshot asks (an O(n_s n_runs) pass, kept off advance()).
void CoagulationMethod::share_ensemble_sums() {
  if (ranks_of(ctx_).size() > 1) shared_sums_ = ensemble_sums();
}

CoagulationMethod::EnsembleSums CoagulationMethod::current_sums() const {
  return ranks_of(ctx_).size() > 1 ? shared_sums_ : ensemble_sums();
}

bool CoagulationMethod::finished() const { return iteration_ + 1 >= int(t_out_.size()); }

void CoagulationMethod::on_live_change(const CoagParams& before) {
  if (p_.n_runs != before.n_runs) {
    if (ranks_of(ctx_).size() > 1)
      throw bad_input(param_key(&CoagParams::n_runs), "the runs are shared by " + std::to_string(ranks_of(ctx_).size()) + " ranks",
                      "n_runs fixed during a run across ranks");
    // Growing reallocates the ensemble's arrays at the new size while the old ones are held, and the
    // next advance needs its work arrays: about the new set-up's estimate on top of what is held now.
    if (p_.n_runs > ens_.n_runs) check_memory(static_info().id, estimate_memory(params_, ctx_), ctx_);
    resize_runs(p_.n_runs);
  }
  if (p_.t_end != before.t_end) {
    const double now = t_out_[iteration_] / tau_;
    if (p_.t_end < now)
      throw bad_input(param_key(&CoagParams::t_end), "the run is already at " + std::to_string(now) + " tau_char",
                      "t_end >= the current time");
    const std::vector<double> done(t_out_.begin(), t_out_.begin() + iteration_ + 1);
    build_schedule();
    // Keep the outputs already reached; continue on the new grid after them.
    std::vector<double> merged = done;
    for (double t : t_out_)
      if (t > done.back() * (1.0 + 1e-12)) merged.push_back(t);
    t_out_ = merged;
    stats_.resize(t_out_.size());
    solve_sectional();
  }
}

MeanAndError CoagulationMethod::ensemble_mean(int k, double RunStatistics::*field, double scale) const {
  std::vector<double> x;
  for (const auto& s : stats_.at(k)) x.push_back(s.*field * scale);
  return mean_and_error(x);
}

MeanAndError CoagulationMethod::mean_number_ratio(int k) const { return ensemble_mean(k, &RunStatistics::number, 1.0 / p_.N0); }
MeanAndError CoagulationMethod::mean_dg(int k) const { return ensemble_mean(k, &RunStatistics::d_g, 1.0); }
MeanAndError CoagulationMethod::mean_sigma_g(int k) const { return ensemble_mean(k, &RunStatistics::sigma_g, 1.0); }

Progress CoagulationMethod::progress() const {
  Progress p;
  p.iteration = iteration_;
  p.sim_time = t_out_[iteration_] / tau_;
  p.time_unit = "tau_char";
  const MeanAndError dg = mean_dg(iteration_);
  p.residual = dg.mean > 0.0 ? dg.stderr_ / dg.mean : 0.0;  // relative statistical error of d_g
  const double t_end = t_out_.back() / tau_;
  p.fraction_done = iteration_ == 0 ? 0.0 : std::log(p.sim_time / kFirstOutputTau + 1.0) / std::log(t_end / kFirstOutputTau + 1.0);
  if (finished()) p.fraction_done = 1.0;
  p.end_condition = "t_end";
  p.work_done = double(events_);
  p.work_unit = "events";
  // No convergence tolerance: t_end ends every run, so p.converged stays false.
  return p;
}

Snapshot CoagulationMethod::snapshot() const {
  Snapshot snap;
  snap.progress = progress();
  const int n = cfg_.n_s;

  FieldData diameter, weight;
  diameter.desc = static_info().fields[0];
  weight.desc = static_info().fields[1];
  Grid g;
  g.kind = Grid::Kind::Particles;
  g.cells = {n, 1, 1};
  diameter.grid = weight.grid = g;
  const double side = std::cbrt(cfg_.box_volume);
  const PhiloxStream rng = run_stream(cfg_.seed, 0);
  // Run 0's particles, filled in parallel: at n_s = 4e6 a serial fill took 0.6 s a snapshot, which the
  // Runner takes between iterations.
  diameter.values.resize(std::size_t(n));
  diameter.positions.resize(std::size_t(n));
  weight.values.assign(ens_.w.begin(), ens_.w.begin() + n);
#pragma omp parallel for schedule(static)
  for (int k = 0; k < n; ++k) {
    diameter.values[k] = diameter_of_volume(ens_.v[k]) * 1e9;
    // The box is well mixed: positions are only for the particle-cloud view.
    const PhiloxCounter c = rng.draw(std::uint64_t(k), kPurposePosition);
    diameter.positions[k] = {side * uniform_open01(c.v[0], 0), side * uniform_open01(c.v[1], 0), side * uniform_open01(c.v[2], 0)};
  }
  weight.positions = diameter.positions;
  snap.fields = {std::move(diameter), std::move(weight)};

  Series N{"N/N0", "t/tau_char", "N/N0"}, dg{"d_g", "t/tau_char", "d_g (nm)"}, sg{"sigma_g", "t/tau_char", "sigma_g"};
  Series Ns{"N/N0 sectional", "t/tau_char", "N/N0"}, dgs{"d_g sectional", "t/tau_char", "d_g (nm)"},
      sgs{"sigma_g sectional", "t/tau_char", "sigma_g"};
  double err_dg = 0.0, err_sg = 0.0;
  int err_points = 0;
  for (int k = 0; k <= iteration_; ++k) {
    const double x = t_out_[k] / tau_;
    const MeanAndError a = mean_number_ratio(k), b = mean_dg(k), c = mean_sigma_g(k);
    for (Series* s : {&N, &dg, &sg}) s->x.push_back(x);
    N.y.push_back(a.mean);
    N.y_err.push_back(a.stderr_);
    dg.y.push_back(b.mean * 1e9);
    dg.y_err.push_back(b.stderr_ * 1e9);
    sg.y.push_back(c.mean);
    sg.y_err.push_back(c.stderr_);
    const SectionalMoments& m = sectional_[k];
    if (!std::isfinite(m.d_g)) continue;  // no sectional reference for this kernel
    for (Series* s : {&Ns, &dgs, &sgs}) s->x.push_back(x);
    Ns.y.push_back(m.number / p_.N0);
    dgs.y.push_back(m.d_g * 1e9);
    sgs.y.push_back(m.sigma_g);
    if (x >= 1.0 * (1 - 1e-9)) {  // eq. (13): mean relative error over the outputs in [tau_char, t_end]
      err_dg += std::abs(b.mean - m.d_g) / m.d_g;
      err_sg += std::abs(c.mean - m.sigma_g) / m.sigma_g;
      ++err_points;
    }
  }

  const EnsembleSums now = current_sums();
  for (Series* s : {&N, &dg, &sg, &Ns, &dgs, &sgs}) s->log_x = true;  // outputs log-spaced in time
  snap.series = {N, dg, sg, Ns, dgs, sgs, now.histogram};
  if (!sectional_sizes_.empty()) {  // the reference distribution now, and where it started
    snap.series.push_back(sectional_sizes_[std::min<std::size_t>(iteration_, sectional_sizes_.size() - 1)]);
    snap.series.push_back(sectional_initial_);
  }

  const double vol = now.volume;
  snap.diagnostics = {{"tau_char_s", tau_},
                      {"events", events_},
                      {"runs", p_.n_runs},
                      {"simulation_particles", n},
                      {"box_volume_m3", cfg_.box_volume},
                      {"volume_fraction_relative_change", initial_volume_ > 0 ? (vol - initial_volume_) / initial_volume_ : 0.0},
                      {"eq13_points", err_points}};
  if (err_points > 0) {
    snap.diagnostics["eq13_mean_error_d_g"] = err_dg / err_points;
    snap.diagnostics["eq13_mean_error_sigma_g"] = err_sg / err_points;
  }
  return snap;
}

std::size_t CoagulationMethod::write_display(int field, int component, void* device_dst, std::size_t capacity) const {
  if (!solver_ || component > 0) return 0;
  const bool diameter = field == 0;  // else "weight"
  return solver_->write_particles(diameter, std::cbrt(cfg_.box_volume), kPurposePosition, device_dst, capacity);
}

void CoagulationMethod::save_body(std::ostream& out) const {
  bin::write<std::int32_t>(out, iteration_);
  bin::write<std::uint64_t>(out, events_);
  bin::write<double>(out, initial_volume_);
  bin::write_vector(out, t_out_);
  bin::write_vector(out, next_out_);
  bin::write<std::int32_t>(out, ens_.n_runs);
  bin::write_vector(out, ens_.v);
  bin::write_vector(out, ens_.w);
  bin::write_vector(out, ens_.C);
  bin::write_vector(out, ens_.t);
  bin::write_vector(out, ens_.events);
  bin::write_vector(out, ens_.since_refresh);
  bin::write<std::uint64_t>(out, stats_.size());
  for (const auto& per_output : stats_) bin::write_vector(out, per_output);
}

void CoagulationMethod::load_body(std::istream& in) {
  // Read and check everything against the set-up first: a refused state leaves the method as it was.
  const auto refuse = [](const std::string& what, const std::string& allowed) {
    return bad_input("checkpoint", "the aerosol.coagulation state has " + what, allowed);
  };
  const int runs = ens_.n_runs;
  const std::uint64_t count = std::uint64_t(runs) * std::uint64_t(cfg_.n_s);
  const int iteration = bin::read<std::int32_t>(in);
  const std::uint64_t events = bin::read<std::uint64_t>(in);
  const double initial_volume = bin::read<double>(in);
  if (!(initial_volume > 0.0 && std::isfinite(initial_volume)))
    throw refuse("an initial volume fraction of " + format_number(initial_volume), "a finite volume fraction > 0");
  std::vector<double> t_out = bin::read_vector<double>(in);
  // From 0, increasing, to t_end (a restart sets up with the checkpoint's t_end, live changes included).
  const double t_end = t_out_.back();
  if (t_out.size() < 2 || t_out[0] != 0.0 || !(std::abs(t_out.back() - t_end) <= 1e-9 * t_end))
    throw refuse(std::to_string(t_out.size()) + " output times from " + format_number(t_out.empty() ? 0.0 : t_out[0] / tau_) + " to " +
                     format_number(t_out.empty() ? 0.0 : t_out.back() / tau_) + " tau_char",
                 "output times from 0 to the set-up's t_end = " + format_number(t_end / tau_) + " tau_char");
  for (std::size_t k = 1; k < t_out.size(); ++k)
    if (!(t_out[k] > t_out[k - 1]))
      throw refuse(
          "output " + std::to_string(k) + " at " + format_number(t_out[k] / tau_) + " tau_char after " + format_number(t_out[k - 1] / tau_),
          "increasing output times");
  if (iteration < 0 || iteration >= int(t_out.size()))
    throw refuse("iteration " + std::to_string(iteration) + " of " + std::to_string(t_out.size()) + " output times",
                 "0 to " + std::to_string(t_out.size() - 1) + " (the outputs reached)");
  // A checkpoint of other n_runs or n_s shows in the lengths of the per-run and per-particle arrays,
  // refused naming them before the arrays are read.
  const auto mismatch = [&](const std::string& what) {
    return bad_input("checkpoint", "the aerosol.coagulation state does not match its parameters (n_s, n_runs): it has " + what,
                     "n_runs x n_s = " + std::to_string(runs) + " x " + std::to_string(cfg_.n_s) +
                         " as set up (a checkpoint of the same n_s and n_runs)");
  };
  if (const std::uint64_t n = peek_length(in, std::uint64_t(runs)); n != std::uint64_t(runs))
    throw mismatch(std::to_string(n) + " next outputs (one per run)");
  std::vector<int> next_out = bin::read_vector<int>(in, std::uint64_t(runs));
  const int n_runs = bin::read<std::int32_t>(in);
  if (n_runs != runs || next_out.size() != std::size_t(runs))
    throw mismatch(std::to_string(n_runs) + " runs and " + std::to_string(next_out.size()) + " next outputs");
  // Every run has reached the current output but those added since the last advance (at the end,
  // still at output 0): the next outputs do not increase from run to run.
  for (int r = 0; r < runs; ++r)
    if (next_out[r] < 1 || next_out[r] > iteration + 1 || (r > 0 && next_out[r] > next_out[r - 1]))
      throw refuse(
          "next output " + std::to_string(next_out[r]) + " for run " + std::to_string(r) + " at iteration " + std::to_string(iteration),
          "1 to iteration + 1, not increasing from run to run");
  Ensemble e;
  e.n_runs = n_runs;
  if (const std::uint64_t n = peek_length(in, count); n != count) throw mismatch(std::to_string(n) + " particle volumes");
  e.v = bin::read_vector<double>(in, count);
  e.w = bin::read_vector<double>(in, count);
  e.C = bin::read_vector<double>(in, count);
  if (e.v.size() != count || e.w.size() != count || e.C.size() != count)
    throw mismatch(std::to_string(e.v.size()) + ", " + std::to_string(e.w.size()) + " and " + std::to_string(e.C.size()) +
                   " values of v, w and C'");
  for (std::uint64_t k = 0; k < count; ++k)
    if (!(e.v[k] > 0.0 && e.w[k] > 0.0 && e.C[k] >= 0.0 && std::isfinite(e.v[k]) && std::isfinite(e.w[k]) && std::isfinite(e.C[k])))
      throw refuse("particle " + std::to_string(k % cfg_.n_s) + " of run " + std::to_string(k / cfg_.n_s) + " with v = " +
                       format_number(e.v[k]) + " m^3, w = " + format_number(e.w[k]) + ", C' = " + format_number(e.C[k]) + " m^3/s",
                   "finite v > 0, w > 0 and C' >= 0");
  e.t = bin::read_vector<double>(in, std::uint64_t(runs));
  e.events = bin::read_vector<std::uint64_t>(in, std::uint64_t(runs));
  e.since_refresh = bin::read_vector<std::uint64_t>(in, std::uint64_t(runs));
  if (e.t.size() != std::size_t(runs) || e.events.size() != std::size_t(runs) || e.since_refresh.size() != std::size_t(runs))
    throw refuse(std::to_string(e.t.size()) + ", " + std::to_string(e.events.size()) + " and " + std::to_string(e.since_refresh.size()) +
                     " run times, event counts and events since a refresh",
                 "n_runs = " + std::to_string(runs) + " of each");
  for (int r = 0; r < runs; ++r) {
    // A run stops before the event that would pass its target, the output it reached last.
    const double reached = t_out[next_out[r] - 1];
    if (!(e.t[r] >= 0.0 && e.t[r] <= reached))
      throw refuse(
          "run " + std::to_string(r) + " at " + format_number(e.t[r] / tau_) + " tau_char after output " + std::to_string(next_out[r] - 1),
          "a time from 0 to that output's " + format_number(reached / tau_) + " tau_char");
    // The GPU refreshes at the event after the count is reached: at most refresh_every (4 n_s).
    if (e.since_refresh[r] > std::uint64_t(cfg_.refresh_every))
      throw refuse(std::to_string(e.since_refresh[r]) + " events since the last refresh of C' in run " + std::to_string(r),
                   "at most 4 n_s = " + std::to_string(cfg_.refresh_every));
  }
  const auto outputs = bin::read<std::uint64_t>(in);
  if (outputs != t_out.size())
    throw refuse("statistics of " + std::to_string(outputs) + " outputs for " + std::to_string(t_out.size()) + " output times",
                 "one set per output time");
  std::vector<std::vector<RunStatistics>> stats(outputs);
  for (std::size_t k = 0; k < stats.size(); ++k) {
    stats[k] = bin::read_vector<RunStatistics>(in, std::uint64_t(std::max(runs, p_.n_runs)));  // all ranks' runs
    // Output k holds the statistics of the runs that passed it: the first ones, as next_out does not
    // increase; across ranks (n_runs fixed) every run of every rank up to the current output.
    const auto passed = ranks_of(ctx_).size() > 1
                            ? (int(k) <= iteration ? std::size_t(p_.n_runs) : 0)
                            : std::size_t(std::count_if(next_out.begin(), next_out.end(), [k](int next) { return next > int(k); }));
    if (stats[k].size() != passed)
      throw refuse("statistics of " + std::to_string(stats[k].size()) + " runs at output " + std::to_string(k),
                   "those of the " + std::to_string(passed) + " runs whose next output is after it");
    for (const RunStatistics& s : stats[k])
      if (!std::isfinite(s.number) || !std::isfinite(s.d_g) || !std::isfinite(s.sigma_g))
        throw refuse("non-finite statistics at output " + std::to_string(k), "finite N, d_g and sigma_g");
  }
  // The sectional reference depends on the output times alone: solved again only where they differ.
  const bool same_outputs = t_out == t_out_;
  iteration_ = iteration;
  events_ = events;
  initial_volume_ = initial_volume;
  t_out_ = std::move(t_out);
  next_out_ = std::move(next_out);
  ens_ = std::move(e);
  stats_ = std::move(stats);
  if (!same_outputs) solve_sectional();
  solver_->load(ens_, ens_.n_runs);  // the CUDA solver's device copy; no rates to compute
  share_ensemble_sums();
}

}  // namespace ks::coag
