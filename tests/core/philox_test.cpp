// Philox4x32-10 against the Random123 known-answer vectors (kat_vectors,
// "philox4x32 10" lines), and the uniform conversion used by the methods.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>

#include "core/philox.hpp"

namespace {

struct Kat {
  ks::PhiloxCounter counter;
  ks::PhiloxKey key;
  std::uint32_t expected[4];
};

void expect_kat(const Kat& k) {
  const ks::PhiloxCounter out = ks::philox4x32_10(k.counter, k.key);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(out.v[i], k.expected[i]) << "word " << i << std::hex << ": got 0x" << out.v[i] << ", expected 0x" << k.expected[i];
}

}  // namespace

TEST(Philox, KnownAnswerAllZeroCounterAndKey) {
  expect_kat({{{0u, 0u, 0u, 0u}}, {{0u, 0u}}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}});
}

TEST(Philox, KnownAnswerAllOnesCounterAndKey) {
  expect_kat({{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
              {{0xffffffffu, 0xffffffffu}},
              {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}});
}

TEST(Philox, KnownAnswerPiDigitsCounterAndKey) {
  expect_kat({{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
              {{0xa4093822u, 0x299f31d0u}},
              {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}});
}

TEST(Philox, UniformOpen01IsStrictlyInsideAtTheExtremes) {
  const double lo = ks::uniform_open01(0u, 0u);
  const double hi = ks::uniform_open01(0xffffffffu, 0xffffffffu);
  EXPECT_GT(lo, 0.0);
  EXPECT_LT(lo, 1e-15);
  EXPECT_LT(hi, 1.0);
  EXPECT_GT(hi, 1.0 - 1e-15);
  // log(u) and log(1 - u) stay finite, which is what inverse-transform sampling needs.
  EXPECT_TRUE(std::isfinite(std::log(lo)));
  EXPECT_TRUE(std::isfinite(std::log1p(-hi)));
  // Just below the top: still inside and ordered.
  const double near_hi = ks::uniform_open01(0xffffffffu, 0xfffff000u);
  EXPECT_LT(near_hi, 1.0);
  EXPECT_LE(near_hi, hi);
}

TEST(Philox, UniformOpen01IsMonotoneInTheBits) {
  double prev = 0.0;
  for (std::uint32_t hi : {0u, 1u, 0x12345678u, 0x80000000u, 0xfffffffeu, 0xffffffffu}) {
    const double u = ks::uniform_open01(hi, 0u);
    EXPECT_GT(u, prev) << "hi = " << hi;
    prev = u;
  }
}

TEST(PhiloxStream, MeanOfUniformsIsOneHalfWithinFourStandardErrors) {
  const ks::PhiloxStream rng{12345u, 7u};
  constexpr int kDraws = 100000;  // 5e4 draws of two uniforms each
  double sum = 0.0, sum_sq = 0.0;
  for (int i = 0; i < kDraws / 2; ++i) {
    double u0, u1;
    rng.uniform2(std::uint64_t(i), 0u, u0, u1);
    ASSERT_GT(u0, 0.0);
    ASSERT_LT(u0, 1.0);
    ASSERT_GT(u1, 0.0);
    ASSERT_LT(u1, 1.0);
    sum += u0 + u1;
    sum_sq += u0 * u0 + u1 * u1;
  }
  const double mean = sum / kDraws;
  // Var of U(0,1) = 1/12, so the standard error of the mean of n draws is 1/sqrt(12 n).
  const double stderr_mean = 1.0 / std::sqrt(12.0 * kDraws);
  EXPECT_NEAR(mean, 0.5, 4.0 * stderr_mean);
  // The second moment E[U^2] = 1/3 (sd of U^2 is sqrt(4/45)); a loose check that the spread is uniform's.
  EXPECT_NEAR(sum_sq / kDraws, 1.0 / 3.0, 4.0 * std::sqrt(4.0 / 45.0 / kDraws));
}

TEST(PhiloxStream, SameIndexRepeatsAndStreamsDiffer) {
  const ks::PhiloxStream a{99u, 0u}, b{99u, 1u}, c{100u, 0u};
  const ks::PhiloxCounter a1 = a.draw(5, 0), a2 = a.draw(5, 0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(a1.v[i], a2.v[i]);
  auto differs = [](const ks::PhiloxCounter& x, const ks::PhiloxCounter& y) {
    return x.v[0] != y.v[0] || x.v[1] != y.v[1] || x.v[2] != y.v[2] || x.v[3] != y.v[3];
  };
  EXPECT_TRUE(differs(a.draw(5, 0), b.draw(5, 0)));  // another stream id
  EXPECT_TRUE(differs(a.draw(5, 0), c.draw(5, 0)));  // another seed
  EXPECT_TRUE(differs(a.draw(5, 0), a.draw(5, 1)));  // another purpose
  EXPECT_TRUE(differs(a.draw(5, 0), a.draw(6, 0)));  // another index
  // The upper half of the 64-bit index matters too.
  EXPECT_TRUE(differs(a.draw(5, 0), a.draw(5 + (std::uint64_t(1) << 32), 0)));
}
