#include "device_bandwidth.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "core/cuda_check.hpp"

namespace ks::bench {

double measured_device_bandwidth(int device) {
  constexpr std::size_t kBytes = std::size_t(1) << 31;  // 2 GiB: far beyond the L2 cache
  KS_CUDA_CHECK(cudaSetDevice(device));
  void *a = nullptr, *b = nullptr;
  KS_CUDA_CHECK(cudaMalloc(&a, kBytes));
  KS_CUDA_CHECK(cudaMalloc(&b, kBytes));
  KS_CUDA_CHECK(cudaMemset(a, 1, kBytes));
  cudaEvent_t start, stop;
  KS_CUDA_CHECK(cudaEventCreate(&start));
  KS_CUDA_CHECK(cudaEventCreate(&stop));
  float best_ms = 1e30f;
  for (int rep = 0; rep < 5; ++rep) {
    KS_CUDA_CHECK(cudaEventRecord(start));
    KS_CUDA_CHECK(cudaMemcpy(b, a, kBytes, cudaMemcpyDeviceToDevice));
    KS_CUDA_CHECK(cudaEventRecord(stop));
    KS_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0.0f;
    KS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    best_ms = std::min(best_ms, ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * double(kBytes) / (best_ms * 1e-3);
}

}  // namespace ks::bench
