// The GPU event loop with selection against a majorant kernel (coag_majorant.hpp): one warp a run,
// the lanes making a round's 32 trials at once, the samplers' class boundaries and cumulative bounds
// in shared memory and their particle orders in global memory. Host interface for coag_cuda.cu.
#pragma once

#include <cstdint>
#include <vector>

#include "coag_ensemble.hpp"
#include "core/device_buffer.hpp"

namespace ks::coag::gpu {

// A run's state the loop reads and writes, device pointers: the particles and per-run clocks of the
// ensemble, and the samplers of every run (run r's sampler s at r * samplers + s).
struct MajorantArrays {
  double* v;
  double* w;
  ParticleAux* aux;
  double* t;
  unsigned long long* events;
  unsigned long long* since_refresh;
  const double* t_target;
  unsigned long long* done;
  int* order;  // n_s per sampler
  int* slot;   // n_s per sampler
  int* start;  // kClasses + 1 per sampler
  int* base;   // one per sampler
  int* flag;   // per run: kKeepGoing, kRebuild (the loop stopped for a rebuild) or kFailed
};

// The samplers' device storage for n_runs runs of n_s particles.
struct MajorantBuffers {
  DeviceBuffer<int> order, slot, start, base, flag;
  bool stale = true;  // rebuild every run before the next launch (set at upload and at each advance)
  void resize(int n_runs, int n_s, int samplers);
};

// One launch's events for every run (up to max_events each, to its target), with the rebuilds
// its samplers need in between; returns the events done and sets all_reached when no run stopped
// on max_events. Throws RunFailed when a run accepted no trial in kMaxRounds rounds.
std::uint64_t launch_majorant(const MajorantArrays& a, MajorantBuffers& b, int n_runs, const EnsembleConfig& cfg, std::uint64_t max_events,
                              bool& all_reached);

}  // namespace ks::coag::gpu
