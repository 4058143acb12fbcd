// Where a rank's device is, for ranks that want to reach each other's device memory through CUDA IPC
// (core/device_ring, core/device_sum; include from .cu files only): the host and the PCI bus id, which
// every rank tells the others, and whether this rank's device can write into and read from another's.
#pragma once

#include <cuda_runtime.h>
#include <unistd.h>

#include <cstring>

#include "cuda_check.hpp"

namespace ks {

struct DevicePlace {
  char host[64] = {};
  char bus_id[32] = {};  // ordinals differ between processes that see other devices

  static DevicePlace of(int device) {
    DevicePlace p;
    gethostname(p.host, sizeof p.host - 1);
    KS_CUDA_CHECK(cudaDeviceGetPCIBusId(p.bus_id, sizeof p.bus_id, device));
    return p;
  }
  bool same_host(const DevicePlace& o) const { return std::strncmp(host, o.host, sizeof host) == 0; }
};

// Whether `device` (at `mine`) reaches the memory of the device at `their`: the same device, or a
// peer on the same host.
inline bool reaches(int device, const DevicePlace& mine, const DevicePlace& their) {
  if (!mine.same_host(their)) return false;
  if (std::strncmp(mine.bus_id, their.bus_id, sizeof mine.bus_id) == 0) return true;
  int peer = -1, can = 0;
  if (cudaDeviceGetByPCIBusId(&peer, their.bus_id) != cudaSuccess) return cudaGetLastError(), false;
  return cudaDeviceCanAccessPeer(&can, device, peer) == cudaSuccess && can;
}

}  // namespace ks
