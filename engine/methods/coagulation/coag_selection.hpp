// aerosol.coagulation's four ways of choosing an event's pair, in one table: what each keeps, which
// kernels it has a bound for, what it costs in memory and which CPU loop runs it (the GPU's launches
// are the same table's other half, in coag_cuda.cu). The parameter `selection` is decided here.
//   prefix    the paper's inverse transform on cumulative sums of C' (eq. 5a, 5b): coag_rates_cpu.cpp,
//             coag_cuda_prefix_loop.cu
//   rejection acceptance-rejection against a bound, no sums (coag_rejection.hpp): coag_rates_cpu.cpp,
//             coag_cuda_rejection_loop.cu
//   majorant  trials against a majorant kernel, no C' (coag_majorant.hpp): coag_majorant_cpu.cpp,
//             coag_cuda_majorant_loop.cu
//   stepped   the majorant's trials K at a time in parallel steps (coag_stepped.hpp):
//             coag_stepped_cpu.cpp, coag_cuda_stepped_loop.cu
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "coag_model.hpp"
#include "core/interrupt.hpp"

namespace ks::coag {

enum class Selection : int { Prefix = 0, Rejection = 1, Majorant = 2, Stepped = 3 };

struct Ensemble;
struct EnsembleConfig;

// Advances run `run` by events until the next would pass t_target, max_events are done or `stop` is
// requested; returns the events done (coag_cpu.hpp: advance_run_cpu).
using AdvanceRunCpu = std::uint64_t (*)(Ensemble& e, int run, const EnsembleConfig& cfg, double t_target, std::uint64_t max_events,
                                        const Interrupt& stop);

struct SelectionStrategy {
  const char* name;                 // the value of the parameter `selection`
  bool keeps_rates;                 // every particle's C' is kept (and recomputed every refresh_every events)
  bool (*supports)(KernelKind);     // a bound exists for the kernel
  std::int64_t bytes_per_particle;  // beyond the particles' own: the samplers' places or trees (device, and each CPU thread)
  std::int64_t bytes_per_run;       // the samplers' classes and bases (device)
  AdvanceRunCpu advance_cpu;
};

const SelectionStrategy& strategy(Selection s);
inline bool keeps_rates(Selection s) { return strategy(s).keeps_rates; }
inline const char* selection_name(Selection s) { return strategy(s).name; }
// Every selection in the table's order, and their names: the parameter's choices.
std::vector<Selection> all_selections();
std::vector<std::string> selection_names();

}  // namespace ks::coag
