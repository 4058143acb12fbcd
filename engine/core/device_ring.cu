#include "device_ring.hpp"

#include <cstdlib>

#include "device_peer.hpp"

namespace ks {

namespace {

constexpr int kPrev = 0, kNext = 1;  // sides; inbox_[side]: what the neighbour on that side sends

// What a rank tells a neighbour at construction: where it runs and the receive buffers that
// neighbour writes into.
struct Introduction {
  DevicePlace place;
  cudaIpcMemHandle_t inbox[2] = {};
};

void copy_rows(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width, std::size_t rows,
               cudaStream_t stream) {
  if (!width || !rows) return;  // a plane without fluid nodes (the fused LBM step's rows)
  KS_CUDA_CHECK(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, rows, cudaMemcpyDefault, stream));
}

}  // namespace

DeviceRing::DeviceRing(const Communicator& comm, int device, std::size_t bytes, bool has_prev, bool has_next)
    : comm_(comm), bytes_(bytes), has_{has_prev, has_next} {
  KS_CUDA_CHECK(cudaSetDevice(device));
  Introduction mine;
  mine.place = DevicePlace::of(device);
  // To prev go the handles of the buffers prev writes into (inbox_[kPrev]); to next, inbox_[kNext].
  Introduction to[2] = {mine, mine}, from[2];
  for (int side : {kPrev, kNext})
    for (int t = 0; t < 2 && has_[side]; ++t) {
      inbox_[side][t].resize(bytes);
      KS_CUDA_CHECK(cudaIpcGetMemHandle(&to[side].inbox[t], inbox_[side][t].ptr));
    }
  comm_.ring_exchange(has_prev ? &to[kPrev] : nullptr, has_next ? &to[kNext] : nullptr, has_prev ? &from[kPrev] : nullptr,
                      has_next ? &from[kNext] : nullptr, sizeof(Introduction));
  // from[kPrev] holds prev's buffers for what comes from its next (this rank): this rank's to_prev.
  bool can = std::getenv("KS_HALOS_THROUGH_HOST") == nullptr;  // the fallback, forced (a test, a misbehaving driver)
  for (int side : {kPrev, kNext}) {
    if (!has_[side] || !can) continue;
    can = can && reaches(device, mine.place, from[side].place);
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
  const DeviceRows* out[2] = {&to_prev, &to_next};
  const DeviceRows* in[2] = {&from_prev, &from_next};
  // Device to device: the rows go into the neighbours' inboxes of this turn and MPI carries one byte
  // per side that says they are there. A neighbour writes inbox turn t again two exchanges later,
  // after this rank's byte of the next one, which it sends once the copies out of the inbox (queued
  // below) are done. Through the host: the rows themselves go through MPI.
  const int t = turn_;
  turn_ ^= 1;
  char sent[2] = {1, 1}, got[2] = {0, 0};
  void* arrive[2] = {};                            // where the neighbours' rows arrive
  void *message_out[2] = {}, *message_in[2] = {};  // what MPI carries: a byte, or the rows
  for (int side : {kPrev, kNext}) {
    if (!has_[side]) continue;
    void* dst = direct_ ? peer_inbox_[side][t] : out_.ptr + side * bytes_;  // where this rank's rows go
    arrive[side] = direct_ ? static_cast<void*>(inbox_[side][t].ptr) : in_.ptr + side * bytes_;
    message_out[side] = direct_ ? &sent[side] : dst;
    message_in[side] = direct_ ? &got[side] : arrive[side];
    copy_rows(dst, out[side]->width, out[side]->ptr, out[side]->pitch, out[side]->width, out[side]->rows, stream);
  }
  KS_CUDA_CHECK(cudaStreamSynchronize(stream));
  comm_.ring_exchange(message_out[kPrev], message_out[kNext], message_in[kPrev], message_in[kNext], direct_ ? 1 : bytes_);
  for (int side : {kPrev, kNext})
    if (has_[side]) copy_rows(in[side]->ptr, in[side]->pitch, arrive[side], in[side]->width, in[side]->width, in[side]->rows, stream);
}

}  // namespace ks
