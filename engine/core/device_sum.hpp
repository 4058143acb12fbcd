// Element-wise sums over the ranks of arrays that live in device memory (include from .cu files
// only). When every rank runs on one node with devices that reach each other, each rank copies its
// values into a buffer the others map (CUDA IPC) and every rank adds all the ranks' buffers in rank
// order: every rank gets the same bits, without a copy through the host. Otherwise (ranks on several
// nodes, devices without peer access, KS_SUMS_THROUGH_HOST set) direct() is false and the caller
// sums through the host (Communicator::all_sum). All the ranks agree on the path at construction.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <initializer_list>
#include <vector>

#include "communicator.hpp"
#include "device_buffer.hpp"

namespace ks {

// `count` doubles of this rank's device memory.
struct DeviceDoubles {
  double* ptr = nullptr;
  std::size_t count = 0;
};

class DeviceSum {
 public:
  // The most ranks a sum adds directly; more take the host's path.
  static constexpr int kMaxRanks = 16;

  // A collective of all the ranks of `comm`, each with the same `count`: the doubles a sum takes.
  DeviceSum(const Communicator& comm, int device, std::size_t count);
  ~DeviceSum();
  DeviceSum(const DeviceSum&) = delete;
  DeviceSum& operator=(const DeviceSum&) = delete;

  bool direct() const { return direct_; }
  // A collective (direct() only): replaces each array of `parts` (together `count` doubles, on this
  // rank's device) with its element-wise sum over the ranks, after the work already queued on
  // `stream`; returns when the sums are in place.
  void sum(std::initializer_list<DeviceDoubles> parts, cudaStream_t stream);

 private:
  const Communicator& comm_;
  std::size_t count_;
  bool direct_ = false;
  DeviceBuffer<double> outbox_;      // this rank's values, which every rank reads
  std::vector<const double*> from_;  // every rank's outbox, in rank order (this rank's own included)
  std::vector<void*> opened_;        // the peers' outboxes this rank mapped
  DeviceBuffer<double> total_;       // the sums, before they go back into the parts
};

}  // namespace ks
