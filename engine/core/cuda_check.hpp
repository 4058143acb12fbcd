// Every CUDA runtime call goes through KS_CUDA_CHECK: a failure becomes a
// ks::Error (RunFailed) naming the call, the file and the line.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "errors.hpp"

namespace ks {

inline void cuda_check(cudaError_t err, const char* call, const char* file, int line) {
  if (err == cudaSuccess) return;
  throw run_failed(std::string("CUDA error '") + cudaGetErrorString(err) + "' in " + call + " at " + file + ":" + std::to_string(line));
}

}  // namespace ks

#define KS_CUDA_CHECK(call) ::ks::cuda_check((call), #call, __FILE__, __LINE__)
// After a kernel launch: launch errors now, execution errors at the next synchronising call.
#define KS_CUDA_CHECK_LAUNCH() ::ks::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
