// Whether CUDA device `device` can run this binary's kernels: its compute capability is read, and
// a probe kernel is launched and its result read back, so a device for which the binary holds
// neither machine code nor PTX it can JIT (an older chip than the build's architectures) is found
// before a method sets up on it. Only in CUDA builds.
#pragma once

#include <string>

namespace ks {

struct CudaProbe {
  bool ok = false;
  std::string name;          // "NVIDIA H100 80GB HBM3"
  int major = 0, minor = 0;  // compute capability
  std::string reason;        // why not, in one line ("" when ok)
};

CudaProbe probe_cuda_device(int device);

}  // namespace ks
