// The CUDA solver behind CoagSolver: the device ensemble (coag_cuda_ensemble.hpp) kept between calls,
// the host copy brought up to date after each.
#include <memory>

#include "coag_solver.hpp"
#include "coag_cuda_ensemble.hpp"

namespace ks::coag {

namespace {

class CudaSolver final : public CoagSolver {
 public:
  CudaSolver(const EnsembleConfig& cfg, int device, std::uint64_t max_events_per_launch)
      : cfg_(cfg), gpu_(device), max_events_per_launch_(max_events_per_launch) {}

  void load(Ensemble& e, int first_new_run) override {
    gpu_.upload(e, cfg_);
    if (first_new_run >= e.n_runs || !keeps_rates(cfg_.selection)) return;
    gpu_.recompute_rates(first_new_run);  // Algorithm 1 for the new runs
    gpu_.download(e);                     // the host copy holds C' too (checkpoints, snapshots)
  }

  std::uint64_t advance(Ensemble& e, const std::vector<double>& t_target, const Interrupt& stop) override {
    const std::uint64_t events = gpu_.advance(t_target, max_events_per_launch_, stop);
    gpu_.download(e);
    return events;
  }

  std::size_t write_particles(bool diameter, double box_side, std::uint32_t position_purpose, void* dst,
                              std::size_t capacity) const override {
    const std::size_t bytes = std::size_t(cfg_.n_s) * 4 * sizeof(float);
    if (!dst) return bytes;
    if (capacity < bytes) return 0;
    gpu_.write_particles(diameter, box_side, position_purpose, dst);
    return bytes;
  }

 private:
  EnsembleConfig cfg_;
  CudaEnsemble gpu_;
  std::uint64_t max_events_per_launch_;
};

}  // namespace

std::unique_ptr<CoagSolver> make_cuda_solver(const EnsembleConfig& cfg, int device, std::uint64_t max_events_per_launch) {
  return std::make_unique<CudaSolver>(cfg, device, max_events_per_launch);
}

}  // namespace ks::coag
