#include "device_ring.hpp"

#include <unistd.h>

#include <cstring>

namespace ks {

namespace {

constexpr int kPrev = 0, kNext = 1;  // sides; inbox_[side]: what the neighbour on that side sends

// What a rank tells a neighbour at construction: where it runs and the receive buffers that
// neighbour writes into.
struct Introduction {
  char host[64] = {};
  char bus_id[32] = {};  // PCI bus id of the device: ordinals differ between processes that see other devices
  cudaIpcMemHandle_t inbox[2] = {};
};

bool same_host(const Introduction& a, const Introduction& b) { return std::strncmp(a.host, b.host, sizeof a.host) == 0; }

// Whether this rank's device can write into the memory of the device `their` names.
bool reaches(int device, const Introduction& mine, const Introduction& their) {
  if (!same_host(mine, their)) return false;
  if (std::strncmp(mine.bus_id, their.bus_id, sizeof mine.bus_id) == 0) return true;
  int peer = -1, can = 0;
  if (cudaDeviceGetByPCIBusId(&peer, their.bus_id) != cudaSuccess) return cudaGetLastError(), false;
  return cudaDeviceCanAccessPeer(&can, device, peer) == cudaSuccess && can;
}

void copy_rows(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width, std::size_t rows, cudaStream_t stream) {
  KS_CUDA_CHECK(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, cudaMemcpyDefault, stream));
}

}  // namespace

DeviceRing::DeviceRing(const Communicator& comm, int device, std::size_t bytes, bool has_prev, bool has_next)
    : comm_(comm), bytes_(bytes), has_prev_(has_prev), has_next_(has_next) {
  KS_CUDA_CHECK(cudaSetDevice(device));
  Introduction mine;
  gethostname(mine.host, sizeof mine.host - 1);
  KS_CUDA_CHECK(cudaDeviceGetPCIBusId(mine.bus_id, sizeof mine.bus_id, device));
  // To prev go the handles of the buffers prev writes into (inbox_[kPrev]); to next, inbox_[kNext].
  Introduction to[2] = {mine, mine}, from[2];
  for (int side : {kPrev, kNext})
    for (int t = 0; t < 2; ++t) {
      inbox_[side][t].resize(bytes);
      KS_CUDA_CHECK(cudaIpcGetMemHandle(&to[side].inbox[t], inbox_[side][t].ptr));
    }
  comm_.ring_exchange(has_prev ? &to[kPrev] : nullptr, has_next ? &to[kNext] : nullptr, has_prev ? &from[kPrev] : nullptr,
                      has_next ? &from[kNext] : nullptr, sizeof(Introduction));
  // from[kPrev] holds prev's buffers for what comes from its next (this rank): this rank's to_prev.
  bool can = true;
  for (int side : {kPrev, kNext}) {
    if (!(side == kPrev ? has_prev : has_next)) continue;
    can = can && reaches(device, mine, from[side]);
    for (int t = 0; t < 2 && can; ++t) {
      if (cudaIpcOpenMemHandle(&peer_inbox_[side][t], from[side].inbox[t], cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
        cudaGetLastError();
        peer_inbox_[side][t] = nullptr;
        can = false;
      }
    }
  }
  direct_ = comm_.all_max(can ? 0 : 1) == 0;
  if (!direct_) {
    for (auto& side : peer_inbox_)
      for (void*& p : side)
        if (p) cudaIpcCloseMemHandle(p), p = nullptr;
    for (auto& side : inbox_)
      for (auto& b : side) b.release();
    out_.resize(2 * bytes);
    in_.resize(2 * bytes);
  }
}

DeviceRing::~DeviceRing() {
  for (auto& side : peer_inbox_)
    for (void* p : side)
      if (p) cudaIpcCloseMemHandle(p);
}

void DeviceRing::exchange(const DeviceRows& to_prev, const DeviceRows& to_next, const DeviceRows& from_prev, const DeviceRows& from_next,
                          cudaStream_t stream) {
  if (direct_) exchange_direct(to_prev, to_next, from_prev, from_next, stream);
  else exchange_staged(to_prev, to_next, from_prev, from_next, stream);
}

void DeviceRing::exchange_direct(const DeviceRows& to_prev, const DeviceRows& to_next, const DeviceRows& from_prev,
                                 const DeviceRows& from_next, cudaStream_t stream) {
  const int t = turn_;
  turn_ ^= 1;
  if (has_prev_) copy_rows(peer_inbox_[kPrev][t], to_prev.width, to_prev.ptr, to_prev.pitch, to_prev.width, to_prev.rows, stream);
  if (has_next_) copy_rows(peer_inbox_[kNext][t], to_next.width, to_next.ptr, to_next.pitch, to_next.width, to_next.rows, stream);
  KS_CUDA_CHECK(cudaStreamSynchronize(stream));
  // The rows this rank wrote are in the neighbours' inboxes; theirs are in this rank's once their
  // byte has come. A neighbour writes inbox turn t again two exchanges later, after this rank's
  // byte of the next one, which it sends once the copies below (queued before) are done.
  char sent[2] = {1, 1}, got[2] = {0, 0};
  comm_.ring_exchange(has_prev_ ? &sent[kPrev] : nullptr, has_next_ ? &sent[kNext] : nullptr, has_prev_ ? &got[kPrev] : nullptr,
                      has_next_ ? &got[kNext] : nullptr, 1);
  if (has_prev_)
    copy_rows(from_prev.ptr, from_prev.pitch, inbox_[kPrev][t].ptr, from_prev.width, from_prev.width, from_prev.rows, stream);
  if (has_next_)
    copy_rows(from_next.ptr, from_next.pitch, inbox_[kNext][t].ptr, from_next.width, from_next.width, from_next.rows, stream);
}

void DeviceRing::exchange_staged(const DeviceRows& to_prev, const DeviceRows& to_next, const DeviceRows& from_prev,
                                 const DeviceRows& from_next, cudaStream_t stream) {
  unsigned char *out_prev = out_.ptr, *out_next = out_.ptr + bytes_, *in_prev = in_.ptr, *in_next = in_.ptr + bytes_;
  if (has_prev_) copy_rows(out_prev, to_prev.width, to_prev.ptr, to_prev.pitch, to_prev.width, to_prev.rows, stream);
  if (has_next_) copy_rows(out_next, to_next.width, to_next.ptr, to_next.pitch, to_next.width, to_next.rows, stream);
  KS_CUDA_CHECK(cudaStreamSynchronize(stream));
  comm_.ring_exchange(has_prev_ ? out_prev : nullptr, has_next_ ? out_next : nullptr, has_prev_ ? in_prev : nullptr,
                      has_next_ ? in_next : nullptr, bytes_);
  if (has_prev_) copy_rows(from_prev.ptr, from_prev.pitch, in_prev, from_prev.width, from_prev.width, from_prev.rows, stream);
  if (has_next_) copy_rows(from_next.ptr, from_next.pitch, in_next, from_next.width, from_next.width, from_next.rows, stream);
}

}  // namespace ks
