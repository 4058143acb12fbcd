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
  // Fields between commas; a field in double quotes (RFC 4180, as ParaView's CSV writer quotes every
  // name: "T","Points:0") is unquoted, "" inside it standing for one quote.
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
      item = trim(item);
      if (item.size() >= 2 && item.front() == '"' && item.back() == '"') {
        std::string unquoted;
        for (std::size_t i = 1; i + 1 < item.size(); ++i) {
          unquoted += item[i];
          if (item[i] == '"' && item[i + 1] == '"') ++i;
        }
        item = unquoted;
      }
      out.push_back(item);
    }
    if (!s.empty() && s.back() == ',') out.emplace_back();
    return out;
  };
  // A UTF-8 byte order mark (Excel's "CSV UTF-8") before the header is no part of its first name.
  const std::size_t start = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  for (std::size_t p = start; p < text.size();) {
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
          throw bad_input(where,
                          "the header '" + cut(l, 200) + "' repeats the column '" + header[c] + "' (columns " +
                              std::to_string(it->second + 1) + " and " + std::to_string(c + 1) + ")",
                          "each column name once (in any case)");
      }
      // ParaView's CSV writer names the coordinates of points (after its Cell Centers filter, of cells) so.
      for (const auto& [paraview, axis] : {std::pair{"points:0", "x"}, std::pair{"points:1", "y"}, std::pair{"points:2", "z"}})
        if (at.count(paraview) && !at.count(axis)) at[axis] = at[paraview];
      const bool xyz = at.count("x") || at.count("y") || at.count("z");
      indices = !xyz && (at.count("i") || at.count("j") || at.count("k"));
      const char* names[3] = {indices ? "i" : "x", indices ? "j" : "y", indices ? "k" : "z"};
      for (int a = 0; a < 3; ++a) {
        if (!at.count(names[a]))
          throw bad_input(where, "the header '" + cut(l, 200) + "' has no column '" + names[a] + "'",
                          csv_allowed(spec) +
                              " (from ParaView: Filters > Cell Centers, then File > Save Data as .csv: its Points:0, "
                              "Points:1, Points:2 are the cells' centres)");
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
      throw bad_input(where, "is a row beyond the largest grid",
                      std::to_string(max_cells(spec)) + " rows (" + std::to_string(spec.max_cells_per_axis) + "^3 cells, the range of " +
                          spec.cells_param + ")");
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
                          "a coordinate within " + format_precise(-spec.max_length) + " to " + format_precise(spec.max_length) +
                              " m (the range of " + spec.length_param + ")");
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
    grid_from_centres(f, rows, coords, spec, "the cell centres in columns x, y, z");
    return f;
  }
  fill_cells(f, rows);
  return f;
}

}  // namespace ks
