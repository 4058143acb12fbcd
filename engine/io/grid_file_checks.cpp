#include "grid_file_checks.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"

namespace ks::grid_file {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

bool parse_number(const std::string& text, double& x) {
  if (text.empty()) return false;
  char* end = nullptr;
  x = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

std::int64_t max_cells(const GridFileSpec& spec) {
  return std::int64_t(spec.max_cells_per_axis) * spec.max_cells_per_axis * spec.max_cells_per_axis;
}

std::string value_allowed(const GridFileSpec& spec) {
  return "a finite " + spec.quantity + " " + spec.value + " > 0 " + spec.unit + ", at most " + format_precise(spec.max_value) + " " + spec.unit +
         " (the range of " + spec.value_param + ")";
}

void check_value(double v, const std::string& where, const GridFileSpec& spec) {
  const std::string value = spec.value + " = " + format_precise(v) + " " + spec.unit;
  if (!std::isfinite(v) || !(v > 0.0)) throw bad_input(where, value + " is not a " + spec.quantity, value_allowed(spec));
  if (v > spec.max_value)
    throw bad_input(where, value + " is above " + format_precise(spec.max_value) + " " + spec.unit, value_allowed(spec));
}

std::string cell_name(const int n[3], std::size_t c) {
  const std::size_t i = c % n[0], j = (c / n[0]) % n[1], k = c / (std::size_t(n[0]) * n[1]);
  std::ostringstream os;
  os << '(' << i << ", " << j << ", " << k << ')';
  return os.str();
}

void set_grid(GridField& f, const std::int64_t n[3], const std::string& where, const GridFileSpec& spec, const std::string& source) {
  const std::string grid = "the grid " + grid_name(n) + " cells (" + source + ")";
  const char* axis = "xyz";
  for (int a = 0; a < 3; ++a)
    if (n[a] < 1) throw bad_input(where, grid + " has no cells along " + axis[a], "at least 1 cell per axis");
  checked_product({n[0], n[1], n[2]}, where + ": " + grid);
  for (int a = 0; a < 3; ++a)
    if (n[a] > spec.max_cells_per_axis)
      throw bad_input(where, grid + " has " + std::to_string(n[a]) + " cells along " + axis[a],
                      "1 to " + std::to_string(spec.max_cells_per_axis) + " cells per axis (the range of " + spec.cells_param + ")");
  for (int a = 0; a < 3; ++a) f.n[a] = int(n[a]);
}

void check_box(const GridField& f, const bool resolved[3], const std::string& where, const GridFileSpec& spec,
               const std::string& source) {
  const char* axis = "xyz";
  for (int a = 0; a < 3; ++a) {
    const double L = f.n[a] * f.h[a], lo = f.origin[a], hi = f.origin[a] + L;
    if (resolved[a] && !(L >= spec.min_length && L <= spec.max_length))
      throw bad_input(where, std::string("the box along ") + axis[a] + " is " + std::to_string(f.n[a]) + " x " + format_precise(f.h[a]) + " = " +
                                 format_precise(L) + " m long (" + source + ")",
                      "[" + format_precise(spec.min_length) + ", " + format_precise(spec.max_length) + "] m along each axis it resolves (the range of " +
                          spec.length_param + ")");
    if (!(std::fabs(lo) <= spec.max_length && std::fabs(hi) <= spec.max_length))
      throw bad_input(where, std::string("the box along ") + axis[a] + " spans " + format_precise(lo) + " to " + format_precise(hi) + " m (" + source + ")",
                      "a box within " + format_precise(-spec.max_length) + " to " + format_precise(spec.max_length) + " m (the range of " + spec.length_param + ")");
  }
}

}  // namespace ks::grid_file
