#include "vtk_file_checks.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include <vtkBase64Utilities.h>
#include <vtkCellArray.h>
#include <vtkCellType.h>
#include <vtkCommand.h>
#include <vtkDataArray.h>
#include <vtkDataSet.h>
#include <vtkLZ4DataCompressor.h>
#include <vtkLZMADataCompressor.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkRectilinearGrid.h>
#include <vtkSmartPointer.h>
#include <vtkUnstructuredGrid.h>
#include <vtkZLibDataCompressor.h>

#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/text.hpp"
#include "io/grid_file_checks.hpp"
#include "io/vtk_appended_reader.hpp"
#include "io/xml_tags.hpp"

namespace ks::vtk_io {

namespace {

using grid_file::max_cells;

constexpr std::uint64_t kMaxPointsPerCell = 8;  // a hexahedron's: the cells a uniform grid is made of
constexpr int kMaxComponents = 64;

// Calls `use` with each word of `text` between white space.
template <class Use>
void for_each_word(std::string_view text, Use&& use) {
  std::size_t p = 0;
  while (p < text.size()) {
    while (p < text.size() && std::isspace((unsigned char)text[p])) ++p;
    std::size_t e = p;
    while (e < text.size() && !std::isspace((unsigned char)text[e])) ++e;
    if (e > p) use(std::string(text.substr(p, e - p)));
    p = e;
  }
}

std::uint64_t max_points(const GridFileSpec& spec) { return kMaxPointsPerCell * std::uint64_t(max_cells(spec)) + kMaxPointsPerCell; }

const std::map<std::string, int>& word_sizes() {
  static const std::map<std::string, int> sizes = {{"Int8", 1},    {"UInt8", 1},   {"Int16", 2},  {"UInt16", 2},
                                                   {"Int32", 4},   {"UInt32", 4},  {"Int64", 8},  {"UInt64", 8},
                                                   {"Float32", 4}, {"Float64", 8}, {"String", 1}, {"Char", 1}};
  return sizes;
}

// The binary layout the <VTKFile> tag declares.
struct Layout {
  int header = 4;  // bytes of a header word: UInt32 or UInt64
  bool big_endian = false;
  vtkSmartPointer<vtkDataCompressor> compressor;  // null: uncompressed
};

// VTK reports a decompressor's failure on its output window as well as in its result: kept off stderr.
class Quiet : public vtkCommand {
 public:
  static Quiet* New() { return new Quiet; }
  void Execute(vtkObject*, unsigned long, void*) override {}
};

Layout layout_of(const xml::Tag& t, const std::string& where) {
  const VtkBinaryLayout declared = vtk_binary_layout(t, where);
  Layout l;
  l.header = declared.header64 ? 8 : 4;
  l.big_endian = declared.big_endian;
  if (declared.compressor == "vtkZLibDataCompressor") l.compressor = vtkSmartPointer<vtkZLibDataCompressor>::New();
  else if (declared.compressor == "vtkLZ4DataCompressor") l.compressor = vtkSmartPointer<vtkLZ4DataCompressor>::New();
  else if (declared.compressed()) l.compressor = vtkSmartPointer<vtkLZMADataCompressor>::New();
  if (l.compressor) l.compressor->AddObserver(vtkCommand::ErrorEvent, vtkNew<Quiet>());
  return l;
}

// Where an array's bytes come from: raw bytes (appended raw data) or base64 text (inline binary data,
// appended base64 data), read in streams as VTK's parser reads them: a compressed array's header is
// one base64 stream and its blocks another, an uncompressed array's size and values one.
class ArrayBytes {
 public:
  ArrayBytes(std::string_view source, bool base64, const std::string& where) : source_(source), base64_(base64), where_(where) {}

  // The first `n` bytes of the stream that starts here, without moving on.
  std::string peek(std::uint64_t n, const std::string& what) const { return decode(n, what, false); }
  // The next stream, of `n` bytes (base64: 4 characters for each 3 bytes begun, '=' only at its end).
  std::string stream(std::uint64_t n, const std::string& what) {
    std::string out = decode(n, what, true);
    pos_ += base64_ ? (n + 2) / 3 * 4 : n;
    return out;
  }

 private:
  std::string decode(std::uint64_t n, const std::string& what, bool whole) const {
    const std::uint64_t left = source_.size() - pos_;
    if (!base64_) {
      if (n > left) fail_short(n, what);
      return std::string(source_.substr(pos_, n));
    }
    const std::uint64_t chars = (n + 2) / 3 * 4;
    if (n > left / 4 * 3 || chars > left) fail_short(n, what);
    const std::string_view text = source_.substr(pos_, chars);
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      const bool digit = std::isalnum((unsigned char)c) || c == '+' || c == '/';
      if (!digit && !(c == '=' && whole && i + 2 >= text.size()))
        throw bad_input(
            where_, "its base64 text has " + xml::char_shown(c) + " at character " + std::to_string(pos_ + i + 1) + " (in " + what + ")",
            "base64 (A-Z, a-z, 0-9, '+', '/', '=' at a stream's end) as VTK writes binary data");
    }
    std::string out(chars / 4 * 3, '\0');
    const std::size_t got = vtkBase64Utilities::DecodeSafely(reinterpret_cast<const unsigned char*>(text.data()), text.size(),
                                                             reinterpret_cast<unsigned char*>(out.data()), out.size());
    if (got < n) fail_short(n, what);
    out.resize(n);
    return out;
  }

  [[noreturn]] void fail_short(std::uint64_t n, const std::string& what) const {
    throw bad_input(where_,
                    "its data end inside " + what + " (" + std::to_string(n) + " bytes needed from " + (base64_ ? "character " : "byte ") +
                        std::to_string(pos_) + " of " + std::to_string(source_.size()) + (base64_ ? " of base64 text)" : ")"),
                    "a complete array of the size its header gives (was the file cut short or edited?)");
  }

  std::string_view source_;
  std::uint64_t pos_ = 0;
  bool base64_;
  const std::string& where_;
};

std::uint64_t word_at(const std::string& bytes, std::size_t i, const Layout& l) {
  std::uint64_t v = 0;
  for (int b = 0; b < l.header; ++b)
    v |= std::uint64_t(static_cast<unsigned char>(bytes[i * l.header + (l.big_endian ? l.header - 1 - b : b)])) << (8 * b);
  return v;
}

// A binary array's header and values: `want` bytes of values where the tuples are known (else at
// most `most` bytes, whole words), every compressed block inflating to its size.
void check_binary(ArrayBytes in, const Layout& l, std::optional<std::uint64_t> want, std::uint64_t most, int word,
                  const std::string& where) {
  const auto fits = [&](std::uint64_t n) { return want ? n == *want : n <= most && n % word == 0; };
  const std::string allowed = want ? std::to_string(*want) + " bytes: one value per component of each tuple the piece declares"
                                   : "at most " + std::to_string(most) + " bytes of whole values";
  const std::uint64_t w = l.header;
  if (!l.compressor) {
    const std::uint64_t n = word_at(in.peek(w, "the array's byte count"), 0, l);
    if (!fits(n)) throw bad_input(where, "its header gives " + std::to_string(n) + " bytes of values", allowed);
    in.stream(w + n, "the array's values");
    return;
  }
  const std::string head = in.peek(3 * w, "the compression header");
  const std::uint64_t blocks = word_at(head, 0, l), block = word_at(head, 1, l), last = word_at(head, 2, l);
  const std::uint64_t bound = want ? *want : most;
  const bool sane = blocks == 0 || (block > 0 && last <= block && blocks - 1 <= bound / block);
  const std::uint64_t total = !sane || blocks == 0 ? 0 : (blocks - 1) * block + (last ? last : block);
  if (!sane || !fits(total))
    throw bad_input(where,
                    "its compression header gives " + std::to_string(blocks) + " blocks of " + std::to_string(block) + " bytes (the last " +
                        std::to_string(last) + ", 0: full)",
                    allowed);
  const std::string sizes = in.stream((3 + blocks) * w, "the compression header's block sizes");
  std::uint64_t compressed = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t size = word_at(sizes, 3 + b, l);
    if (size > most)
      throw bad_input(where, "compressed block " + std::to_string(b + 1) + " claims " + std::to_string(size) + " bytes", allowed);
    compressed += size;  // below 2^63: each size below 2^62 and the sum held to it
    if (compressed > (std::uint64_t(1) << 62)) throw bad_input(where, "its compressed blocks claim over 2^62 bytes", allowed);
  }
  const std::string data = in.stream(compressed, "the compressed blocks");
  std::string out;
  std::uint64_t at = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t size = word_at(sizes, 3 + b, l), inflated = b + 1 == blocks && last ? last : block;
    out.resize(inflated);
    const std::size_t got = l.compressor->Uncompress(reinterpret_cast<const unsigned char*>(data.data() + at), size,
                                                     reinterpret_cast<unsigned char*>(out.data()), inflated);
    if (got != inflated)
      throw bad_input(where,
                      "compressed block " + std::to_string(b + 1) + " of " + std::to_string(blocks) + " does not inflate to " +
                          std::to_string(inflated) + " bytes with " + l.compressor->GetClassName(),
                      "blocks as " + std::string(l.compressor->GetClassName()) + " writes them");
    at += size;
  }
}

// What a <Piece> declares: its points and cells, and a rectilinear grid's points along each axis.
struct Piece {
  std::uint64_t points = 0, cells = 0;
  std::uint64_t axis_points[3] = {0, 0, 0};
};

std::uint64_t count_attribute(const xml::Tag& t, const char* key, std::uint64_t most, const std::string& where, const std::string& what) {
  const auto it = t.attrs.find(key);
  if (it == t.attrs.end()) throw bad_input(where, "has no " + std::string(key), what);
  double x = -1.0;
  if (!grid_file::parse_number(grid_file::trim(it->second), x) || !(x >= 0.0) || std::floor(x) != x)
    throw bad_input(where, std::string(key) + "=\"" + cut(it->second, 60) + "\" is not a count", "an integer >= 0");
  if (x > double(most))
    throw bad_input(where, std::string(key) + "=\"" + cut(it->second, 60) + "\"", "at most " + std::to_string(most) + " (" + what + ")");
  return std::uint64_t(x);
}

Piece piece_of(const xml::Tag& t, const std::string& type, const std::string& where, const GridFileSpec& spec) {
  Piece p;
  const std::string limit = "the grid limits of " + spec.cells_param;
  if (type == "UnstructuredGrid") {
    p.points = count_attribute(t, "NumberOfPoints", max_points(spec), where, limit);
    p.cells = count_attribute(t, "NumberOfCells", std::uint64_t(max_cells(spec)), where, limit);
    return p;
  }
  const auto it = t.attrs.find("Extent");
  if (it == t.attrs.end()) throw bad_input(where, "has no Extent", "Extent=\"x0 x1 y0 y1 z0 z1\" (point indices)");
  std::vector<double> e;
  for_each_word(it->second, [&e](const std::string& tok) {
    double x;
    if (!grid_file::parse_number(tok, x) || std::floor(x) != x || std::fabs(x) > 9e15) e.resize(7);  // refused below
    else e.push_back(x);
  });
  if (e.size() != 6 || e[1] < e[0] || e[3] < e[2] || e[5] < e[4])
    throw bad_input(where, "Extent=\"" + cut(it->second, 80) + "\"", "six integers x0 x1 y0 y1 z0 z1, each end >= its start");
  p.points = p.cells = 1;
  for (int a = 0; a < 3; ++a) {
    const auto span = std::uint64_t(e[2 * a + 1] - e[2 * a]);
    if (span > std::uint64_t(spec.max_cells_per_axis))
      throw bad_input(where, "Extent=\"" + cut(it->second, 80) + "\" spans " + std::to_string(span) + " cells along " + "xyz"[a],
                      "at most " + std::to_string(spec.max_cells_per_axis) + " (" + limit + ")");
    p.axis_points[a] = span + 1;
    p.points *= span + 1;
    p.cells *= std::max<std::uint64_t>(span, 1);
  }
  if (p.cells > std::uint64_t(max_cells(spec)))
    throw bad_input(where, "Extent=\"" + cut(it->second, 80) + "\" holds " + std::to_string(p.cells) + " cells",
                    "at most " + std::to_string(max_cells(spec)));
  return p;
}

}  // namespace

void check_before_vtk(const std::string& path, const std::string& text, const GridFileSpec& spec) {
  const std::string expected_type = has_ending(path, ".vtr")   ? "RectilinearGrid"
                                    : has_ending(path, ".vtu") ? "UnstructuredGrid"
                                                               : "ImageData";
  const std::size_t appended_at = text.find("<AppendedData");
  xml::Cursor c(std::string_view(text).substr(0, appended_at), path);
  // The appended block: its encoding and where its data start (after the '_').
  bool appended_base64 = false;
  std::string_view appended;
  if (appended_at != std::string::npos) {
    xml::Cursor a(std::string_view(text).substr(appended_at), path);
    xml::Tag t;
    xml::next_tag(a, t);
    const std::string encoding = t.attrs.count("encoding") ? t.attrs.at("encoding") : "raw";
    if (encoding != "raw" && encoding != "base64")
      throw bad_input(path + ": <AppendedData>", "has encoding=\"" + cut(encoding, 40) + "\"", "raw or base64");
    appended_base64 = encoding == "base64";
    const std::size_t mark = text.find('_', appended_at + a.pos());
    if (mark == std::string::npos)
      throw bad_input(path + ": <AppendedData>", "has no '_' before its data", "a complete file (was it cut short?)");
    appended = std::string_view(text).substr(mark + 1);
  }

  Layout layout;
  bool file_seen = false;
  Piece piece;
  std::string section;                                      // PointData, CellData, Points, Coordinates, Cells, FieldData
  int coordinate = 0;                                       // the next of a rectilinear grid's three coordinate arrays
  std::uint64_t bytes = 0;                                  // of every array's values
  const std::uint64_t available = available_host_memory();  // held to before any array is decoded or inflated
  xml::Tag t;
  while (xml::next_tag(c, t)) {
    const std::string at = path + ": line " + std::to_string(t.line);
    if (t.closing) {
      if (t.name == section) section.clear();
      continue;
    }
    if (t.name == "VTKFile") {
      const std::string type = t.attrs.count("type") ? t.attrs.at("type") : "";
      if (type != expected_type)
        throw bad_input(at + " <VTKFile>", "has type=\"" + cut(type, 40) + "\"",
                        expected_type + " in a file ending in " + path.substr(path.rfind('.')));
      layout = layout_of(t, at + " <VTKFile>");
      file_seen = true;
    } else if (t.name == "Piece") {
      piece = piece_of(t, expected_type, at + " <Piece>", spec);
      coordinate = 0;
    } else if (t.name == "PointData" || t.name == "CellData" || t.name == "Points" || t.name == "Coordinates" || t.name == "Cells" ||
               t.name == "FieldData") {
      if (!t.empty) section = t.name;
    } else if (t.name == "DataArray" && !section.empty()) {
      const std::string name = t.attrs.count("Name") ? t.attrs.at("Name") : "";
      const std::string here = at + " DataArray '" + cut(name, 60) + "'";
      const std::string type = t.attrs.count("type") ? t.attrs.at("type") : "";
      const auto size = word_sizes().find(type);
      if (size == word_sizes().end())
        throw bad_input(here, "has type=\"" + cut(type, 40) + "\"", "Float32, Float64, String or an integer type (Int8 to UInt64)");
      const double comps = t.attrs.count("NumberOfComponents") ? std::atof(t.attrs.at("NumberOfComponents").c_str()) : 1.0;
      if (!(comps >= 1 && comps <= kMaxComponents) || std::floor(comps) != comps)
        throw bad_input(here, "has NumberOfComponents=\"" + cut(t.attrs.at("NumberOfComponents"), 40) + "\"",
                        "an integer from 1 to " + std::to_string(kMaxComponents));
      // The tuples the piece gives the array; unknown for a cell list's connectivity, strings and field data.
      std::optional<std::uint64_t> tuples;
      if (section == "FieldData" && t.attrs.count("NumberOfTuples"))
        tuples = count_attribute(t, "NumberOfTuples", max_points(spec), here, "the grid limits of " + spec.cells_param);
      else if (section == "PointData" || section == "Points") tuples = piece.points;
      else if (section == "CellData" || (section == "Cells" && name != "connectivity")) tuples = piece.cells;
      else if (section == "Coordinates" && coordinate < 3) tuples = piece.axis_points[coordinate++];
      if (type == "String") tuples.reset();
      const std::uint64_t word = size->second;
      const std::optional<std::uint64_t> want = tuples ? std::optional(*tuples * std::uint64_t(comps) * word) : std::nullopt;
      // Without tuples: a cell list's ids as Int64, or a MiB of strings.
      const std::uint64_t most = std::max<std::uint64_t>((kMaxPointsPerCell * piece.cells + 1) * 8 * std::uint64_t(comps), 1 << 20);
      bytes += want ? *want : 0;
      if (available > 0 && bytes > available / 2)
        throw bad_input(here, "the arrays up to this one hold " + std::to_string(bytes >> 20) + " MiB",
                        "at most half the memory available (" + std::to_string(available >> 20) + " MiB)");

      const std::string format = t.attrs.count("format") ? t.attrs.at("format") : "ascii";
      // The inline text runs to the next tag, which must close the array.
      const std::size_t begin = c.pos(), end = t.empty ? begin : c.find("<");
      if (end == std::string_view::npos) throw bad_input(here, "the file ends inside its values", "the values, then </DataArray>");
      if (!t.empty) {
        c.move_to(end);
        xml::Tag close;
        xml::next_tag(c, close);
        if (!close.closing || close.name != "DataArray")
          throw bad_input(here, "its values are followed by <" + close.name + ">", "</DataArray>");
      }
      const std::string_view inline_text = std::string_view(text).substr(begin, end - begin);
      if (format == "ascii") {
        std::uint64_t count = 0;
        for_each_word(inline_text, [&](const std::string& tok) {
          double x;
          if (type != "String" && !grid_file::parse_number(tok, x))
            throw bad_input(here, "'" + cut(tok, 40) + "' is not a number", "ASCII values separated by spaces");
          ++count;
        });
        if (tuples && count != *tuples * std::uint64_t(comps))
          throw bad_input(here, "holds " + std::to_string(count) + " values",
                          std::to_string(*tuples * std::uint64_t(comps)) + ": " + std::to_string(int(comps)) +
                              " per tuple of the piece's " + std::to_string(*tuples));
      } else if (format == "binary") {
        std::string compact;  // the base64 text without the spaces and line ends VTK writes
        for (char ch : inline_text)
          if (!std::isspace((unsigned char)ch)) compact += ch;
        if (compact.empty()) throw bad_input(here, "has format=\"binary\" and no data", "base64 data as VTK writes it");
        check_binary(ArrayBytes(compact, true, here), layout, want, most, int(word), here);
      } else if (format == "appended") {
        if (appended_at == std::string::npos)
          throw bad_input(here, "has format=\"appended\" and the file has no <AppendedData>", "a complete file");
        double offset = -1.0;
        if (!t.attrs.count("offset") || !grid_file::parse_number(grid_file::trim(t.attrs.at("offset")), offset) || !(offset >= 0) ||
            std::floor(offset) != offset || offset >= double(appended.size()))
          throw bad_input(here, "has offset=\"" + cut(t.attrs.count("offset") ? t.attrs.at("offset") : "", 40) + "\"",
                          "an integer from 0 to " + std::to_string(appended.size()) + " (the appended data's size)");
        check_binary(ArrayBytes(appended.substr(std::size_t(offset)), appended_base64, here), layout, want, most, int(word), here);
      } else {
        throw bad_input(here, "has format=\"" + cut(format, 40) + "\"", "ascii, binary or appended");
      }
    }
  }
  if (!file_seen) throw bad_input(path, "has no <VTKFile type=\"" + expected_type + "\">", "a VTK XML file as VTK or ParaView write it");
}

void check_vtk_output(const std::string& path, vtkDataSet* data) {
  const vtkIdType points = data->GetNumberOfPoints();
  const auto finite_points = [&](vtkDataArray* a, const std::string& what) {
    if (!a) return;
    for (vtkIdType i = 0; i < a->GetNumberOfTuples(); ++i)
      for (int k = 0; k < a->GetNumberOfComponents(); ++k)
        if (!std::isfinite(a->GetComponent(i, k)))
          throw bad_input(path, what + " " + std::to_string(i) + " is " + format_precise(a->GetComponent(i, k)), "finite coordinates");
  };
  if (auto* grid = vtkRectilinearGrid::SafeDownCast(data)) {
    finite_points(grid->GetXCoordinates(), "x coordinate");
    finite_points(grid->GetYCoordinates(), "y coordinate");
    finite_points(grid->GetZCoordinates(), "z coordinate");
  }
  if (auto* mesh = vtkUnstructuredGrid::SafeDownCast(data)) {
    finite_points(mesh->GetPoints() ? mesh->GetPoints()->GetData() : nullptr, "point");
    vtkCellArray* cells = mesh->GetCells();
    if (!cells || cells->GetNumberOfCells() != mesh->GetNumberOfCells())
      throw bad_input(path, "its cell list does not hold its " + std::to_string(mesh->GetNumberOfCells()) + " cells",
                      "connectivity, offsets and types for every cell");
    const vtkIdType ids = cells->GetNumberOfConnectivityIds();
    vtkIdType before = 0;
    for (vtkIdType c = 0; c < mesh->GetNumberOfCells(); ++c) {
      const vtkIdType from = cells->GetOffsetsArray()->GetComponent(c, 0), to = cells->GetOffsetsArray()->GetComponent(c + 1, 0);
      if (from != before || to < from || to > ids || to - from > vtkIdType(kMaxPointsPerCell))
        throw bad_input(path + ": cell " + std::to_string(c + 1),
                        "its offsets run from " + std::to_string(from) + " to " + std::to_string(to),
                        "increasing offsets within the " + std::to_string(ids) + " connectivity ids, at most " +
                            std::to_string(kMaxPointsPerCell) + " a cell");
      for (vtkIdType k = from; k < to; ++k) {
        const vtkIdType id = cells->GetConnectivityArray()->GetComponent(k, 0);
        if (id < 0 || id >= points)
          throw bad_input(path + ": cell " + std::to_string(c + 1), "names point " + std::to_string(id),
                          "a point from 0 to " + std::to_string(points - 1));
      }
      const int type = mesh->GetCellType(c);
      if (type != VTK_VOXEL && type != VTK_HEXAHEDRON && type != VTK_PIXEL && type != VTK_QUAD && type != VTK_LINE && type != VTK_VERTEX)
        throw bad_input(path + ": cell " + std::to_string(c + 1), "has VTK cell type " + std::to_string(type),
                        "a box of a uniform grid: voxel (11), hexahedron (12), pixel (8), quad (9), line (3) or vertex (1)");
      before = to;
    }
  }
}

}  // namespace ks::vtk_io
