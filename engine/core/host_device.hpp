// KS_HD marks small functions that run on both the host and the device, so the CPU
// and CUDA paths of a method share one copy of each formula.
#pragma once

#if defined(__CUDACC__)
#define KS_HD __host__ __device__ __forceinline__
#else
#define KS_HD inline
#endif

// KS_UNROLL before a fixed-trip loop in a KS_HD function: on the device, an array indexed by a
// loop counter stays in registers only if the loop is unrolled (otherwise it lives in local memory).
#if defined(__CUDACC__)
#define KS_UNROLL _Pragma("unroll")
#else
#define KS_UNROLL
#endif
