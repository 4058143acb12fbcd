// The inverse Monte Carlo event loop on the GPU (Wei & Kruis 2013, section 3,
// Algorithms 1-3). Host interface only: no CUDA types here.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "coag_ensemble.hpp"
#include "core/interrupt.hpp"

namespace ks::coag {

class CudaEnsemble {
 public:
  explicit CudaEnsemble(int device);
  ~CudaEnsemble();
  CudaEnsemble(const CudaEnsemble&) = delete;
  CudaEnsemble& operator=(const CudaEnsemble&) = delete;

  void upload(const Ensemble& e, const EnsembleConfig& cfg);  // (re)allocates for e.n_runs runs
  // Thread blocks (one cluster, up to 16 SMs) per run; 0 chooses from the runs, n_s and the GPU.
  // Takes effect at the next upload.
  void set_cluster_size(int blocks_per_run);
  int cluster_size() const;
  // 16 where the device and this build's code have thread-block clusters (sm_90), else 1.
  int max_cluster_size() const;
  // Particles a block keeps in shared memory at most on this device (3200 on Hopper).
  int max_resident_particles() const;
  void download(Ensemble& e) const;  // every array, all runs
  // C' of every particle of runs first_run.. from eq. (2) on the device (Algorithm 1), e.g.
  // after uploading particles initialised without rates.
  void recompute_rates(int first_run = 0);
  // Advances every run to its own target on the device, the whole event loop in one
  // kernel launch per batch of events, `stop` checked between launches; returns the number of
  // events done.
  std::uint64_t advance(const std::vector<double>& t_target, std::uint64_t max_events_per_launch, const Interrupt& stop = {});
  // One launch: every run does events until t_target or max_events; returns the events done and
  // sets all_reached when no run stopped on max_events.
  // Run 0's particles as float4 (x, y, z, value) for a zero-copy view: positions from the same
  // Philox draws as the host snapshot, value = diameter (nm) or weight. Queued on the default stream.
  void write_particles(bool diameter, double box_side, std::uint32_t position_purpose, void* dst) const;
  std::uint64_t launch(const std::vector<double>& t_target, std::uint64_t max_events, bool& all_reached);

  struct Device;  // the device arrays and launch choices, defined in coag_cuda.cu

 private:
  std::unique_ptr<Device> d_;
};

}  // namespace ks::coag
