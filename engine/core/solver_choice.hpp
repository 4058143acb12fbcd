// A method's solver for the chosen backend: `cuda()` where the context asks for CUDA, `cpu()`
// otherwise. The one place a build without CUDA refuses the CUDA backend; every method's
// make_cuda_solver is declared in any build and referenced only here, through `cuda`.
#pragma once

#include <string>

#include "backend.hpp"
#include "errors.hpp"

namespace ks {

template <class MakeCuda, class MakeCpu>
auto solver_for(const ExecutionContext& ctx, const std::string& method_id, MakeCuda&& cuda, MakeCpu&& cpu) {
  if (ctx.backend == BackendKind::Cuda) {
#ifdef KS_HAVE_CUDA
    (void)method_id;  // named only where the build refuses CUDA
    return cuda();
#else
    (void)cuda;
    throw backend_unavailable(method_id + ": this build has no CUDA path");
#endif
  }
  return cpu();
}

}  // namespace ks
