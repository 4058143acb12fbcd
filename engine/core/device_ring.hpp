// The halo exchange of Communicator::ring_exchange for rows that live in device memory (include
// from .cu files only). When every rank's neighbours run on its node with devices that reach each
// other (NVLink or PCIe peer access, or the same device), the rows go from device to device: each
// rank maps its neighbours' receive buffers once (CUDA IPC) and copies into them, and a one-byte
// message per side says they have arrived. Otherwise (ranks on several nodes, devices without peer
// access) every rank stages its rows through page-locked host memory and the communicator. All the
// ranks take the same path (agreed at construction), so neighbours always match. The environment
// variable KS_HALOS_THROUGH_HOST (any value) forces the host path.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "communicator.hpp"
#include "device_buffer.hpp"

namespace ks {

// A region of rows on this rank's device: `rows` runs of `width` bytes, `pitch` bytes apart.
struct DeviceRows {
  void* ptr = nullptr;
  std::size_t pitch = 0, width = 0, rows = 0;
  std::size_t bytes() const { return width * rows; }
};

class DeviceRing {
 public:
  // A collective of the ring's ranks (every rank constructs one with the same `bytes`, the size of
  // each side's rows). `has_prev` / `has_next`: whether this rank exchanges with rank - 1 / rank + 1
  // (an open chain leaves out the wrap, as ring_exchange's null sides).
  DeviceRing(const Communicator& comm, int device, std::size_t bytes, bool has_prev, bool has_next);
  ~DeviceRing();
  DeviceRing(const DeviceRing&) = delete;
  DeviceRing& operator=(const DeviceRing&) = delete;

  // Sends `to_prev` to rank - 1 and `to_next` to rank + 1 and writes what they sent into `from_prev`
  // and `from_next` (all regions of this device, `bytes` each; sides without a neighbour ignored).
  // The copies follow the work already queued on `stream`; returns when the received rows are in
  // place on `stream` (later work on it sees them).
  void exchange(const DeviceRows& to_prev, const DeviceRows& to_next, const DeviceRows& from_prev, const DeviceRows& from_next,
                cudaStream_t stream);

 private:
  const Communicator& comm_;
  std::size_t bytes_;
  bool has_[2];  // a neighbour below (rank - 1), above (rank + 1)
  bool direct_ = false;
  // Device to device: this rank's receive buffers from prev / next, two of each used in turn (a
  // neighbour may write the next exchange's rows while this rank still reads the last ones), and
  // the neighbours' mapped receive buffers that this rank writes into.
  DeviceBuffer<unsigned char> inbox_[2][2];
  void* peer_inbox_[2][2] = {};
  int turn_ = 0;
  // Through the host.
  PinnedBuffer<unsigned char> out_, in_;
};

}  // namespace ks
