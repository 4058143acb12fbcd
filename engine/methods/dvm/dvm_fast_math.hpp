// kinetic.dvm: the device forms of the sweep's two costly double operations; the host keeps the
// library's. exp(a) for the Maxwellian factor of f^S, which the CUDA sweep evaluates once per
// discrete velocity and cell: on the device a degree-12 Taylor polynomial on
// |r| <= ln 2 / 2 after a = k ln 2 + r, evaluated by Estrin's scheme (depth 5, against 13 for
// Horner: the sweep stalled on dependent FP64 results) with its coefficients in constant memory
// (CUDA's exp keeps its literal coefficients in uniform registers, two moves each: 50 of the
// sweep's 441 instructions a cell); the CUDA-vs-CPU tests agree to 4e-16.
// And 1 / x for the update's denominator (reciprocal).
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace ks::dvm {

#if defined(__CUDACC__)
// 1 / k!, k = 0..12: the truncation error on |r| <= ln 2 / 2 is below 2e-16 relative. Not const,
// so the compiler reads them from constant memory as FMA operands rather than as literals.
static __constant__ double kExpTaylor[13] = {1.0,           1.0,            1.0 / 2,         1.0 / 6,
                                            1.0 / 24,      1.0 / 120,      1.0 / 720,       1.0 / 5040,
                                            1.0 / 40320,   1.0 / 362880,   1.0 / 3628800,   1.0 / 39916800,
                                            1.0 / 479001600};
#endif

KS_HD double maxwellian_exp(double a) {
#if defined(__CUDA_ARCH__)
  constexpr double kShifter = 6755399441055744.0;  // 1.5 * 2^52: a + kShifter holds round(a) in its low word
  constexpr double kLog2e = 1.4426950408889634;
  constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;  // hi: k hi exact
  const double t = fma(a, kLog2e, kShifter);
  const double k = t - kShifter;
  const double r = fma(k, -kLn2Lo, fma(k, -kLn2Hi, a));
  const double* c = kExpTaylor;
  const double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  const double s0 = fma(fma(c[3], r, c[2]), r2, r + c[0]);
  const double s1 = fma(fma(c[7], r, c[6]), r2, fma(c[5], r, c[4]));
  const double s2 = fma(fma(c[11], r, c[10]), r2, fma(c[9], r, c[8]));
  const double p = fma(fma(c[12], r4, s2), r8, fma(s1, r4, s0));
  // p 2^k: k added to the exponent field (p lies in [0.7, 1.5], so 2^k p is normal for k >= -1021).
  const double y = __hiloint2double(__double2hiint(p) + __double2loint(t) * (1 << 20), __double2loint(p));
  return a < -708.0 ? 0.0 : a > 709.0 ? INFINITY : y;
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
