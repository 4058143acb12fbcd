#include "vector_state.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#define KS_X86_64 1
#endif

namespace ks {

#ifdef KS_X86_64
namespace {

bool has_avx() { return __builtin_cpu_supports("avx"); }  // CPUID and the OS saving the registers

// XGETBV with ECX = 1 returns XINUSE: CPUID leaf 0xD, sub-leaf 1, EAX bit 2.
bool has_xinuse() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return has_avx() && __get_cpuid_count(0xD, 1, &a, &b, &c, &d) && (a & (1u << 2));
}

}  // namespace

void clear_inherited_vector_state() {
  if (has_avx()) __asm__ volatile("vzeroupper" ::: "memory");
}

bool upper_vector_state_observable() { return has_xinuse(); }

bool upper_vector_state_in_use() {
  if (!has_xinuse()) return false;
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
  return lo & (1u << 2);  // AVX: the upper halves of YMM0-15
}
#else
void clear_inherited_vector_state() {}
bool upper_vector_state_observable() { return false; }
bool upper_vector_state_in_use() { return false; }
#endif

}  // namespace ks
