// A history a method adds one point to per iteration (x: the iteration or step it was taken at, y: a
// residual), read back from a checkpoint as save_body wrote it (every x, then every y) and checked:
// another number of points or a point `valid` refuses is bad input naming the history and the point.
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

}  // namespace ks
