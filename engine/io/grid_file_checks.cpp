#include "grid_file_checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"

namespace ks::grid_file {

namespace {

[[noreturn]] void repeated_cell(const GridField& f, long long cell, int line, int first_line) {
  throw bad_input(f.file + ": " + f.row_name + " " + std::to_string(line),
                  "gives cell " + cell_name(f.n, cell) + " again (" + f.row_name + " " + std::to_string(first_line) + " gave it first)",
                  "one row per cell");
}

// The distinct values of one coordinate column: cells and cell size of a uniform axis. Values within
// 1e-6 of the axis's extent are one coordinate (a file prints them to finite precision).
struct Axis {
  std::int64_t n = 1;
  double first = 0.0, h = 0.0;
};

Axis coordinate_axis(const std::vector<double>& values, const std::string& name, const std::string& file) {
  std::vector<double> v = values;
  std::sort(v.begin(), v.end());
  const double tol = 1e-6 * (v.back() - v.front());
  std::vector<double> distinct = {v.front()};
  for (double x : v)
    if (x - distinct.back() > tol) distinct.push_back(x);
  Axis a;
  a.n = std::int64_t(distinct.size());
  a.first = distinct.front();
  if (a.n == 1) return a;
  a.h = (distinct.back() - distinct.front()) / double(a.n - 1);
  for (std::int64_t m = 0; m < a.n; ++m)
    if (std::fabs(distinct[m] - (a.first + double(m) * a.h)) > 1e-3 * a.h)
      throw bad_input(file + ": column " + name,
                      "the cell centres are not uniformly spaced: " + name + " = " + format_precise(distinct[m]) + " is not on " +
                          format_precise(a.first) + " + m * " + format_precise(a.h) + " (" + std::to_string(a.n) + " distinct values)",
                      "the centres of a uniform grid");
  return a;
}

}  // namespace

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
  return "a finite " + spec.quantity + " " + spec.value + " > 0 " + spec.unit + ", at most " + format_precise(spec.max_value) + " " +
         spec.unit + " (the range of " + spec.value_param + ")";
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

void check_box(const GridField& f, const bool resolved[3], const std::string& where, const GridFileSpec& spec, const std::string& source) {
  const char* axis = "xyz";
  for (int a = 0; a < 3; ++a) {
    const double L = f.n[a] * f.h[a], lo = f.origin[a], hi = f.origin[a] + L;
    if (resolved[a] && !(L >= spec.min_length && L <= spec.max_length))
      throw bad_input(where,
                      std::string("the box along ") + axis[a] + " is " + std::to_string(f.n[a]) + " x " + format_precise(f.h[a]) + " = " +
                          format_precise(L) + " m long (" + source + ")",
                      "[" + format_precise(spec.min_length) + ", " + format_precise(spec.max_length) +
                          "] m along each axis it resolves (the range of " + spec.length_param + ")");
    if (!(std::fabs(lo) <= spec.max_length && std::fabs(hi) <= spec.max_length))
      throw bad_input(
          where,
          std::string("the box along ") + axis[a] + " spans " + format_precise(lo) + " to " + format_precise(hi) + " m (" + source + ")",
          "a box within " + format_precise(-spec.max_length) + " to " + format_precise(spec.max_length) + " m (the range of " +
              spec.length_param + ")");
  }
}

void fill_cells(GridField& f, const std::vector<GridRow>& rows) {
  const long long cells = f.cells();
  auto cell_of = [&f](const GridRow& r) { return (r.idx[2] * f.n[1] + r.idx[1]) * f.n[0] + r.idx[0]; };
  if ((long long)rows.size() < cells) {
    // Ragged. The rows' cells, sorted, give the cell repeated on the earliest line or else the first cell
    // without a row, without a grid of every cell (which a few rows with large indices would make huge).
    std::vector<std::pair<long long, int>> seen;  // (cell, line)
    seen.reserve(rows.size());
    for (const GridRow& r : rows) seen.emplace_back(cell_of(r), r.line);
    std::sort(seen.begin(), seen.end());
    std::size_t again = 0, again_first = 0, run = 0;
    for (std::size_t s = 1; s < seen.size(); ++s) {
      if (seen[s].first != seen[s - 1].first) {
        run = s;
      } else if (again == 0 || seen[s].second < seen[again].second) {
        again = s;
        again_first = run;
      }
    }
    if (again > 0) repeated_cell(f, seen[again].first, seen[again].second, seen[again_first].second);
    long long missing = 0;
    while (missing < (long long)seen.size() && seen[missing].first == missing) ++missing;
    throw bad_input(f.file,
                    "the grid is ragged: " + std::to_string(rows.size()) + " rows for " + grid_name(f.n) + " = " + std::to_string(cells) +
                        " cells (the distinct coordinates or largest indices per axis); cell " + cell_name(f.n, missing) + " has no row",
                    "one row per cell of a full nx x ny x nz grid");
  }
  // At least one row per cell: the grid is no larger than the rows already held.
  f.values.assign(cells, 0.0);
  f.line.assign(cells, 0);
  for (const GridRow& r : rows) {
    const long long c = cell_of(r);
    if (f.line[c] != 0) repeated_cell(f, c, r.line, f.line[c]);
    f.values[c] = r.value;
    f.line[c] = r.line;
  }
  // No cell twice and no fewer rows than cells: one row per cell.
}

void grid_from_centres(GridField& f, std::vector<GridRow>& rows, const std::vector<double> coords[3], const GridFileSpec& spec,
                       const std::string& source) {
  Axis ax[3];
  std::int64_t n[3];
  const char* names[3] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    ax[a] = coordinate_axis(coords[a], names[a], f.file);
    n[a] = ax[a].n;
  }
  set_grid(f, n, f.file, spec, "the distinct x, y, z");
  double h_min = 0.0;
  for (int a = 0; a < 3; ++a)
    if (ax[a].n > 1) h_min = h_min > 0.0 ? std::min(h_min, ax[a].h) : ax[a].h;
  if (!(h_min > 0.0))
    throw bad_input(f.file, "every cell has the same x, y and z: the cell size cannot be known", "a grid of at least 2 cells along x");
  bool resolved[3];
  for (int a = 0; a < 3; ++a) {
    f.h[a] = ax[a].n > 1 ? ax[a].h : h_min;
    f.origin[a] = ax[a].first - 0.5 * f.h[a];
    // An axis of one cell takes the smallest cell of the others: its length is the reader's, not the file's.
    resolved[a] = ax[a].n > 1;
  }
  check_box(f, resolved, f.file, spec, source);
  for (std::size_t r = 0; r < rows.size(); ++r)
    for (int a = 0; a < 3; ++a) rows[r].idx[a] = ax[a].n > 1 ? std::llround((coords[a][r] - ax[a].first) / ax[a].h) : 0;
  fill_cells(f, rows);
}

}  // namespace ks::grid_file
