// Backend selection: auto picks CUDA only when a device is usable; cuda without
// one is a clear error; cpu always works (OpenMP).
#pragma once

#include <memory>
#include <string>

#include "communicator.hpp"
#include "interrupt.hpp"

namespace ks {

enum class BackendKind { Cpu, Cuda };
enum class BackendRequest { Auto, Cpu, Cuda };

struct ExecutionContext {
  BackendKind backend = BackendKind::Cpu;
  int cuda_device = -1;
  std::string device_name;  // "NVIDIA H100 80GB HBM3" or "CPU, 16 threads"
  int cpu_threads = 1;
  // `auto` in a CUDA build that fell back to the CPU: why, in one line ("" otherwise).
  std::string cuda_unused_reason;
  // The ranks sharing the run (MPI); null: this process alone.
  std::shared_ptr<const Communicator> comm;
  // Under MPI: a snapshot's grid fields stay in per-rank pieces (Grid::piece) where the method splits
  // its grid, instead of being gathered on rank 0 (kinetic-run --pieces).
  bool field_pieces = false;
  // The Runner's requests to stop long work early, and where that work has got to (interrupt.hpp).
  // Honoured only in one process: under MPI the ranks stop where they agree (pause_after_iteration).
  Interrupt interrupt;
};

// ctx.comm, or the one process.
const Communicator& ranks_of(const ExecutionContext& ctx);

BackendRequest parse_backend(const std::string& text, const std::string& where);
std::string to_string(BackendKind b);
std::string to_string(BackendRequest b);

// Whether this build has CUDA paths and, if so, a usable device (with the reason when not).
struct CudaAvailability {
  bool compiled = false;
  bool usable = false;
  int device = -1;
  std::string device_name;
  std::string reason;  // why not usable
};
// The first usable device from `first` on (modulo the device count), then the others.
CudaAvailability query_cuda(int first = 0);

// Auto uses CUDA only on a device that ran this build's probe kernel (core/cuda_probe.hpp); else
// the CPU, with the reason in cuda_unused_reason. Throws backend_unavailable for Cuda when no device
// is usable. `device_slot`: which device to try first (an MPI rank's local rank; modulo the count).
ExecutionContext resolve_backend(BackendRequest request, int device_slot = 0);

}  // namespace ks
