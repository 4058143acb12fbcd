#include "device_sum.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "device_peer.hpp"

namespace ks {

namespace {

// What a rank tells the others at construction: where it runs and its outbox.
struct Introduction {
  DevicePlace place;
  cudaIpcMemHandle_t outbox = {};
};

struct Sources {
  const double* at[DeviceSum::kMaxRanks];
  int count;
};

// total[i] = the ranks' values at i, added in rank order (the same bits on every rank).
__global__ void sum_kernel(Sources from, std::size_t n, double* total) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += std::size_t(gridDim.x) * blockDim.x) {
    double s = from.at[0][i];
    for (int r = 1; r < from.count; ++r) s += from.at[r][i];
    total[i] = s;
  }
}

}  // namespace

DeviceSum::DeviceSum(const Communicator& comm, int device, std::size_t count) : comm_(comm), count_(count) {
  KS_CUDA_CHECK(cudaSetDevice(device));
  const int ranks = comm.size(), rank = comm.rank();
  bool can = ranks <= kMaxRanks && std::getenv("KS_SUMS_THROUGH_HOST") == nullptr;
  Introduction mine;
  mine.place = DevicePlace::of(device);
  if (can) {
    outbox_.resize(count);
    KS_CUDA_CHECK(cudaIpcGetMemHandle(&mine.outbox, outbox_.ptr));
  }
  // Every rank's introduction, passed round the ring: after step s a rank holds rank - s's.
  std::vector<Introduction> all(ranks);
  all[rank] = mine;
  for (int s = 1; s < ranks; ++s) {
    Introduction got;
    comm.ring_exchange(nullptr, &all[(rank - s + 1 + ranks) % ranks], &got, nullptr, sizeof(Introduction));
    all[(rank - s + ranks) % ranks] = got;
  }
  from_.assign(ranks, nullptr);
  for (int r = 0; r < ranks && can; ++r) {
    if (r == rank) {
      from_[r] = outbox_.ptr;
      continue;
    }
    void* p = nullptr;
    if (!reaches(device, mine.place, all[r].place) ||
        cudaIpcOpenMemHandle(&p, all[r].outbox, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
      cudaGetLastError();
      can = false;
      break;
    }
    opened_.push_back(p);
    from_[r] = static_cast<const double*>(p);
  }
  direct_ = comm.all_max(can ? 0 : 1) == 0;
  if (direct_) total_.resize(count);
  else {
    for (void* p : opened_) cudaIpcCloseMemHandle(p);
    opened_.clear();
    outbox_.release();
  }
}

DeviceSum::~DeviceSum() {
  for (void* p : opened_) cudaIpcCloseMemHandle(p);
}

void DeviceSum::sum(std::initializer_list<DeviceDoubles> parts, cudaStream_t stream) {
  if (!direct_) throw std::logic_error("DeviceSum::sum without a direct path");
  std::size_t at = 0;
  for (const DeviceDoubles& p : parts) {
    KS_CUDA_CHECK(cudaMemcpyAsync(outbox_.ptr + at, p.ptr, p.count * sizeof(double), cudaMemcpyDeviceToDevice, stream));
    at += p.count;
  }
  if (at != count_) throw std::logic_error("DeviceSum::sum: the parts do not add up to the count it was made for");
  // Every outbox is written before any rank reads one; no rank writes its outbox again before every
  // rank has read it (the second barrier).
  KS_CUDA_CHECK(cudaStreamSynchronize(stream));
  comm_.all_max(0);
  Sources s{};
  s.count = int(from_.size());
  for (int r = 0; r < s.count; ++r) s.at[r] = from_[r];
  if (count_) {
    sum_kernel<<<unsigned(std::min<std::size_t>((count_ + 255) / 256, 4096)), 256, 0, stream>>>(s, count_, total_.ptr);
    KS_CUDA_CHECK(cudaGetLastError());
  }
  at = 0;
  for (const DeviceDoubles& p : parts) {
    KS_CUDA_CHECK(cudaMemcpyAsync(p.ptr, total_.ptr + at, p.count * sizeof(double), cudaMemcpyDeviceToDevice, stream));
    at += p.count;
  }
  KS_CUDA_CHECK(cudaStreamSynchronize(stream));
  comm_.all_max(0);
}

}  // namespace ks
