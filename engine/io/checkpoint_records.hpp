// The records of a method's checkpoint body beside its scalars, read back as save_body wrote them
// (bin::write_vector) and checked before the method takes any: what does not fit is bad input under
// "checkpoint" naming the method's state, the record and what is allowed.
//   read_history  a history with one point per iteration (x: the iteration, step or time it was
//                 taken at, y: a residual), every x then every y
//   read_values   an array the set-up sizes (populations, f, wall densities) and its values' check
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/binary_io.hpp"

namespace ks {

struct History {
  std::vector<double> x, y;
};

// `method` and `history` name it ("kinetic.dvm", "residual history"), `x_name` what x counts
// ("iteration"), `allowed(k)` what `valid(k, x, y)` accepts at point k.
template <class Valid, class Allowed>
History read_history(std::istream& in, std::int64_t iterations, const std::string& method, const std::string& history,
                     const std::string& x_name, Valid valid, Allowed allowed) {
  const auto points = std::uint64_t(iterations);
  History h{bin::read_vector<double>(in, points), bin::read_vector<double>(in, points)};
  if (h.x.size() != points || h.y.size() != points)
    throw bad_input("checkpoint",
                    "the " + method + " state has a " + history + " of " + std::to_string(h.x.size()) + " " + x_name + "s and " +
                        std::to_string(h.y.size()) + " values for " + std::to_string(iterations) + " iterations",
                    "one point per iteration");
  for (std::size_t k = 0; k < points; ++k)
    if (!valid(k, h.x[k], h.y[k]))
      throw bad_input("checkpoint",
                      "point " + std::to_string(k) + " of the " + method + " " + history + " is (" + x_name + " " + format_number(h.x[k]) +
                          ", " + format_number(h.y[k]) + ")",
                      allowed(k));
  return h;
}

// `count` values (`setup_has` says where the count comes from: "720 cells x 13"); another count is
// refused with `count_allowed` (how a checkpoint gets the set-up's count), the first value `valid`
// refuses with `value_allowed`.
template <class Valid>
std::vector<double> read_values(std::istream& in, std::uint64_t count, const std::string& method, const std::string& what,
                                const std::string& setup_has, const std::string& count_allowed, Valid valid,
                                const std::string& value_allowed) {
  std::vector<double> v = bin::read_vector<double>(in, count);
  if (v.size() != count)
    throw bad_input("checkpoint", "the " + method + " state has " + std::to_string(v.size()) + " " + what + ", the set-up has " + setup_has,
                    count_allowed);
  for (std::size_t k = 0; k < v.size(); ++k)
    if (!valid(v[k]))
      throw bad_input("checkpoint", "value " + std::to_string(k) + " of the " + method + " state's " + what + " is " + format_number(v[k]),
                      value_allowed);
  return v;
}

}  // namespace ks
