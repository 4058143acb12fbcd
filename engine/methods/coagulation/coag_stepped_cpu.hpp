// The host side of majorant trials in parallel steps (coag_stepped.hpp): a run's trees in host memory,
// their rebuild and the CPU loop, the reference the GPU's steps repeat trial for trial.
#pragma once

#include <cstdint>
#include <vector>

#include "core/interrupt.hpp"
#include "coag_stepped.hpp"

namespace ks::coag {

struct HostTrees {
  std::vector<std::uint64_t> tree, total;
  std::vector<int> base;
  ParticleTrees view(int n);
};

// Every sampler's tree over particles [0, n) from scratch, its window from the largest value (the
// GPU's rebuild gives the same trees).
void rebuild_trees(HostTrees& h, const Majorant& m, const ParticleAux* aux, const double* w, int n);

// advance_run_cpu() (coag_cpu.hpp) with selection stepped.
std::uint64_t advance_run_stepped_cpu(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                                      const Interrupt& stop = {});

}  // namespace ks::coag
