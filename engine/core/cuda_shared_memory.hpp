// How much dynamic shared memory a kernel's block may take on a device: the device's opt-in limit
// (64 KiB on Turing, 99 KiB on sm_86/89, 163 KiB on A100, 227 KiB on Hopper) less the kernel's static
// shared memory. Kernels size their tiles and tables from this instead of assuming Hopper.
//
// $KS_CUDA_SHARED_MEMORY_LIMIT (bytes) lowers the device's limit, so that the paths for smaller
// chips can be run and checked on a larger one (tests, scripts/device-check.sh).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <string>

#include "cuda_check.hpp"
#include "errors.hpp"

namespace ks {

// The opt-in shared memory a block may have on `device`, in bytes (lowered by the variable above).
inline std::size_t block_shared_memory_limit(int device) {
  int optin = 0;
  KS_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  std::size_t limit = std::size_t(optin);
  if (const char* env = std::getenv("KS_CUDA_SHARED_MEMORY_LIMIT"); env && *env) {
    char* end = nullptr;
    errno = 0;
    const unsigned long long lowered = std::strtoull(env, &end, 10);
    if (errno != 0 || *end != '\0')
      throw bad_input("KS_CUDA_SHARED_MEMORY_LIMIT", "'" + std::string(env) + "' is not a byte count", "a whole number of bytes");
    limit = std::min<std::size_t>(limit, lowered);
  }
  return limit;
}

// Dynamic shared memory a block of `kernel` may have on `device`: the limit less its static part.
template <class Kernel>
std::size_t max_dynamic_shared_memory(Kernel kernel, int device) {
  cudaFuncAttributes a{};
  KS_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
  const std::size_t limit = block_shared_memory_limit(device);
  return limit > a.sharedSizeBytes ? limit - a.sharedSizeBytes : 0;
}

}  // namespace ks
