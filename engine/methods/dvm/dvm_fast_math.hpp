// kinetic.dvm: the device forms of the sweep's two costly double operations; the host keeps the
// library's (std::exp, division). The CUDA-vs-CPU tests agree to 2e-15 or better.
// exp(a) for the Maxwellian factor of f^S, which the CUDA sweep evaluates once a lane and cell
// (maxwellian_exp), and 1 / x for the update's denominator (reciprocal).
#pragma once

#include <array>
#include <cmath>

#include "core/host_device.hpp"

namespace ks::dvm {

// exp(a) = 2^(k / 64) e^r after a = k ln 2 / 64 + r, |r| <= ln 2 / 128: 2^(j / 64), j = k mod 64,
// from a table (exp2_table, uploaded to kExp2Table by the CUDA solver; L1 serves the lanes' scattered
// j), e^r from its degree-5 Taylor polynomial (truncation below 4e-17 relative), 2^floor(k / 64)
// added to the exponent field. It replaced a degree-12 polynomial on |r| <= ln 2 / 2 (Estrin's
// scheme, 13 coefficients from constant memory: about 90 of the sweep's 290 instructions a pair of
// cells). The 6 to 10 registers it frees let the cell loop unroll by 4: 0.490-0.499 s an iteration
// at 64^3 x 64^3 against 0.524 s.
inline std::array<double, 64> exp2_table() {
  std::array<double, 64> t;
  for (int j = 0; j < 64; ++j) t[j] = std::exp2(j / 64.0);
  return t;
}

#if defined(__CUDACC__)
static __device__ double kExp2Table[64];
// 1 / k!, k = 2..5. Not const, so the compiler reads them from constant memory as FMA operands.
static __constant__ double kExpTaylor[4] = {1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120};
#endif

KS_HD double maxwellian_exp(double a) {
#if defined(__CUDA_ARCH__)
  constexpr double kShifter = 6755399441055744.0;  // 1.5 * 2^52: x + kShifter holds round(x) in its low word
  constexpr double k64Log2e = 64 * 1.4426950408889634;
  // ln 2 / 64 in two parts, the first with enough trailing zero bits that k times it is exact.
  constexpr double kLn2Hi = 6.93147180369123816490e-01 / 64, kLn2Lo = 1.90821492927058770002e-10 / 64;
  const double t = fma(a, k64Log2e, kShifter);
  const double kd = t - kShifter;
  const double r = fma(kd, -kLn2Lo, fma(kd, -kLn2Hi, a));
  const int k = __double2loint(t);
  const double* c = kExpTaylor;
  const double p = fma(fma(fma(fma(fma(c[3], r, c[2]), r, c[1]), r, c[0]), r, 1.0), r, 1.0);
  const double y = __ldg(&kExp2Table[k & 63]) * p;
  // y 2^(k >> 6): for a >= -708, k >> 6 >= -1022 and y >= 2^(37 / 64) when it is -1022, so the
  // result is normal.
  const double scaled = __hiloint2double(__double2hiint(y) + (k >> 6) * (1 << 20), __double2loint(y));
  return a < -708.0 ? 0.0 : a > 709.0 ? INFINITY : scaled;
#else
  return std::exp(a);
#endif
}

// 1 / x for x > 0 in the normal range (the sweep's denominators, >= 1 / tau): on the device the
// fast path of CUDA's correctly rounded division (the hardware's approximation and two Newton
// steps), without its branch to the slow path for zeros, denormals and infinities, which kept the
// sweep's updates from interleaving. The host divides.
KS_HD double reciprocal(double x) {
#if defined(__CUDA_ARCH__)
  double y;
  asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  double e = fma(-x, y, 1.0);
  e = fma(e, e, e);
  y = fma(y, e, y);
  e = fma(-x, y, 1.0);
  return fma(y, e, y);
#else
  return 1.0 / x;
#endif
}

}  // namespace ks::dvm
