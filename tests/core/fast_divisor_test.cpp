#include "core/fast_divisor.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

// The quotient and remainder equal the hardware's for divisors of every size (lattice sides and
// plane sizes, powers of two and their neighbours, the largest allowed) at the dividends where a
// multiplier rounded the wrong way would first show: multiples of the divisor and their neighbours,
// the largest dividend, and random ones.
TEST(FastDivisor, EqualsIntegerDivision) {
  std::mt19937 random(7);
  std::uniform_int_distribution<std::uint32_t> dividend(0, (1u << 31) - 1);
  std::vector<std::uint32_t> divisors = {1,
                                         2,
                                         3,
                                         5,
                                         7,
                                         31,
                                         32,
                                         33,
                                         63,
                                         64,
                                         65,
                                         100,
                                         127,
                                         128,
                                         129,
                                         255,
                                         256,
                                         16384,
                                         65535,
                                         65536,
                                         65537,
                                         (1u << 30) - 1,
                                         1u << 30,
                                         (1u << 30) + 1,
                                         (1u << 31) - 1,
                                         1u << 31};
  for (int n = 0; n < 200; ++n) divisors.push_back(1 + dividend(random) % (n < 100 ? 4096u : (1u << 31)));
  for (const std::uint32_t d : divisors) {
    const ks::FastDivisor fast(d);
    const auto check = [&](std::uint32_t n) {
      const std::uint32_t q = fast.quotient(n);
      ASSERT_EQ(q, n / d) << n << " / " << d;
      ASSERT_EQ(fast.remainder(n, q), n % d) << n << " % " << d;
    };
    for (std::uint32_t m = 0; m < 64; ++m) {
      const std::uint64_t at = std::uint64_t(m) * d;
      for (std::int64_t e = -1; e <= 1; ++e)
        if (at + e < (1u << 31) && std::int64_t(at) + e >= 0) check(std::uint32_t(at + e));
    }
    const std::uint32_t top = ((1u << 31) - 1) / d * d;  // the largest multiple of d below 2^31
    for (std::uint32_t e = 0; e < 3; ++e) {
      check((1u << 31) - 1 - e);
      if (top >= e) check(top - e);
    }
    for (int r = 0; r < 2000; ++r) check(dividend(random));
  }
}

}  // namespace
