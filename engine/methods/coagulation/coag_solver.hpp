// aerosol.coagulation: one interface over the CPU and CUDA event loops, so the method, the tests and
// the benchmark drive either the same way. The host Ensemble is the state: a solver advances it and
// leaves it current on return (the CUDA solver keeps a device copy between calls).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "coag_ensemble.hpp"
#include "core/interrupt.hpp"

namespace ks::coag {

class CoagSolver {
 public:
  virtual ~CoagSolver() = default;
  // Takes `e` as the state (all runs): C' of the runs from `first_new_run` on is computed here from
  // eq. (2) (Algorithm 1 on the GPU), the others keep theirs; `e` holds every C' on return.
  virtual void load(Ensemble& e, int first_new_run) = 0;
  // Advances every run to its own target (events until the next would pass it), or until `stop` is
  // requested (each run stands after an event of its own; the next call takes it on); `e` holds the
  // result. Returns the number of events done.
  virtual std::uint64_t advance(Ensemble& e, const std::vector<double>& t_target, const Interrupt& stop) = 0;
  // Run 0's particles as float4 (x, y, z, value) into device memory for a zero-copy view (value =
  // diameter in nm or weight; positions from the host snapshot's Philox draws of `position_purpose`):
  // the bytes written, or needed when dst is null; 0 where not supported (the CPU).
  virtual std::size_t write_particles(bool diameter, double box_side, std::uint32_t position_purpose, void* dst,
                                      std::size_t capacity) const {
    (void)diameter, (void)box_side, (void)position_purpose, (void)dst, (void)capacity;
    return 0;
  }
};

std::unique_ptr<CoagSolver> make_cpu_solver(const EnsembleConfig& cfg);
// `max_events_per_launch` bounds one kernel launch (the host checks for failed runs between them).
std::unique_ptr<CoagSolver> make_cuda_solver(const EnsembleConfig& cfg, int device, std::uint64_t max_events_per_launch);

}  // namespace ks::coag
