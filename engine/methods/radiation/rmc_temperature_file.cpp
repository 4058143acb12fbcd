#include "rmc_temperature_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace ks::rmc {

namespace {

constexpr const char* kCsvAllowed =
    "a header with columns x,y,z,T (cell centres in m, T in K) or i,j,k,T (cell indices from 0), then one row per cell";
constexpr const char* kTemperatureAllowed = "a finite temperature T > 0 K";
constexpr const char* kVtiConvert =
    "an ASCII .vti; convert with ParaView (File > Save Data, type 'VTK ImageData Files (*.vti)', Data Mode: Ascii) or "
    "with VTK (vtkXMLImageDataWriter::SetDataModeToAscii()), or write a .csv with columns x,y,z,T";

std::string shown(double v) {
  std::ostringstream os;
  os.precision(10);
  os << v;
  return os.str();
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// A whole token as a number (strtod accepts "nan" and "inf"; the caller checks finiteness).
bool parse_number(const std::string& text, double& x) {
  if (text.empty()) return false;
  char* end = nullptr;
  x = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

void check_temperature(double T, const std::string& where) {
  if (!std::isfinite(T) || !(T > 0.0)) throw bad_input(where, "T = " + shown(T) + " K is not a temperature", kTemperatureAllowed);
}

std::string cell_name(const int n[3], std::size_t c) {
  const std::size_t i = c % n[0], j = (c / n[0]) % n[1], k = c / (std::size_t(n[0]) * n[1]);
  std::ostringstream os;
  os << '(' << i << ", " << j << ", " << k << ')';
  return os.str();
}

std::string grid_name(const int n[3]) {
  return std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]);
}

// Rows (each with three coordinates or indices, T and its line) into the cells of `f`, whose n is set:
// every cell exactly once.
struct Row {
  long long idx[3];
  double T;
  int line;
};

void fill_cells(TemperatureField& f, const std::vector<Row>& rows) {
  const long long cells = f.cells();
  f.T.assign(cells, 0.0);
  f.line.assign(cells, 0);
  for (const Row& r : rows) {
    const long long c = (r.idx[2] * f.n[1] + r.idx[1]) * f.n[0] + r.idx[0];
    if (f.line[c] != 0)
      throw bad_input(f.file + ": line " + std::to_string(r.line),
                      "gives cell " + cell_name(f.n, c) + " again (line " + std::to_string(f.line[c]) + " gave it first)",
                      "one row per cell");
    f.T[c] = r.T;
    f.line[c] = r.line;
  }
  if ((long long)rows.size() != cells) {
    long long missing = 0;
    while (f.line[missing] != 0) ++missing;
    throw bad_input(f.file,
                    "the grid is ragged: " + std::to_string(rows.size()) + " rows for " + grid_name(f.n) + " = " +
                        std::to_string(cells) + " cells (the distinct coordinates or largest indices per axis); cell " +
                        cell_name(f.n, missing) + " has no row",
                    "one row per cell of a full nx x ny x nz grid");
  }
}

// The distinct values of one coordinate column: cells and cell size of a uniform axis. Values within
// 1e-6 of the axis's extent are one coordinate (a file prints them to finite precision).
struct Axis {
  int n = 1;
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
  a.n = int(distinct.size());
  a.first = distinct.front();
  if (a.n == 1) return a;
  a.h = (distinct.back() - distinct.front()) / (a.n - 1);
  for (int m = 0; m < a.n; ++m)
    if (std::fabs(distinct[m] - (a.first + m * a.h)) > 1e-3 * a.h)
      throw bad_input(file + ": column " + name,
                      "the cell centres are not uniformly spaced: " + name + " = " + shown(distinct[m]) + " is not on " +
                          shown(a.first) + " + m * " + shown(a.h) + " (" + std::to_string(a.n) + " distinct values)",
                      "the centres of a uniform grid");
  return a;
}

}  // namespace

std::string TemperatureField::source(std::size_t cell) const {
  if (cell < line.size() && line[cell] > 0) return "line " + std::to_string(line[cell]) + " (cell " + cell_name(n, cell) + ")";
  return "cell " + cell_name(n, cell) + " (the mean of its 8 points)";
}

TemperatureField parse_temperature_csv(const std::string& text, const std::string& file) {
  TemperatureField f;
  f.file = file;
  std::istringstream in(text);
  std::string raw;
  int lineno = 0;
  std::vector<std::string> header;
  std::vector<Row> rows;
  std::vector<double> coords[3];
  int col_T = -1, col[3] = {-1, -1, -1};
  bool indices = false;
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) out.push_back(trim(item));
    if (!s.empty() && s.back() == ',') out.emplace_back();
    return out;
  };
  while (std::getline(in, raw)) {
    ++lineno;
    const std::string l = trim(raw);
    if (l.empty() || l[0] == '#') continue;
    const std::string where = file + ": line " + std::to_string(lineno);
    if (header.empty()) {
      header = split(l);
      std::map<std::string, int> at;
      for (int c = 0; c < int(header.size()); ++c) at.emplace(lower(header[c]), c);
      const bool xyz = at.count("x") || at.count("y") || at.count("z");
      indices = !xyz && (at.count("i") || at.count("j") || at.count("k"));
      const char* names[3] = {indices ? "i" : "x", indices ? "j" : "y", indices ? "k" : "z"};
      for (int a = 0; a < 3; ++a) {
        if (!at.count(names[a]))
          throw bad_input(where, "the header '" + l + "' has no column '" + names[a] + "'", kCsvAllowed);
        col[a] = at[names[a]];
      }
      if (!at.count("t")) throw bad_input(where, "the header '" + l + "' has no column 'T'", kCsvAllowed);
      col_T = at["t"];
      continue;
    }
    const std::vector<std::string> v = split(l);
    if (v.size() != header.size())
      throw bad_input(where, "has " + std::to_string(v.size()) + " values, the header has " + std::to_string(header.size()),
                      "one value per column on every row");
    Row r;
    r.line = lineno;
    double x[3];
    for (int a = 0; a < 3; ++a) {
      if (!parse_number(v[col[a]], x[a]) || !std::isfinite(x[a]))
        throw bad_input(where, "'" + v[col[a]] + "' in column '" + header[col[a]] + "' is not a number",
                        indices ? "a cell index (an integer from 0)" : "a finite coordinate in m");
      if (indices) {
        if (x[a] < 0.0 || std::floor(x[a]) != x[a] || x[a] > 1e9)
          throw bad_input(where, "'" + v[col[a]] + "' in column '" + header[col[a]] + "' is not a cell index",
                          "an integer from 0");
        r.idx[a] = (long long)x[a];
      } else {
        coords[a].push_back(x[a]);
      }
    }
    if (!parse_number(v[col_T], r.T)) throw bad_input(where, "'" + v[col_T] + "' in column 'T' is not a number", kTemperatureAllowed);
    check_temperature(r.T, where);
    rows.push_back(r);
  }
  if (header.empty()) throw bad_input(file, "is empty", kCsvAllowed);
  if (rows.empty()) throw bad_input(file, "has a header but no rows", kCsvAllowed);

  if (indices) {
    for (int a = 0; a < 3; ++a) {
      long long top = 0;
      for (const Row& r : rows) top = std::max(top, r.idx[a]);
      f.n[a] = int(top + 1);
    }
  } else {
    Axis ax[3];
    const char* names[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) ax[a] = coordinate_axis(coords[a], names[a], file);
    double h_min = 0.0;
    for (int a = 0; a < 3; ++a)
      if (ax[a].n > 1) h_min = h_min > 0.0 ? std::min(h_min, ax[a].h) : ax[a].h;
    if (!(h_min > 0.0))
      throw bad_input(file, "every row has the same x, y and z: the cell size cannot be known", "a grid of at least 2 cells along x");
    for (int a = 0; a < 3; ++a) {
      f.n[a] = ax[a].n;
      f.h[a] = ax[a].n > 1 ? ax[a].h : h_min;
      f.origin[a] = ax[a].first - 0.5 * f.h[a];
    }
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (int a = 0; a < 3; ++a)
        rows[r].idx[a] = ax[a].n > 1 ? std::llround((coords[a][r] - ax[a].first) / ax[a].h) : 0;
  }
  const long long cells = (long long)f.n[0] * f.n[1] * f.n[2];
  if (cells > (1LL << 31))
    throw bad_input(file, "the grid " + grid_name(f.n) + " has more than 2^31 cells", "a grid the machine can hold");
  fill_cells(f, rows);
  return f;
}

namespace {

// One XML tag's attributes (name="value"), from '<' to its '>'.
std::map<std::string, std::string> attributes(const std::string& tag) {
  std::map<std::string, std::string> out;
  std::size_t p = 0;
  while ((p = tag.find('=', p)) != std::string::npos) {
    std::size_t e = p;
    while (e > 0 && std::isspace((unsigned char)tag[e - 1])) --e;
    std::size_t b = e;
    while (b > 0 && (std::isalnum((unsigned char)tag[b - 1]) || tag[b - 1] == '_')) --b;
    std::size_t q = tag.find_first_of("\"'", p);
    if (q == std::string::npos) break;
    const std::size_t qe = tag.find(tag[q], q + 1);
    if (qe == std::string::npos) break;
    out[tag.substr(b, e - b)] = tag.substr(q + 1, qe - q - 1);
    p = qe + 1;
  }
  return out;
}

int line_at(const std::string& text, std::size_t pos) {
  return 1 + int(std::count(text.begin(), text.begin() + std::min(pos, text.size()), '\n'));
}

// The numbers of an attribute ("0 8 0 4 0 4"); exactly `count` of them.
std::vector<double> numbers(const std::map<std::string, std::string>& attrs, const std::string& key, std::size_t count,
                            const std::string& where) {
  auto it = attrs.find(key);
  if (it == attrs.end()) throw bad_input(where, "has no attribute " + key, "ImageData with WholeExtent, Origin and Spacing");
  std::istringstream in(it->second);
  std::vector<double> out;
  std::string tok;
  double x;
  while (in >> tok) {
    if (!parse_number(tok, x) || !std::isfinite(x))
      throw bad_input(where, key + "=\"" + it->second + "\" holds '" + tok + "'", std::to_string(count) + " numbers");
    out.push_back(x);
  }
  if (out.size() != count)
    throw bad_input(where, key + "=\"" + it->second + "\" has " + std::to_string(out.size()) + " numbers", std::to_string(count));
  return out;
}

struct DataArray {
  std::map<std::string, std::string> attrs;
  bool cell = false;
  std::size_t begin = 0, end = 0;  // the array's text
  int line = 0;                    // of its tag
  std::string name() const { return attrs.count("Name") ? attrs.at("Name") : std::string(); }
  int components() const { return attrs.count("NumberOfComponents") ? std::atoi(attrs.at("NumberOfComponents").c_str()) : 1; }
};

// The DataArrays between <Section ...> and </Section> (a self-closing section has none).
void data_arrays(const std::string& text, const std::string& section, bool cell, std::vector<DataArray>& out) {
  const std::size_t open = text.find("<" + section);
  if (open == std::string::npos) return;
  const std::size_t open_end = text.find('>', open);
  if (open_end == std::string::npos || text[open_end - 1] == '/') return;
  const std::size_t close = text.find("</" + section, open_end);
  std::size_t p = open_end;
  while ((p = text.find("<DataArray", p)) != std::string::npos && p < close) {
    const std::size_t tag_end = text.find('>', p);
    DataArray a;
    a.attrs = attributes(text.substr(p, tag_end - p));
    a.cell = cell;
    a.line = line_at(text, p);
    a.begin = tag_end + 1;
    a.end = text[tag_end - 1] == '/' ? a.begin : text.find("</DataArray", a.begin);
    out.push_back(a);
    p = a.end;
  }
}

}  // namespace

TemperatureField parse_temperature_vti(const std::string& all, const std::string& file) {
  TemperatureField f;
  f.file = file;
  const std::size_t vtk = all.find("<VTKFile");
  if (vtk == std::string::npos || attributes(all.substr(vtk, all.find('>', vtk) - vtk))["type"] != "ImageData")
    throw bad_input(file, "is not a VTK XML ImageData file (no <VTKFile type=\"ImageData\">)", "a .vti written by VTK or ParaView");
  // Appended (raw or base64) data follows the XML structure: read only the structure before it.
  const std::size_t appended = all.find("<AppendedData");
  const std::string text = all.substr(0, appended);

  const std::size_t img = text.find("<ImageData");
  if (img == std::string::npos) throw bad_input(file, "has no <ImageData> element", "a .vti written by VTK or ParaView");
  const std::string where = file + ": line " + std::to_string(line_at(text, img)) + " <ImageData>";
  const auto attrs = attributes(text.substr(img, text.find('>', img) - img));
  const auto extent = numbers(attrs, "WholeExtent", 6, where);
  const auto origin = numbers(attrs, "Origin", 3, where);
  const auto spacing = numbers(attrs, "Spacing", 3, where);
  const char* axis = "xyz";
  for (int a = 0; a < 3; ++a) {
    f.n[a] = int(extent[2 * a + 1] - extent[2 * a]);
    f.h[a] = spacing[a];
    f.origin[a] = origin[a] + extent[2 * a] * spacing[a];
    if (f.n[a] < 1)
      throw bad_input(where, std::string("WholeExtent has no cells along ") + axis[a] + " (" + shown(extent[2 * a]) + " to " +
                                 shown(extent[2 * a + 1]) + ")",
                      "at least 1 cell (2 points) per axis");
    if (!(spacing[a] > 0.0))
      throw bad_input(where, std::string("Spacing along ") + axis[a] + " is " + shown(spacing[a]), "a cell size > 0 m");
  }
  std::size_t pieces = 0;
  for (std::size_t p = text.find("<Piece"); p != std::string::npos; p = text.find("<Piece", p + 1)) {
    ++pieces;
    const auto pa = attributes(text.substr(p, text.find('>', p) - p));
    if (pa.count("Extent") && numbers(pa, "Extent", 6, file + ": line " + std::to_string(line_at(text, p))) != extent)
      throw bad_input(file + ": line " + std::to_string(line_at(text, p)), "the piece's Extent differs from WholeExtent",
                      "one piece covering the whole image");
  }
  if (pieces != 1) throw bad_input(file, "has " + std::to_string(pieces) + " pieces", "one piece covering the whole image");

  std::vector<DataArray> arrays;
  data_arrays(text, "CellData", true, arrays);
  data_arrays(text, "PointData", false, arrays);
  const DataArray* pick = nullptr;
  for (const auto& a : arrays)
    if (!pick && a.name() == "T") pick = &a;
  for (const auto& a : arrays)
    if (!pick && a.components() == 1) pick = &a;
  if (!pick) {
    std::string names;
    for (const auto& a : arrays) names += (names.empty() ? "" : ", ") + a.name() + " (" + std::to_string(a.components()) + " components)";
    throw bad_input(file, "has no temperature array" + (names.empty() ? std::string(" (no cell or point data)") : " among " + names),
                    "a CellData or PointData DataArray named T, or any one-component array");
  }
  const std::string here = file + ": line " + std::to_string(pick->line) + " DataArray '" + pick->name() + "'";
  const std::string format = pick->attrs.count("format") ? pick->attrs.at("format") : "ascii";
  if (format != "ascii" || appended != std::string::npos)
    throw bad_input(here, "has format=\"" + format + "\"" + (appended != std::string::npos ? " (the file has AppendedData)" : "") +
                              ": binary and appended .vti files are not supported", kVtiConvert);
  if (pick->components() != 1)
    throw bad_input(here, "has " + std::to_string(pick->components()) + " components", "a one-component (scalar) array");

  // The values, each with its line.
  const int np[3] = {f.n[0] + 1, f.n[1] + 1, f.n[2] + 1};
  const long long expected = pick->cell ? f.cells() : (long long)np[0] * np[1] * np[2];
  std::vector<double> values;
  std::vector<int> lines;
  values.reserve(expected), lines.reserve(expected);
  int line = line_at(text, pick->begin);
  for (std::size_t p = pick->begin; p < pick->end;) {
    if (text[p] == '\n') ++line;
    if (std::isspace((unsigned char)text[p])) {
      ++p;
      continue;
    }
    std::size_t e = p;
    while (e < pick->end && !std::isspace((unsigned char)text[e])) ++e;
    const std::string tok = text.substr(p, e - p);
    const std::string at = file + ": line " + std::to_string(line);
    double T;
    if (!parse_number(tok, T)) throw bad_input(at, "'" + tok + "' in DataArray '" + pick->name() + "' is not a number", kTemperatureAllowed);
    check_temperature(T, at);
    values.push_back(T);
    lines.push_back(line);
    p = e;
  }
  if ((long long)values.size() != expected)
    throw bad_input(here, "holds " + std::to_string(values.size()) + " values for " + std::to_string(expected) + " " +
                              (pick->cell ? "cells" : "points") + " (WholeExtent " + grid_name(f.n) + " cells)",
                    "one value per " + std::string(pick->cell ? "cell" : "point"));
  if (pick->cell) {
    f.T = std::move(values);
    f.line = std::move(lines);
    return f;
  }
  // Point data: each cell takes the mean of its 8 corner points.
  f.T.assign(f.cells(), 0.0);
  f.line.assign(f.cells(), 0);
  for (int k = 0; k < f.n[2]; ++k)
    for (int j = 0; j < f.n[1]; ++j)
      for (int i = 0; i < f.n[0]; ++i) {
        double s = 0.0;
        for (int c = 0; c < 8; ++c)
          s += values[(std::size_t(k + (c >> 2)) * np[1] + j + ((c >> 1) & 1)) * np[0] + i + (c & 1)];
        f.T[(std::size_t(k) * f.n[1] + j) * f.n[0] + i] = s / 8.0;
      }
  return f;
}

TemperatureField load_temperature_file(const std::string& path) {
  const bool csv = has_ending(path, ".csv"), vti = has_ending(path, ".vti");
  if (!csv && !vti) throw bad_input(path, "is neither a .csv nor a .vti file", "a temperature file ending in .csv or .vti");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad_input(path, "cannot open the temperature file", "a readable .csv or .vti file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return csv ? parse_temperature_csv(ss.str(), path) : parse_temperature_vti(ss.str(), path);
}

void check_temperature_range(const TemperatureField& f, double lo, double hi, const std::string& tables) {
  for (std::size_t c = 0; c < f.T.size(); ++c)
    if (f.T[c] < lo || f.T[c] > hi)
      throw bad_input(f.file + ": " + f.source(c), "T = " + shown(f.T[c]) + " K is outside the " + tables + " tables",
                      "T in [" + shown(lo) + ", " + shown(hi) + "] K (the tables' range; the grey gas takes any T > 0)");
}

}  // namespace ks::rmc
