#include "cuda_probe.hpp"

#include <cuda_runtime.h>

namespace ks {

namespace {

// Writes a value that depends on every thread, so a kernel that did not run is not mistaken for one that did.
__global__ void probe_kernel(unsigned* out) { atomicAdd(out, threadIdx.x + 1u); }

constexpr unsigned kThreads = 32;
constexpr unsigned kExpected = kThreads * (kThreads + 1) / 2;

std::string failure(const char* what, cudaError_t err) {
  cudaGetLastError();  // clear a sticky launch error so the CPU fallback starts clean
  return std::string(what) + ": " + cudaGetErrorString(err);
}

}  // namespace

CudaProbe probe_cuda_device(int device) {
  CudaProbe p;
  cudaDeviceProp prop{};
  cudaError_t err = cudaGetDeviceProperties(&prop, device);
  if (err != cudaSuccess) {
    p.reason = failure("cannot read the CUDA device's properties", err);
    return p;
  }
  p.name = prop.name;
  p.major = prop.major;
  p.minor = prop.minor;
  const std::string chip = p.name + " (compute capability " + std::to_string(prop.major) + "." + std::to_string(prop.minor) + ")";
  cudaFuncAttributes attr{};
  if ((err = cudaSetDevice(device)) != cudaSuccess || (err = cudaFuncGetAttributes(&attr, probe_kernel)) != cudaSuccess) {
    p.reason = failure((chip + " cannot run this build's kernels (built for CUDA architectures " KS_CUDA_ARCH_LIST
                               "; rebuild with -DKS_CUDA_ARCHITECTURES=native)")
                           .c_str(),
                       err);
    return p;
  }
  unsigned* d = nullptr;
  unsigned h = 0;
  if ((err = cudaMalloc(&d, sizeof(unsigned))) != cudaSuccess) {
    p.reason = failure((chip + ": cannot allocate device memory").c_str(), err);
    return p;
  }
  err = cudaMemset(d, 0, sizeof(unsigned));
  if (err == cudaSuccess) {
    probe_kernel<<<1, kThreads>>>(d);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaMemcpy(&h, d, sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaFree(d);
  if (err != cudaSuccess) {
    p.reason = failure((chip + ": the probe kernel failed").c_str(), err);
    return p;
  }
  if (h != kExpected) {
    p.reason = chip + ": the probe kernel returned " + std::to_string(h) + " instead of " + std::to_string(kExpected);
    return p;
  }
  p.ok = true;
  return p;
}

}  // namespace ks
