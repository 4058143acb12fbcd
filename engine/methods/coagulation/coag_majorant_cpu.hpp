// The host side of selection against a majorant kernel (coag_majorant.hpp): a run's samplers in
// host memory, their rebuild and update, and the CPU event loop.
#pragma once

#include <cstdint>
#include <vector>

#include "core/interrupt.hpp"
#include "coag_majorant.hpp"

namespace ks::coag {

struct HostSamplers {
  std::vector<int> order, slot, start, base;
  std::vector<double> tree;
  SamplerSet view(int n);
};

// Every sampler of particles [0, n) from scratch: its window from the largest value, then the
// particles by class, each class in index order (the GPU's rebuild gives the same arrays).
void rebuild_samplers(HostSamplers& h, const Majorant& m, const ParticleAux* aux, const double* w, int n);

// An event's particle before and after coalesce().
struct ChangedParticle {
  int index;
  ParticleAux old_aux;
  double old_w;
  ParticleAux new_aux;
  double new_w;
};
// Moves the event's two particles to their new classes in every sampler (i, then j) and updates
// their trees; false, changing nothing, when a new value lies above its sampler's window.
bool update_samplers(const SamplerSet& set, const Majorant& m, const ChangedParticle (&p)[2]);

// advance_run_cpu() (coag_cpu.hpp) with selection majorant.
std::uint64_t advance_run_majorant_cpu(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                                       const Interrupt& stop = {});

}  // namespace ks::coag
