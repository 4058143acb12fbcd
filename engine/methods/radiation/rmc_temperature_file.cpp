#include "rmc_temperature_file.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string_view>
#include <utility>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/input_file.hpp"

namespace ks::rmc {

namespace {

constexpr const char* kCsvAllowed =
    "a header with columns x,y,z,T (cell centres in m, T in K) or i,j,k,T (cell indices from 0), then one row per cell";
constexpr const char* kVtiConvert =
    "an ASCII .vti; convert with ParaView (File > Save Data, type 'VTK ImageData Files (*.vti)', Data Mode: Ascii) or "
    "with VTK (vtkXMLImageDataWriter::SetDataModeToAscii()), or write a .csv with columns x,y,z,T";
constexpr std::int64_t kMaxCells = std::int64_t(kMaxCellsPerAxis) * kMaxCellsPerAxis * kMaxCellsPerAxis;

std::string shown(double v) {
  std::ostringstream os;
  os.precision(10);
  os << v;
  return os.str();
}

std::string temperature_allowed() {
  return "a finite temperature T > 0 K, at most " + shown(kMaxTemperature) + " K (the range of temperature)";
}

std::string length_allowed() {
  return "[" + shown(kMinLength) + ", " + shown(kMaxLength) + "] m along each axis it resolves (the range of length)";
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
  if (!std::isfinite(T) || !(T > 0.0)) throw bad_input(where, "T = " + shown(T) + " K is not a temperature", temperature_allowed());
  if (T > kMaxTemperature)
    throw bad_input(where, "T = " + shown(T) + " K is above " + shown(kMaxTemperature) + " K", temperature_allowed());
}

std::string cell_name(const int n[3], std::size_t c) {
  const std::size_t i = c % n[0], j = (c / n[0]) % n[1], k = c / (std::size_t(n[0]) * n[1]);
  std::ostringstream os;
  os << '(' << i << ", " << j << ", " << k << ')';
  return os.str();
}

template <class I>
std::string grid_name(const I n[3]) {
  return std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]);
}

// Sets f.n from the cells per axis `n` that `source` gives ("WholeExtent=...", "the largest i, j, k + 1"):
// their product in checked arithmetic, then each axis held to the range of nx, ny, nz.
void set_grid(TemperatureField& f, const std::int64_t n[3], const std::string& where, const std::string& source) {
  const std::string grid = "the grid " + grid_name(n) + " cells (" + source + ")";
  const char* axis = "xyz";
  for (int a = 0; a < 3; ++a)
    if (n[a] < 1) throw bad_input(where, grid + " has no cells along " + axis[a], "at least 1 cell per axis");
  checked_product({n[0], n[1], n[2]}, where + ": " + grid);
  for (int a = 0; a < 3; ++a)
    if (n[a] > kMaxCellsPerAxis)
      throw bad_input(where, grid + " has " + std::to_string(n[a]) + " cells along " + axis[a],
                      "1 to " + std::to_string(kMaxCellsPerAxis) + " cells per axis (the range of nx, ny, nz)");
  for (int a = 0; a < 3; ++a) f.n[a] = int(n[a]);
}

// The box of `f` (n, h and origin set): along each axis it resolves, n h within the range of `length`; every
// corner within +-kMaxLength m. A box beyond those is none the method's parameters could make.
void check_box(const TemperatureField& f, const bool resolved[3], const std::string& where, const std::string& source) {
  const char* axis = "xyz";
  for (int a = 0; a < 3; ++a) {
    const double L = f.n[a] * f.h[a], lo = f.origin[a], hi = f.origin[a] + L;
    if (resolved[a] && !(L >= kMinLength && L <= kMaxLength))
      throw bad_input(where, std::string("the box along ") + axis[a] + " is " + std::to_string(f.n[a]) + " x " + shown(f.h[a]) + " = " +
                                 shown(L) + " m long (" + source + ")",
                      length_allowed());
    if (!(std::fabs(lo) <= kMaxLength && std::fabs(hi) <= kMaxLength))
      throw bad_input(where, std::string("the box along ") + axis[a] + " spans " + shown(lo) + " to " + shown(hi) + " m (" + source + ")",
                      "a box within " + shown(-kMaxLength) + " to " + shown(kMaxLength) + " m (the range of length)");
  }
}

// Rows (each with three coordinates or indices, T and its line) into the cells of `f`, whose n is set:
// every cell exactly once.
struct Row {
  long long idx[3];
  double T;
  int line;
};

[[noreturn]] void repeated_cell(const TemperatureField& f, long long cell, int line, int first_line) {
  throw bad_input(f.file + ": line " + std::to_string(line),
                  "gives cell " + cell_name(f.n, cell) + " again (line " + std::to_string(first_line) + " gave it first)",
                  "one row per cell");
}

void fill_cells(TemperatureField& f, const std::vector<Row>& rows) {
  const long long cells = f.cells();
  auto cell_of = [&f](const Row& r) { return (r.idx[2] * f.n[1] + r.idx[1]) * f.n[0] + r.idx[0]; };
  if ((long long)rows.size() < cells) {
    // Ragged. The rows' cells, sorted, give the cell repeated on the earliest line or else the first cell
    // without a row, without a grid of every cell (which a few rows with large indices would make huge).
    std::vector<std::pair<long long, int>> seen;  // (cell, line)
    seen.reserve(rows.size());
    for (const Row& r : rows) seen.emplace_back(cell_of(r), r.line);
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
  f.T.assign(cells, 0.0);
  f.line.assign(cells, 0);
  for (const Row& r : rows) {
    const long long c = cell_of(r);
    if (f.line[c] != 0) repeated_cell(f, c, r.line, f.line[c]);
    f.T[c] = r.T;
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
  long long lineno = 0;
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
  for (std::size_t p = 0; p < text.size();) {
    std::size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    const std::string l = trim(text.substr(p, e - p));
    p = e + 1;
    if (++lineno > INT_MAX) throw bad_input(file, "has more than " + std::to_string(INT_MAX) + " lines", kCsvAllowed);
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
          throw bad_input(where, "the header '" + cut(l, 200) + "' has no column '" + names[a] + "'", kCsvAllowed);
        col[a] = at[names[a]];
      }
      if (!at.count("t")) throw bad_input(where, "the header '" + cut(l, 200) + "' has no column 'T'", kCsvAllowed);
      col_T = at["t"];
      continue;
    }
    const std::vector<std::string> v = split(l);
    if (v.size() != header.size())
      throw bad_input(where, "has " + std::to_string(v.size()) + " values, the header has " + std::to_string(header.size()),
                      "one value per column on every row");
    if ((long long)rows.size() == kMaxCells)
      throw bad_input(where, "is a row beyond the largest grid", std::to_string(kMaxCells) + " rows (1024^3 cells, the range of nx, ny, nz)");
    Row r;
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
        if (!(std::fabs(x[a]) <= kMaxLength))
          throw bad_input(where, header[col[a]] + " = " + shown(x[a]) + " m is outside the box the method allows",
                          "a coordinate within " + shown(-kMaxLength) + " to " + shown(kMaxLength) + " m (the range of length)");
        coords[a].push_back(x[a]);
      }
    }
    if (!parse_number(v[col_T], r.T))
      throw bad_input(where, "'" + cut(v[col_T], 40) + "' in column 'T' is not a number", temperature_allowed());
    check_temperature(r.T, where);
    rows.push_back(r);
  }
  if (header.empty()) throw bad_input(file, "is empty", kCsvAllowed);
  if (rows.empty()) throw bad_input(file, "has a header but no rows", kCsvAllowed);

  std::int64_t n[3];
  if (indices) {
    const char* names[3] = {"i", "j", "k"};
    for (int a = 0; a < 3; ++a) {
      long long top = 0;
      for (const Row& r : rows) top = std::max(top, r.idx[a]);
      n[a] = checked_add(top, 1, file + ": the largest " + names[a] + " + 1");
    }
    set_grid(f, n, file, "the largest i, j, k + 1");
  } else {
    Axis ax[3];
    const char* names[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
      ax[a] = coordinate_axis(coords[a], names[a], file);
      n[a] = ax[a].n;
    }
    set_grid(f, n, file, "the distinct x, y, z");
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
    check_box(f, resolved, file, "the cell centres in columns x, y, z");
    for (std::size_t r = 0; r < rows.size(); ++r)
      for (int a = 0; a < 3; ++a)
        rows[r].idx[a] = ax[a].n > 1 ? std::llround((coords[a][r] - ax[a].first) / ax[a].h) : 0;
  }
  fill_cells(f, rows);
  return f;
}

namespace {

// A position in a file's text that counts lines as it moves. Every read checks the end of the text.
class Cursor {
 public:
  Cursor(std::string_view text, const std::string& file) : text_(text), file_(file) {}
  std::string_view text() const { return text_; }
  std::size_t pos() const { return pos_; }
  long long line() const { return line_; }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  bool starts_with(std::string_view s) const { return text_.substr(pos_).starts_with(s); }
  std::size_t find(std::string_view s) const { return text_.find(s, pos_); }
  // Moves to `p` (at most the end), counting the lines passed.
  void move_to(std::size_t p) {
    p = std::min(p, text_.size());
    if (p > pos_) line_ += std::count(text_.begin() + pos_, text_.begin() + p, '\n');
    pos_ = p;
  }
  void next() { move_to(pos_ + 1); }
  void skip_space() {
    while (!at_end() && std::isspace((unsigned char)text_[pos_])) next();
  }
  std::string where() const { return file_ + ": line " + std::to_string(line_); }
  [[noreturn]] void fail(const std::string& what, const std::string& expected) const { throw bad_input(where(), what, expected); }

 private:
  std::string_view text_;
  const std::string& file_;
  std::size_t pos_ = 0;
  long long line_ = 1;
};

struct Tag {
  std::string name;
  bool closing = false;  // </name>
  bool empty = false;    // <name ... />
  std::map<std::string, std::string> attrs;
  long long line = 0;
};

bool name_char(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == ':' || c == '-' || c == '.'; }

std::string char_shown(char c) {
  if (std::isprint((unsigned char)c)) return std::string("'") + c + "'";
  std::ostringstream os;
  os << "byte 0x" << std::hex << int((unsigned char)c);
  return os.str();
}

// The next tag from the cursor on, leaving the cursor after its '>'; false when no '<' is left.
// Declarations (<?...?>), comments (<!--...-->) and other <!...> are skipped.
bool next_tag(Cursor& c, Tag& tag) {
  for (;;) {
    const std::size_t lt = c.find("<");
    if (lt == std::string_view::npos) {
      c.move_to(c.text().size());
      return false;
    }
    c.move_to(lt);
    const std::string_view close = c.starts_with("<!--") ? "-->" : c.starts_with("<?") ? "?>" : c.starts_with("<!") ? ">" : "";
    if (close.empty()) break;
    const std::size_t e = c.text().find(close, c.pos() + 2);
    if (e == std::string_view::npos)
      c.fail(std::string("the file ends inside the ") + (close == "-->" ? "comment" : "declaration") + " that starts here",
             "'" + std::string(close) + "' closing it");
    c.move_to(e + close.size());
  }
  tag = Tag{};
  tag.line = c.line();
  c.next();
  if (c.peek() == '/') tag.closing = true, c.next();
  while (!c.at_end() && name_char(c.peek())) tag.name += c.peek(), c.next();
  if (tag.name.empty())
    c.fail(c.at_end() ? "the file ends after '<'" : "'<' is followed by " + char_shown(c.peek()), "a tag name, as in <DataArray ...>");
  const std::string shown_tag = std::string(tag.closing ? "</" : "<") + tag.name + ">";
  const std::string ends = "the file ends inside the tag " + shown_tag;
  for (;;) {
    c.skip_space();
    if (c.at_end()) c.fail(ends, "'>' closing the tag");
    if (c.peek() == '>') {
      c.next();
      return true;
    }
    if (c.peek() == '/' && !tag.closing) {
      c.next();
      if (c.peek() != '>') c.fail(c.at_end() ? ends : "'/' in the tag " + shown_tag + " is followed by " + char_shown(c.peek()), "'/>'");
      c.next();
      tag.empty = true;
      return true;
    }
    std::string key;
    while (!tag.closing && !c.at_end() && name_char(c.peek())) key += c.peek(), c.next();
    if (key.empty()) c.fail("the tag " + shown_tag + " has " + char_shown(c.peek()) + " where an attribute or its end should be", "name=\"value\", '/>' or '>'");
    c.skip_space();
    if (c.peek() != '=') c.fail(c.at_end() ? ends : "the attribute " + key + " of " + shown_tag + " has no '='", key + "=\"value\"");
    c.next();
    c.skip_space();
    const char q = c.peek();
    if (q != '"' && q != '\'') c.fail(c.at_end() ? ends : "the attribute " + key + " of " + shown_tag + " has no quoted value", key + "=\"value\"");
    const std::size_t qe = c.text().find(q, c.pos() + 1);
    if (qe == std::string_view::npos) c.fail("the file ends inside the value of " + key + " in " + shown_tag, std::string("a closing ") + q);
    if (!tag.attrs.emplace(key, std::string(c.text().substr(c.pos() + 1, qe - c.pos() - 1))).second)
      c.fail("the tag " + shown_tag + " repeats the attribute " + key, "each attribute once");
    c.move_to(qe + 1);
  }
}

// The numbers of an attribute ("0 8 0 4 0 4"); exactly `count` of them.
std::vector<double> numbers(const std::map<std::string, std::string>& attrs, const std::string& key, std::size_t count,
                            const std::string& where) {
  auto it = attrs.find(key);
  if (it == attrs.end()) throw bad_input(where, "has no attribute " + key, "ImageData with WholeExtent, Origin and Spacing");
  const std::string value = key + "=\"" + cut(it->second, 120) + "\"";
  std::istringstream in(it->second);
  std::vector<double> out;
  std::string tok;
  double x;
  while (out.size() <= count && in >> tok) {
    if (!parse_number(tok, x) || !std::isfinite(x)) throw bad_input(where, value + " holds '" + cut(tok, 40) + "'", std::to_string(count) + " numbers");
    out.push_back(x);
  }
  if (out.size() != count)
    throw bad_input(where, value + " has " + (out.size() > count ? "more than " + std::to_string(count) : std::to_string(out.size())) + " numbers",
                    std::to_string(count));
  return out;
}

// The grid of an <ImageData> tag into `f` (n, h, origin); returns its WholeExtent.
std::vector<double> image_grid(TemperatureField& f, const Tag& t, const std::string& where) {
  const auto extent = numbers(t.attrs, "WholeExtent", 6, where);
  const auto origin = numbers(t.attrs, "Origin", 3, where);
  const auto spacing = numbers(t.attrs, "Spacing", 3, where);
  const std::string source = "WholeExtent=\"" + cut(t.attrs.at("WholeExtent"), 120) + "\"";
  std::int64_t n[3];
  for (int a = 0; a < 3; ++a) {
    for (int e = 2 * a; e < 2 * a + 2; ++e)
      if (std::floor(extent[e]) != extent[e] || std::fabs(extent[e]) > 9e15)  // integers, exact in a double
        throw bad_input(where, source + " holds " + shown(extent[e]) + ", not a point index", "six integers of magnitude below 9e15");
    n[a] = std::int64_t(extent[2 * a + 1]) - std::int64_t(extent[2 * a]);
  }
  set_grid(f, n, where, source);
  const char* axis = "xyz";
  for (int a = 0; a < 3; ++a) {
    if (!(spacing[a] > 0.0))
      throw bad_input(where, std::string("Spacing along ") + axis[a] + " is " + shown(spacing[a]), "a cell size > 0 m");
    f.h[a] = spacing[a];
    f.origin[a] = origin[a] + extent[2 * a] * spacing[a];
  }
  const bool resolved[3] = {true, true, true};
  check_box(f, resolved, where, "Origin, Spacing and WholeExtent");
  return extent;
}

struct DataArray {
  std::map<std::string, std::string> attrs;
  bool cell = false;
  std::size_t begin = 0, end = 0;  // the array's text
  long long line = 0;              // of its tag
  long long begin_line = 0;        // of its text
  std::string name() const { return attrs.count("Name") ? attrs.at("Name") : std::string(); }
  std::string components() const { return attrs.count("NumberOfComponents") ? trim(attrs.at("NumberOfComponents")) : "1"; }
  bool scalar() const {
    double x;
    return parse_number(components(), x) && x == 1.0;
  }
};

}  // namespace

TemperatureField parse_temperature_vti(const std::string& all, const std::string& file) {
  TemperatureField f;
  f.file = file;
  // Appended (raw or base64) data follows the XML structure and may hold any byte: read only the structure before it.
  const std::size_t appended = all.find("<AppendedData");
  Cursor c(std::string_view(all).substr(0, appended), file);
  bool vtk = false, image = false, closed = false;
  std::vector<double> extent;
  std::size_t pieces = 0;
  int section = 0;                  // inside CellData (1) or PointData (2)
  std::vector<DataArray> arrays[2];  // of CellData, of PointData
  Tag t;
  while (next_tag(c, t)) {
    const std::string at = file + ": line " + std::to_string(t.line);
    if (t.closing) {
      if (t.name == "CellData" || t.name == "PointData") section = 0;
      closed = closed || t.name == "VTKFile";
      continue;
    }
    if (t.name == "VTKFile") {
      if (!t.attrs.count("type") || t.attrs.at("type") != "ImageData")
        throw bad_input(file, "is not a VTK XML ImageData file (no <VTKFile type=\"ImageData\">)", "a .vti written by VTK or ParaView");
      vtk = true;
    } else if (t.name == "ImageData" && !image) {
      extent = image_grid(f, t, at + " <ImageData>");
      image = true;
    } else if (t.name == "Piece") {
      ++pieces;
      if (image && t.attrs.count("Extent") && numbers(t.attrs, "Extent", 6, at) != extent)
        throw bad_input(at, "the piece's Extent differs from WholeExtent", "one piece covering the whole image");
    } else if (t.name == "CellData" || t.name == "PointData") {
      section = t.empty ? 0 : t.name == "CellData" ? 1 : 2;
    } else if (t.name == "DataArray" && section != 0) {
      DataArray a;
      a.attrs = t.attrs;
      a.cell = section == 1;
      a.line = t.line;
      a.begin = a.end = c.pos();
      a.begin_line = c.line();
      if (!t.empty) {
        // The values run to the next tag, which must close the array.
        const std::size_t lt = c.find("<");
        if (lt == std::string_view::npos) {
          c.move_to(lt);
          c.fail("the file ends inside the values of DataArray '" + a.name() + "' (its tag is on line " + std::to_string(a.line) + ")",
                 "the values, then </DataArray>");
        }
        a.end = lt;
        Tag close;
        next_tag(c, close);  // the cursor is at a '<'
        if (!close.closing || close.name != "DataArray")
          throw bad_input(file + ": line " + std::to_string(close.line),
                          "the values of DataArray '" + a.name() + "' are followed by <" + std::string(close.closing ? "/" : "") + close.name + ">",
                          "</DataArray> after the values");
      }
      arrays[section - 1].push_back(a);
    }
  }
  if (!vtk) throw bad_input(file, "is not a VTK XML ImageData file (no <VTKFile type=\"ImageData\">)", "a .vti written by VTK or ParaView");
  if (!image) throw bad_input(file, "has no <ImageData> element", "a .vti written by VTK or ParaView");
  if (appended == std::string::npos && !closed)
    c.fail("the file ends before </VTKFile>", "a complete .vti ending in </VTKFile> (was it cut short?)");
  if (pieces != 1) throw bad_input(file, "has " + std::to_string(pieces) + " pieces", "one piece covering the whole image");

  const DataArray* pick = nullptr;
  for (const auto& list : arrays)
    for (const auto& a : list)
      if (!pick && a.name() == "T") pick = &a;
  for (const auto& list : arrays)
    for (const auto& a : list)
      if (!pick && a.scalar()) pick = &a;
  if (!pick) {
    std::string names;
    for (const auto& list : arrays)
      for (const auto& a : list) names += (names.empty() ? "" : ", ") + a.name() + " (" + cut(a.components(), 20) + " components)";
    throw bad_input(file, "has no temperature array" + (names.empty() ? std::string(" (no cell or point data)") : " among " + cut(names, 400)),
                    "a CellData or PointData DataArray named T, or any one-component array");
  }
  const std::string here = file + ": line " + std::to_string(pick->line) + " DataArray '" + pick->name() + "'";
  const std::string format = pick->attrs.count("format") ? pick->attrs.at("format") : "ascii";
  if (format != "ascii" || appended != std::string::npos)
    throw bad_input(here, "has format=\"" + cut(format, 40) + "\"" + (appended != std::string::npos ? " (the file has AppendedData)" : "") +
                              ": binary and appended .vti files are not supported", kVtiConvert);
  if (!pick->scalar()) throw bad_input(here, "has " + cut(pick->components(), 20) + " components", "a one-component (scalar) array");

  // The values, each with its line; beyond the expected count only counted.
  const std::int64_t np[3] = {f.n[0] + 1, f.n[1] + 1, f.n[2] + 1};
  const std::int64_t expected = pick->cell ? f.cells() : checked_product({np[0], np[1], np[2]}, here + ": points");
  std::vector<double> values;
  std::vector<int> lines;
  values.reserve(std::min<std::size_t>(expected, (pick->end - pick->begin) / 2 + 1));
  lines.reserve(values.capacity());
  std::int64_t count = 0;
  long long line = pick->begin_line;
  for (std::size_t p = pick->begin; p < pick->end;) {
    if (all[p] == '\n') ++line;
    if (std::isspace((unsigned char)all[p])) {
      ++p;
      continue;
    }
    std::size_t e = p;
    while (e < pick->end && !std::isspace((unsigned char)all[e])) ++e;
    const std::string tok = all.substr(p, e - p);
    const std::string at = file + ": line " + std::to_string(line);
    double T;
    if (!parse_number(tok, T))
      throw bad_input(at, "'" + cut(tok, 40) + "' in DataArray '" + pick->name() + "' is not a number", temperature_allowed());
    check_temperature(T, at);
    if (line > INT_MAX) throw bad_input(at, "is beyond line " + std::to_string(INT_MAX), "a .vti of fewer lines");
    if (count++ < expected) values.push_back(T), lines.push_back(int(line));
    p = e;
  }
  if (count != expected)
    throw bad_input(here, "holds " + std::to_string(count) + " values for " + std::to_string(expected) + " " +
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
        for (int q = 0; q < 8; ++q)
          s += values[(std::size_t(k + (q >> 2)) * np[1] + j + ((q >> 1) & 1)) * np[0] + i + (q & 1)];
        f.T[(std::size_t(k) * f.n[1] + j) * f.n[0] + i] = s / 8.0;
      }
  return f;
}

namespace {

void check_ending(const std::string& path) {
  if (!has_ending(path, ".csv") && !has_ending(path, ".vti"))
    throw bad_input(path, "is neither a .csv nor a .vti file", "a temperature file ending in .csv or .vti");
}

}  // namespace

TemperatureField load_temperature_file(const std::string& path) {
  check_ending(path);
  const std::string text = read_input_file(path, "temperature file", kMaxTemperatureFileBytes);
  return has_ending(path, ".csv") ? parse_temperature_csv(text, path) : parse_temperature_vti(text, path);
}

TemperatureFileEstimate estimate_temperature_file(const std::string& path) {
  constexpr std::uint64_t kHead = 1ull << 20;
  check_ending(path);
  InputFile in(path, "temperature file", kMaxTemperatureFileBytes);
  const std::string head = in.read(kHead);
  const bool whole = head.size() == in.size();
  TemperatureFileEstimate e;
  std::int64_t values = 0;       // held while reading: rows of a .csv, values of a .vti
  std::int64_t value_bytes = 0;  // per value
  if (has_ending(path, ".vti")) {
    const std::size_t img = head.find("<ImageData"), close = img == std::string::npos ? img : head.find('>', img);
    if (close != std::string::npos) {
      Cursor c(std::string_view(head).substr(0, close + 1), path);
      c.move_to(img);
      Tag t;
      next_tag(c, t);
      TemperatureField f;
      image_grid(f, t, path + ": line " + std::to_string(t.line) + " <ImageData>");
      e.cells = f.cells();
      std::copy(f.n, f.n + 3, e.n);
      values = std::int64_t(f.n[0] + 1) * (f.n[1] + 1) * (f.n[2] + 1);  // point data, the larger case
      e.how = "temperature_file " + grid_name(f.n) + " cells (its WholeExtent)";
    } else {
      // No header in the first MiB: every value takes at least 2 bytes.
      values = e.cells = std::min<std::int64_t>(std::int64_t(in.size() / 2), kMaxCells);
      e.how = "temperature_file at most " + std::to_string(e.cells) + " cells (its size / 2 B: no <ImageData> in its first MiB)";
    }
    value_bytes = sizeof(double) + sizeof(int);
  } else {
    // One row per cell: the rows of the first MiB, counted, and beyond it estimated from their mean length.
    std::int64_t rows = 0;
    std::size_t first_row = std::string::npos, scanned_end = 0;
    for (std::size_t p = 0; p < head.size();) {
      std::size_t eol = head.find('\n', p);
      if (eol == std::string::npos) {
        if (!whole) break;  // a line the first MiB cuts
        eol = head.size();
      }
      const std::string l = trim(head.substr(p, eol - p));
      p = scanned_end = eol + 1;
      if (l.empty() || l[0] == '#') continue;
      if (first_row == std::string::npos) first_row = p;  // the header: rows follow
      else ++rows;
    }
    if (whole) {
      e.cells = rows;
      e.how = "temperature_file " + std::to_string(rows) + " rows";
    } else if (rows > 0) {
      const double per_row = double(scanned_end - first_row) / double(rows);
      e.cells = std::int64_t(std::min(double(kMaxCells), std::ceil(double(in.size() - first_row) / per_row)));
      e.how = "temperature_file about " + std::to_string(e.cells) + " rows (from the mean row of its first MiB)";
    } else {
      // No rows in the first MiB: every row takes at least 8 bytes ("0,0,0,1\n").
      e.cells = std::min<std::int64_t>(std::int64_t(in.size() / 8), kMaxCells);
      e.how = "temperature_file at most " + std::to_string(e.cells) + " rows (its size / 8 B)";
    }
    values = e.cells;
    value_bytes = sizeof(Row) + 4 * sizeof(double);  // a row, its coordinates and one axis's sorted copy
  }
  // The text, what is held per value, and the field (T and the line of each cell).
  const std::int64_t held = checked_add(checked_mul(values, value_bytes, path + ": rows or values x bytes"),
                                        checked_mul(e.cells, sizeof(double) + sizeof(int), path + ": cells x bytes"), path + ": bytes");
  e.read_bytes = std::uint64_t(checked_add(std::int64_t(in.size()), held, path + ": bytes"));
  return e;
}

void check_temperature_range(const TemperatureField& f, double lo, double hi, const std::string& tables) {
  for (std::size_t c = 0; c < f.T.size(); ++c)
    if (f.T[c] < lo || f.T[c] > hi)
      throw bad_input(f.file + ": " + f.source(c), "T = " + shown(f.T[c]) + " K is outside the " + tables + " tables",
                      "T in [" + shown(lo) + ", " + shown(hi) + "] K (the tables' range; the grey gas takes any T > 0)");
}

}  // namespace ks::rmc
