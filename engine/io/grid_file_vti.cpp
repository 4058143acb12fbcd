// The .vti reader of grid files (grid_file.hpp): VTK XML ImageData, ASCII or raw appended, read without VTK.
#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <map>
#include <sstream>
#include <string_view>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "grid_file_checks.hpp"
#include "vtk_appended_reader.hpp"
#include "xml_tags.hpp"

namespace ks {

using namespace grid_file;
using xml::Cursor;
using xml::next_tag;
using xml::Tag;

namespace {

std::string vti_convert(const GridFileSpec& spec) {
  return "a .vti with ASCII or raw appended data (ParaView: File > Save Data, type 'VTK ImageData Files (*.vti)', Data Mode "
         "Appended with Encode Appended Data off, or Ascii; VTK: vtkXMLImageDataWriter with EncodeAppendedDataOff()), or a "
         ".csv with columns x,y,z," +
         spec.value;
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
    if (!parse_number(tok, x) || !std::isfinite(x))
      throw bad_input(where, value + " holds '" + cut(tok, 40) + "'", std::to_string(count) + " numbers");
    out.push_back(x);
  }
  if (out.size() != count)
    throw bad_input(where,
                    value + " has " + (out.size() > count ? "more than " + std::to_string(count) : std::to_string(out.size())) + " numbers",
                    std::to_string(count));
  return out;
}

// The grid of an <ImageData> tag into `f` (n, h, origin); returns its WholeExtent.
std::vector<double> image_grid(GridField& f, const Tag& t, const std::string& where, const GridFileSpec& spec) {
  const auto extent = numbers(t.attrs, "WholeExtent", 6, where);
  const auto origin = numbers(t.attrs, "Origin", 3, where);
  const auto spacing = numbers(t.attrs, "Spacing", 3, where);
  const std::string source = "WholeExtent=\"" + cut(t.attrs.at("WholeExtent"), 120) + "\"";
  std::int64_t n[3];
  for (int a = 0; a < 3; ++a) {
    for (int e = 2 * a; e < 2 * a + 2; ++e)
      if (std::floor(extent[e]) != extent[e] || std::fabs(extent[e]) > 9e15)  // integers, exact in a double
        throw bad_input(where, source + " holds " + format_precise(extent[e]) + ", not a point index",
                        "six integers of magnitude below 9e15");
    // A flat axis (equal ends: a 2D or 1D image, as kinetic-run and ParaView write them) holds one cell.
    n[a] = std::max<std::int64_t>(std::int64_t(extent[2 * a + 1]) - std::int64_t(extent[2 * a]), extent[2 * a + 1] == extent[2 * a]);
  }
  set_grid(f, n, where, spec, source);
  const char* axis = "xyz";
  for (int a = 0; a < 3; ++a) {
    if (!(spacing[a] > 0.0))
      throw bad_input(where, std::string("Spacing along ") + axis[a] + " is " + format_precise(spacing[a]), "a cell size > 0 m");
    f.h[a] = spacing[a];
    f.origin[a] = origin[a] + extent[2 * a] * spacing[a];
  }
  const bool resolved[3] = {true, true, true};
  check_box(f, resolved, where, spec, "Origin, Spacing and WholeExtent");
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

// Point data to cells: each cell takes the mean of its 8 corner points (the trilinear interpolant at its centre).
GridField cells_from_points(GridField f, const std::vector<double>& points) {
  const std::int64_t np[2] = {f.n[0] + 1, f.n[1] + 1};
  f.values.assign(f.cells(), 0.0);
  f.line.assign(f.cells(), 0);
  for (int k = 0; k < f.n[2]; ++k)
    for (int j = 0; j < f.n[1]; ++j)
      for (int i = 0; i < f.n[0]; ++i) {
        double s = 0.0;
        for (int q = 0; q < 8; ++q) s += points[(std::size_t(k + (q >> 2)) * np[1] + j + ((q >> 1) & 1)) * np[0] + i + (q & 1)];
        f.values[(std::size_t(k) * f.n[1] + j) * f.n[0] + i] = s / 8.0;
      }
  return f;
}

// The layout of binary data the <VTKFile> tag declares: zlib or none here (VTK's reader, where it is
// installed, takes LZ4 and LZMA).
VtkBinaryLayout binary_layout(const Tag& t, const std::string& where) {
  VtkBinaryLayout l = vtk_binary_layout(t, where);
  if (l.compressed() && l.compressor != "vtkZLibDataCompressor")
    throw bad_input(where, "has compressor=\"" + l.compressor + "\"",
                    "vtkZLibDataCompressor or none (ParaView: File > Save Data, Compressor Type: ZLib or None)");
  return l;
}

// The values of an appended DataArray: its offset into the raw <AppendedData> block after the XML.
std::vector<double> appended_values(const std::string& all, std::size_t appended, const DataArray& a, const VtkBinaryLayout& layout,
                                    std::int64_t count, const std::string& here, const GridFileSpec& spec) {
  if (appended == std::string::npos) throw bad_input(here, "has format=\"appended\" and the file has no <AppendedData>", vti_convert(spec));
  const std::size_t open_end = all.find('>', appended), mark = open_end == std::string::npos ? open_end : all.find('_', open_end);
  if (mark == std::string::npos)
    throw bad_input(here, "the file's <AppendedData> has no '_' before its data", "a complete .vti (was it cut short?)");
  const std::string head = all.substr(appended, open_end - appended);
  if (head.find("encoding=\"base64\"") != std::string::npos)
    throw bad_input(here, "its <AppendedData> is base64-encoded, which is not read without VTK", vti_convert(spec));
  double offset = -1.0;
  if (!a.attrs.count("offset") || !parse_number(trim(a.attrs.at("offset")), offset) || offset < 0 || std::floor(offset) != offset)
    throw bad_input(
        here, "has no offset=\"N\" into the appended data (has '" + cut(a.attrs.count("offset") ? a.attrs.at("offset") : "", 40) + "')",
        "offset=\"N\", N >= 0 an integer");
  return read_appended_array(std::string_view(all).substr(mark + 1), std::uint64_t(offset), a.attrs.count("type") ? a.attrs.at("type") : "",
                             std::uint64_t(count), layout, here);
}

}  // namespace

GridField parse_grid_vti(const std::string& all, const std::string& file, const GridFileSpec& spec) {
  GridField f;
  f.file = file;
  // Appended (raw or base64) data follows the XML structure and may hold any byte: read only the structure before it.
  const std::size_t appended = all.find("<AppendedData");
  Cursor c(std::string_view(all).substr(0, appended), file);
  bool vtk = false, image = false, closed = false;
  std::vector<double> extent;
  std::size_t pieces = 0;
  int section = 0;                   // inside CellData (1) or PointData (2)
  std::vector<DataArray> arrays[2];  // of CellData, of PointData
  VtkBinaryLayout layout;
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
      layout = binary_layout(t, at + " <VTKFile>");
      vtk = true;
    } else if (t.name == "ImageData" && !image) {
      extent = image_grid(f, t, at + " <ImageData>", spec);
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
          throw bad_input(
              file + ": line " + std::to_string(close.line),
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
      if (!pick && a.name() == spec.value) pick = &a;
  for (const auto& list : arrays)
    for (const auto& a : list)
      if (!pick && a.scalar()) pick = &a;
  if (!pick) {
    std::string names;
    for (const auto& list : arrays)
      for (const auto& a : list) names += (names.empty() ? "" : ", ") + a.name() + " (" + cut(a.components(), 20) + " components)";
    throw bad_input(
        file,
        "has no " + spec.quantity + " array" + (names.empty() ? std::string(" (no cell or point data)") : " among " + cut(names, 400)),
        "a CellData or PointData DataArray named " + spec.value + ", or any one-component array");
  }
  const std::string here = file + ": line " + std::to_string(pick->line) + " DataArray '" + pick->name() + "'";
  const std::string format = pick->attrs.count("format") ? pick->attrs.at("format") : "ascii";
  if (format != "ascii" && format != "appended")
    throw bad_input(here, "has format=\"" + cut(format, 40) + "\": inline binary (base64) data is not read without VTK", vti_convert(spec));
  if (!pick->scalar()) throw bad_input(here, "has " + cut(pick->components(), 20) + " components", "a one-component (scalar) array");
  const std::int64_t np[3] = {f.n[0] + 1, f.n[1] + 1, f.n[2] + 1};
  const std::int64_t expected = pick->cell ? f.cells() : checked_product({np[0], np[1], np[2]}, here + ": points");
  if (format == "appended") {
    std::vector<double> values = appended_values(all, appended, *pick, layout, expected, here, spec);
    for (std::size_t i = 0; i < values.size(); ++i)
      check_value(values[i], here + " value " + std::to_string(i) + (pick->cell ? " (cell " + cell_name(f.n, i) + ")" : ""), spec);
    if (!pick->cell) return cells_from_points(std::move(f), values);
    f.values = std::move(values);  // f.line stays empty: the values have no lines
    return f;
  }
  // The values, each with its line; beyond the expected count only counted.
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
      throw bad_input(at, "'" + cut(tok, 40) + "' in DataArray '" + pick->name() + "' is not a number", value_allowed(spec));
    check_value(T, at, spec);
    if (line > INT_MAX) throw bad_input(at, "is beyond line " + std::to_string(INT_MAX), "a .vti of fewer lines");
    if (count++ < expected) values.push_back(T), lines.push_back(int(line));
    p = e;
  }
  if (count != expected)
    throw bad_input(here,
                    "holds " + std::to_string(count) + " values for " + std::to_string(expected) + " " + (pick->cell ? "cells" : "points") +
                        " (WholeExtent " + grid_name(f.n) + " cells)",
                    "one value per " + std::string(pick->cell ? "cell" : "point"));
  if (pick->cell) {
    f.values = std::move(values);
    f.line = std::move(lines);
    return f;
  }
  return cells_from_points(std::move(f), values);
}

bool grid_file::vti_header_grid(const std::string& head, const std::string& file, const GridFileSpec& spec, GridField& f) {
  std::size_t img = head.find("<ImageData");
  if (img == std::string::npos) img = head.find("<PImageData");  // a .pvti: the whole grid over its pieces
  const std::size_t close = img == std::string::npos ? img : head.find('>', img);
  if (close == std::string::npos) return false;
  Cursor c(std::string_view(head).substr(0, close + 1), file);
  c.move_to(img);
  Tag t;
  next_tag(c, t);
  image_grid(f, t, file + ": line " + std::to_string(t.line) + " <" + t.name + ">", spec);
  return true;
}

}  // namespace ks
