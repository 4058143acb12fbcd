// Division by a divisor fixed at run time as a multiply-high, an add and a shift (Granlund &
// Montgomery 1994, the round-up method with a 33-bit multiplier): on the GPU an integer division
// by a run-time value is a sequence of about twenty instructions. Exact for every dividend below
// 2^31 and every divisor in [1, 2^31] (lattice node indices, whose lattices have fewer than 2^31
// nodes).
#pragma once

#include <cstdint>

#include "core/host_device.hpp"

namespace ks {

struct FastDivisor {
  std::uint32_t divisor = 1, multiplier = 1;
  int shift = 0;

  FastDivisor() = default;
  explicit FastDivisor(std::uint32_t d) : divisor(d) {
    while ((std::uint64_t(1) << shift) < d) ++shift;  // shift = ceil(log2 d)
    multiplier = std::uint32_t((std::uint64_t(1) << 32) * ((std::uint64_t(1) << shift) - d) / d + 1);
  }

  KS_HD std::uint32_t quotient(std::uint32_t n) const { return (high_product(n) + n) >> shift; }
  KS_HD std::uint32_t remainder(std::uint32_t n, std::uint32_t q) const { return n - q * divisor; }

 private:
  KS_HD std::uint32_t high_product(std::uint32_t n) const {
#ifdef __CUDA_ARCH__
    return __umulhi(n, multiplier);
#else
    return std::uint32_t((std::uint64_t(n) * multiplier) >> 32);
#endif
  }
};

}  // namespace ks
