#include "coag_cpu.hpp"

#include "coag_solver.hpp"

namespace ks::coag {

std::uint64_t advance_run_cpu(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                              const Interrupt& stop) {
  return strategy(cfg.selection).advance_cpu(e, run, cfg, t_target, max_events, stop);
}

std::uint64_t advance_runs_cpu(Ensemble& e, const EnsembleConfig& cfg, const std::vector<double>& t_target,
                               std::uint64_t max_events_per_run, const Interrupt& stop) {
  // One run: no enclosing region, so its inner loops use the thread pool (an inner region nested
  // in an inactive outer one would start new threads for every event).
  if (e.n_runs == 1) return advance_run_cpu(e, 0, cfg, t_target[0], max_events_per_run, stop);
  std::uint64_t total = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : total)
  for (int r = 0; r < e.n_runs; ++r) total += advance_run_cpu(e, r, cfg, t_target[r], max_events_per_run, stop);
  return total;
}

namespace {

class CpuSolver final : public CoagSolver {
 public:
  explicit CpuSolver(const EnsembleConfig& cfg) : cfg_(cfg) {}
  void load(Ensemble& e, int first_new_run) override {
    if (!keeps_rates(cfg_.selection)) return;
    for (int r = first_new_run; r < e.n_runs; ++r) recompute_rates(e, r, cfg_);
  }
  std::uint64_t advance(Ensemble& e, const std::vector<double>& t_target, const Interrupt& stop) override {
    return advance_runs_cpu(e, cfg_, t_target, ~std::uint64_t(0), stop);
  }

 private:
  EnsembleConfig cfg_;
};

}  // namespace

std::unique_ptr<CoagSolver> make_cpu_solver(const EnsembleConfig& cfg) { return std::make_unique<CpuSolver>(cfg); }

}  // namespace ks::coag
