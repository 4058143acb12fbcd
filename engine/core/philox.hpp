// Philox4x32-10 counter-based random numbers (Salmon, Moraes, Dror & Shaw,
// "Parallel random numbers: as easy as 1, 2, 3", SC'11). The same function runs
// on host and device, so a seed gives the same stream on both backends.
#pragma once

#include <cstdint>

#include "host_device.hpp"

namespace ks {

struct PhiloxCounter {
  std::uint32_t v[4];
};
struct PhiloxKey {
  std::uint32_t v[2];
};

namespace philox_detail {
constexpr std::uint32_t kMul0 = 0xD2511F53u;
constexpr std::uint32_t kMul1 = 0xCD9E8D57u;
constexpr std::uint32_t kWeyl0 = 0x9E3779B9u;  // golden ratio
constexpr std::uint32_t kWeyl1 = 0xBB67AE85u;  // sqrt(3) - 1

KS_HD void mulhilo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi, std::uint32_t& lo) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  lo = static_cast<std::uint32_t>(p);
}

KS_HD PhiloxCounter round(PhiloxCounter c, PhiloxKey k) {
  std::uint32_t hi0, lo0, hi1, lo1;
  mulhilo(kMul0, c.v[0], hi0, lo0);
  mulhilo(kMul1, c.v[2], hi1, lo1);
  return PhiloxCounter{{hi1 ^ c.v[1] ^ k.v[0], lo1, hi0 ^ c.v[3] ^ k.v[1], lo0}};
}
}  // namespace philox_detail

// Ten rounds with the key bumped by the Weyl constants between rounds.
KS_HD PhiloxCounter philox4x32_10(PhiloxCounter c, PhiloxKey k) {
  for (int r = 0; r < 10; ++r) {
    if (r > 0) {
      k.v[0] += philox_detail::kWeyl0;
      k.v[1] += philox_detail::kWeyl1;
    }
    c = philox_detail::round(c, k);
  }
  return c;
}

// Uniform double in (0, 1) from two 32-bit words (53 random bits, never 0 or 1).
KS_HD double uniform_open01(std::uint32_t hi, std::uint32_t lo) {
  const std::uint64_t bits = ((static_cast<std::uint64_t>(hi) << 32) | lo) >> 11;   // 53 bits
  const double u = (static_cast<double>(bits) + 0.5) * (1.0 / 9007199254740992.0);  // 2^-53
  // For bits = 2^53 - 1, bits + 0.5 is not representable and rounds to 2^53, i.e. u == 1:
  // return the largest double below 1 instead (every other value is unchanged).
  return u < 1.0 ? u : 1.0 - 1.0 / 9007199254740992.0;
}

// A stream: key = (seed, stream id); counter = (index lo, index hi, purpose, sub).
struct PhiloxStream {
  std::uint64_t seed = 0;
  std::uint32_t stream = 0;

  // `sub` (the counter's last word) numbers further draws that share an index and purpose.
  KS_HD PhiloxCounter draw(std::uint64_t index, std::uint32_t purpose = 0, std::uint32_t sub = 0) const {
    const PhiloxKey k{{static_cast<std::uint32_t>(seed) ^ static_cast<std::uint32_t>(seed >> 32) * 0x9E3779B9u, stream}};
    const PhiloxCounter c{{static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32), purpose, sub}};
    return philox4x32_10(c, k);
  }
  // Two independent uniforms in (0, 1) for draw `index`.
  KS_HD void uniform2(std::uint64_t index, std::uint32_t purpose, double& u0, double& u1) const {
    const PhiloxCounter r = draw(index, purpose);
    u0 = uniform_open01(r.v[0], r.v[1]);
    u1 = uniform_open01(r.v[2], r.v[3]);
  }
};

}  // namespace ks
