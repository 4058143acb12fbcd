// The .csv reader of grid files (grid_file.hpp): a header, then one row per cell in any order.
#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <sstream>
#include <utility>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "grid_file_checks.hpp"

namespace ks {

using namespace grid_file;

namespace {

std::string csv_allowed(const GridFileSpec& spec) {
  const std::string& v = spec.value;
  return "a header with columns x,y,z," + v + " (cell centres in m, " + v + " in " + spec.unit + ") or i,j,k," + v +
         " (cell indices from 0), then one row per cell";
}

[[noreturn]] void repeated_cell(const GridField& f, long long cell, int line, int first_line) {
  throw bad_input(f.file + ": line " + std::to_string(line),
                  "gives cell " + cell_name(f.n, cell) + " again (line " + std::to_string(first_line) + " gave it first)",
                  "one row per cell");
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
                    "the grid is ragged: " + std::to_string(rows.size()) + " rows for " + grid_name(f.n) + " = " +
                        std::to_string(cells) + " cells (the distinct coordinates or largest indices per axis); cell " +
                        cell_name(f.n, missing) + " has no row",
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

GridField parse_grid_csv(const std::string& text, const std::string& file, const GridFileSpec& spec) {
  GridField f;
  f.file = file;
  long long lineno = 0;
  std::vector<std::string> header;
  std::vector<GridRow> rows;
  std::vector<double> coords[3];
  int col_value = -1, col[3] = {-1, -1, -1};
  bool indices = false;
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(trim(item));
    if (!s.empty() && s.back() == ',') out.emplace_back();
    return out;
  };
  for (std::size_t p = 0; p < text.size();) {
    std::size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    const std::string l = trim(text.substr(p, e - p));
    p = e + 1;
    if (++lineno > INT_MAX) throw bad_input(file, "has more than " + std::to_string(INT_MAX) + " lines", csv_allowed(spec));
    if (l.empty() || l[0] == '#') continue;
    const std::string where = file + ": line " + std::to_string(lineno);
    if (header.empty()) {
      header = split(l);
      std::map<std::string, int> at;
      for (int c = 0; c < int(header.size()); ++c) {
        const auto [it, first] = at.emplace(lower(header[c]), c);
        // A repeated column would leave which one holds the values to chance.
        if (!first && !header[c].empty())
          throw bad_input(where, "the header '" + cut(l, 200) + "' repeats the column '" + header[c] + "' (columns " +
                                     std::to_string(it->second + 1) + " and " + std::to_string(c + 1) + ")",
                          "each column name once (in any case)");
      }
      const bool xyz = at.count("x") || at.count("y") || at.count("z");
      indices = !xyz && (at.count("i") || at.count("j") || at.count("k"));
      const char* names[3] = {indices ? "i" : "x", indices ? "j" : "y", indices ? "k" : "z"};
      for (int a = 0; a < 3; ++a) {
        if (!at.count(names[a]))
          throw bad_input(where, "the header '" + cut(l, 200) + "' has no column '" + names[a] + "'", csv_allowed(spec));
        col[a] = at[names[a]];
      }
      if (!at.count(lower(spec.value)))
        throw bad_input(where, "the header '" + cut(l, 200) + "' has no column '" + spec.value + "'", csv_allowed(spec));
      col_value = at[lower(spec.value)];
      continue;
    }
    const std::vector<std::string> v = split(l);
    if (v.size() != header.size())
      throw bad_input(where, "has " + std::to_string(v.size()) + " values, the header has " + std::to_string(header.size()),
                      "one value per column on every row");
    if ((long long)rows.size() == max_cells(spec))
      throw bad_input(where, "is a row beyond the largest grid", std::to_string(max_cells(spec)) + " rows (" + std::to_string(spec.max_cells_per_axis) + "^3 cells, the range of " + spec.cells_param + ")");
    GridRow r;
    r.line = int(lineno);
    double x[3];
    for (int a = 0; a < 3; ++a) {
      if (!parse_number(v[col[a]], x[a]) || !std::isfinite(x[a]))
        throw bad_input(where, "'" + cut(v[col[a]], 40) + "' in column '" + header[col[a]] + "' is not a number",
                        indices ? "a cell index (an integer from 0)" : "a finite coordinate in m");
      if (indices) {
        // Below 2^63: the index and the cells per axis it gives are 64-bit integers (checked below).
        if (x[a] < 0.0 || std::floor(x[a]) != x[a] || x[a] >= 9.2e18)
          throw bad_input(where, "'" + cut(v[col[a]], 40) + "' in column '" + header[col[a]] + "' is not a cell index",
                          "an integer from 0");
        r.idx[a] = (long long)x[a];
      } else {
        if (!(std::fabs(x[a]) <= spec.max_length))
          throw bad_input(where, header[col[a]] + " = " + format_precise(x[a]) + " m is outside the box the method allows",
                          "a coordinate within " + format_precise(-spec.max_length) + " to " + format_precise(spec.max_length) + " m (the range of " + spec.length_param + ")");
        coords[a].push_back(x[a]);
      }
    }
    if (!parse_number(v[col_value], r.value))
      throw bad_input(where, "'" + cut(v[col_value], 40) + "' in column '" + spec.value + "' is not a number", value_allowed(spec));
    check_value(r.value, where, spec);
    rows.push_back(r);
  }
  if (header.empty()) throw bad_input(file, "is empty", csv_allowed(spec));
  if (rows.empty()) throw bad_input(file, "has a header but no rows", csv_allowed(spec));

  std::int64_t n[3];
  if (indices) {
    const char* names[3] = {"i", "j", "k"};
    for (int a = 0; a < 3; ++a) {
      long long top = 0;
      for (const GridRow& r : rows) top = std::max(top, r.idx[a]);
      n[a] = checked_add(top, 1, file + ": the largest " + names[a] + " + 1");
    }
    set_grid(f, n, file, spec, "the largest i, j, k + 1");
  } else {
    Axis ax[3];
    const char* names[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
      ax[a] = coordinate_axis(coords[a], names[a], file);
      n[a] = ax[a].n;
    }
    set_grid(f, n, file, spec, "the distinct x, y, z");
    double h_min = 0.0;
    for (int a = 0; a < 3; ++a)
      if (ax[a].n > 1) h_min = h_min > 0.0 ? std::min(h_min, ax[a].h) : ax[a].h;
    if (!(h_min > 0.0))
      throw bad_input(file, "every row has the same x, y and z: the cell size cannot be known", "a grid of at least 2 cells along x");
    bool resolved[3];
    for (int a = 0; a < 3; ++a) {
      f.h[a] = ax[a].n > 1 ? ax[a].h : h_min;
      f.origin[a] = ax[a].first - 0.5 * f.h[a];
      // An axis of one cell takes the smallest cell of the others: its length is the reader's, not the file's.
      resolved[a] = ax[a].n > 1;
    }
    check_box(f, resolved, file, spec, "the cell centres in columns x, y, z");
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (int a = 0; a < 3; ++a)
        rows[r].idx[a] = ax[a].n > 1 ? std::llround((coords[a][r] - ax[a].first) / ax[a].h) : 0;
  }
  fill_cells(f, rows);
  return f;
}

}  // namespace ks
