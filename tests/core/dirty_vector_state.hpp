// For tests of core/vector_state.hpp: 256-bit AVX code that leaves without vzeroupper, as a GL driver
// may (YMM1's upper half all ones). Nothing on other CPUs; callers check upper_vector_state_observable().
#pragma once

inline void leave_upper_vector_state_in_use() {
#if defined(__x86_64__) && defined(__GNUC__)
  __asm__ volatile("vpcmpeqd %%ymm1, %%ymm1, %%ymm1" ::: "xmm1");
#endif
}
