// Sizes, counts and products of sizes in checked 64-bit arithmetic. Every grid extent, particle
// count or buffer length that comes from input goes through these: a value that does not fit is
// bad input (exit 2) naming what was being computed, never a wrapped integer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>

#include "errors.hpp"

namespace ks {

// a * b for sizes (a, b >= 0); `what` names the quantity ("nx * ny * nz cells").
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const std::string& what) {
  std::int64_t r = 0;
  if (a < 0 || b < 0 || __builtin_mul_overflow(a, b, &r))
    throw bad_input(what, std::to_string(a) + " x " + std::to_string(b) + " does not fit in a 64-bit size", "a product below 9.2e18");
  return r;
}

inline std::int64_t checked_add(std::int64_t a, std::int64_t b, const std::string& what) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    throw bad_input(what, std::to_string(a) + " + " + std::to_string(b) + " does not fit in a 64-bit size", "a sum below 9.2e18");
  return r;
}

// The product of all `factors` (each >= 0).
inline std::int64_t checked_product(std::initializer_list<std::int64_t> factors, const std::string& what) {
  std::int64_t r = 1;
  for (const std::int64_t f : factors) r = checked_mul(r, f, what);
  return r;
}

// `v` as a narrower integer (an int loop bound, a CUDA grid dimension), refused when it does not fit.
template <class To>
To checked_narrow(std::int64_t v, const std::string& what) {
  if (v < std::int64_t(std::numeric_limits<To>::min()) || v > std::int64_t(std::numeric_limits<To>::max()))
    throw bad_input(what, std::to_string(v) + " does not fit", "at most " + std::to_string(std::int64_t(std::numeric_limits<To>::max())));
  return static_cast<To>(v);
}

}  // namespace ks
