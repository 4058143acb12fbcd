// What the selections by trials (rejection, majorant, stepped) share, host and device: rounds of 32
// candidates (a warp's lanes on the GPU), when a selection gives up, and a double's bit pattern, by
// which values are bounded from their exponent and leading mantissa bits.
#pragma once

#include <cstdint>

#include "core/philox.hpp"  // KS_HD

namespace ks::coag {

constexpr int kCandidatesPerRound = 32;
// Rounds after which a selection gives up: with finite rates at least one candidate in n_s is
// accepted on average, so 2^20 rounds (3.4e7 candidates) fail by chance with probability below
// e^-33 up to n_s = 1e6. Only non-finite rates get there; the run then fails instead of hanging.
constexpr int kMaxRounds = 1 << 20;

// A non-negative double's high 32 bits, and the double of a bit pattern (host and device).
KS_HD std::uint32_t high_word(double x) {
#ifdef __CUDA_ARCH__
  return std::uint32_t(__double2hiint(x));
#else
  std::uint64_t bits;
  __builtin_memcpy(&bits, &x, sizeof bits);
  return std::uint32_t(bits >> 32);
#endif
}
KS_HD double double_of_bits(std::uint64_t bits) {
#ifdef __CUDA_ARCH__
  return __longlong_as_double((long long)bits);
#else
  double b;
  __builtin_memcpy(&b, &bits, sizeof b);
  return b;
#endif
}

}  // namespace ks::coag
