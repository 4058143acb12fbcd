#include "backend.hpp"

#include <omp.h>

#include "errors.hpp"

#ifdef KS_HAVE_CUDA
#include <cuda_runtime.h>

#include "cuda_probe.hpp"
#endif

namespace ks {

BackendRequest parse_backend(const std::string& text, const std::string& where) {
  if (text == "auto") return BackendRequest::Auto;
  if (text == "cpu") return BackendRequest::Cpu;
  if (text == "cuda") return BackendRequest::Cuda;
  throw bad_input(where, "unknown backend '" + text + "'", "auto, cuda or cpu");
}

std::string to_string(BackendKind b) { return b == BackendKind::Cuda ? "cuda" : "cpu"; }

std::string to_string(BackendRequest b) {
  switch (b) {
    case BackendRequest::Auto: return "auto";
    case BackendRequest::Cpu: return "cpu";
    case BackendRequest::Cuda: return "cuda";
  }
  return "?";
}

CudaAvailability query_cuda(int first) {
  CudaAvailability a;
#ifdef KS_HAVE_CUDA
  a.compiled = true;
  int count = 0;
  // Without a GPU the runtime reports an error (e.g. "driver version is insufficient"):
  // any error means "no usable device".
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    // Without any NVIDIA driver the runtime says its driver is "insufficient": say what that means.
    a.reason = err == cudaErrorInsufficientDriver || err == cudaErrorNoDevice
                   ? std::string("no NVIDIA driver or GPU found (") + cudaGetErrorString(err) + ")"
                   : std::string("no usable CUDA device: ") + cudaGetErrorString(err);
    cudaGetLastError();
    return a;
  }
  if (count == 0) {
    a.reason = "no CUDA device found";
    return a;
  }
  // The first device from `first` on that runs a probe kernel of this build; the reason of the first
  // that did not.
  for (int i = 0; i < count; ++i) {
    const int d = (first % count + i) % count;
    const CudaProbe probe = probe_cuda_device(d);
    if (!probe.ok) {
      if (a.reason.empty()) a.reason = probe.reason;
      continue;
    }
    a.usable = true;
    a.device = d;
    a.device_name = probe.name;
    a.reason.clear();
    return a;
  }
#else
  (void)first;
  a.reason = "this build has no CUDA support (configured with KS_CUDA=OFF or without a CUDA compiler)";
#endif
  return a;
}

const Communicator& ranks_of(const ExecutionContext& ctx) {
  static const SerialCommunicator one;
  return ctx.comm ? *ctx.comm : one;
}

ExecutionContext resolve_backend(BackendRequest request, int device_slot) {
  ExecutionContext ctx;
  ctx.cpu_threads = omp_get_max_threads();
  if (request != BackendRequest::Cpu) {
    // Asked once per process and slot: the probe launches a kernel.
    static const CudaAvailability slot0 = query_cuda(0);
    const CudaAvailability cuda = device_slot == 0 ? slot0 : query_cuda(device_slot);
    if (cuda.usable) {
      ctx.backend = BackendKind::Cuda;
      ctx.cuda_device = cuda.device;
      ctx.device_name = cuda.device_name;
      return ctx;
    }
    if (request == BackendRequest::Cuda)
      throw backend_unavailable("backend 'cuda' requested but " + cuda.reason + "; use --backend cpu or auto");
    if (cuda.compiled) ctx.cuda_unused_reason = cuda.reason;
  }
  ctx.backend = BackendKind::Cpu;
  ctx.device_name = "CPU, " + std::to_string(ctx.cpu_threads) + " threads";
  return ctx;
}

}  // namespace ks
