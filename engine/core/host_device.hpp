// KS_HD marks small functions that run on both the host and the device, so the CPU
// and CUDA paths of a method share one copy of each formula.
#pragma once

#if defined(__CUDACC__)
#define KS_HD __host__ __device__ __forceinline__
#else
#define KS_HD inline
#endif
