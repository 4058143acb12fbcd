// The GPU loop of majorant trials in parallel steps (coag_stepped.hpp): a thread a trial of the step,
// one thread block a run (K up to kBlockStepTrials) or one run over several blocks at a time, the
// trees of class bounds in global memory. Host interface for coag_cuda.cu.
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

// A step's stop, first accepted slot and kept trials across the blocks of a run (two steps' worth,
// by the step's parity), and whether a kept trial's value left its window.
struct GridStepCounts {
  int stop[2], first_accepted[2], kept[2], rebuild;
};

// What the steps of one run across several blocks (K above kBlockStepTrials) keep in global memory:
// per particle the step and first accepted slot that touched it (`touched`), the steps' clock, and the
// step's counts.
struct GridSteps {
  unsigned long long* touched;
  unsigned long long* clock;
  GridStepCounts* counts;
};

// The trees' device storage for n_runs runs of n_s particles, and the grid-wide steps' (allocated at
// the first launch with K above kBlockStepTrials; one run's worth, the runs take turns).
struct SteppedBuffers {
  DeviceBuffer<std::uint64_t> tree, total;
  DeviceBuffer<int> base, largest, flag;
  DeviceBuffer<unsigned long long> touched, clock;
  DeviceBuffer<GridStepCounts> counts;
  bool stale = true;  // rebuild every run before the next launch (set at upload and at each advance)
  void resize(int n_runs, int n_s, int samplers);
};

// One launch's steps for every run (until max_events each, or its target), with the rebuilds its
// trees need in between; returns the events done and sets all_reached when no run stopped on
// max_events. Throws RunFailed when a run accepted no trial in kMaxGroupTrials.
std::uint64_t launch_stepped(const SteppedArrays& a, SteppedBuffers& b, int n_runs, const EnsembleConfig& cfg, std::uint64_t max_events,
                             bool& all_reached);

// Run `run`'s steps across ceil(K / kBlockStepTrials) blocks (a cooperative launch, its grid-wide
// barriers between a step's phases) until its target, max_events or a rebuild; sets a.flag[run].
// Throws BadInput naming step_fraction when this GPU cannot hold the blocks at once.
void launch_grid_steps(const SteppedArrays& a, SteppedBuffers& b, int run, const EnsembleConfig& cfg, std::uint64_t max_events);

}  // namespace ks::coag::gpu
