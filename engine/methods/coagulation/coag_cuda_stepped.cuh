// The GPU loop of majorant trials in parallel steps (coag_stepped.hpp): one thread block a run, a
// thread a trial of the step, the trees of class bounds in global memory. Host interface for
// coag_cuda.cu.
#pragma once

#include <cstdint>

#include "coag_ensemble.hpp"
#include "core/device_buffer.hpp"

namespace ks::coag::gpu {

// A run's state the loop reads and writes, device pointers: the particles and per-run clocks of the
// ensemble, and the trees of every run (run r's sampler s at r * samplers + s).
struct SteppedArrays {
  double* v;
  double* w;
  ParticleAux* aux;
  double* t;
  unsigned long long* events;
  const double* t_target;
  unsigned long long* done;
  std::uint64_t* tree;   // n_s + 1 per sampler (1-based Fenwick trees)
  std::uint64_t* total;  // one per sampler
  int* base;             // one per sampler
  int* largest;          // one per sampler: the rebuild's largest class
  int* flag;             // per run: kKeepGoing, kRebuild (a value left its window) or kFailed
};

// The trees' device storage for n_runs runs of n_s particles.
struct SteppedBuffers {
  DeviceBuffer<std::uint64_t> tree, total;
  DeviceBuffer<int> base, largest, flag;
  bool stale = true;  // rebuild every run before the next launch (set at upload and at each advance)
  void resize(int n_runs, int n_s, int samplers);
};

// One launch's steps for every run (until max_events each, or its target), with the rebuilds its
// trees need in between; returns the events done and sets all_reached when no run stopped on
// max_events. Throws RunFailed when a run accepted no trial in kMaxGroupTrials.
std::uint64_t launch_stepped(const SteppedArrays& a, SteppedBuffers& b, int n_runs, const EnsembleConfig& cfg, std::uint64_t max_events,
                             bool& all_reached);

}  // namespace ks::coag::gpu
