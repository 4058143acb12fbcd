#include "grid_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "grid_file_checks.hpp"
#include "input_file.hpp"

namespace ks {

using namespace grid_file;

namespace {

VtkGridFileReader vtk_reader = nullptr;  // set once at a program's start, before any run

bool vtk_only(const std::string& path) { return has_ending(path, ".vtr") || has_ending(path, ".vtu") || has_ending(path, ".pvti"); }

void check_ending(const std::string& path, const GridFileSpec& spec) {
  if (vtk_only(path) && !vtk_reader)
    throw bad_input(path, "is a VTK file this program cannot read (it was built without VTK; the app reads it)",
                    "a " + spec.quantity +
                        " file ending in .csv or .vti (ParaView: File > Save Data as 'VTK ImageData Files', or Filters > "
                        "Resample To Image first)");
  if (!has_ending(path, ".csv") && !has_ending(path, ".vti") && !vtk_only(path))
    throw bad_input(path, "is not a " + grid_file_endings() + " file", "a " + spec.quantity + " file ending in " + grid_file_endings());
}

// Inline (base64) or base64-appended data, or LZ4 or LZMA compression (ParaView offers both), which
// the engine's .vti reader leaves to VTK's.
bool vtk_only_vti(const std::string& text) {
  const std::size_t appended = text.find("<AppendedData");
  const std::string head = text.substr(0, appended == std::string::npos ? text.size() : appended + 64);
  for (const char* mark : {"format=\"binary\"", "encoding=\"base64\"", "\"vtkLZ4DataCompressor\"", "\"vtkLZMADataCompressor\""})
    if (head.find(mark) != std::string::npos) return true;
  return false;
}

}  // namespace

std::string GridField::source(std::size_t cell) const {
  if (line.empty()) return "cell " + cell_name(n, cell);  // binary data
  if (cell < line.size() && line[cell] > 0) return row_name + " " + std::to_string(line[cell]) + " (cell " + cell_name(n, cell) + ")";
  return "cell " + cell_name(n, cell) + " (the mean of its 8 points)";
}

void install_vtk_grid_file_reader(VtkGridFileReader reader) { vtk_reader = reader; }

std::string grid_file_endings() { return vtk_reader ? ".csv, .vti, .pvti, .vtr or .vtu" : ".csv or .vti"; }

GridField read_grid_file(const std::string& path, const GridFileSpec& spec) {
  check_ending(path, spec);
  const std::string text = read_input_file(path, spec.quantity + " file", spec.max_bytes);
  if (vtk_only(path) || (vtk_reader && has_ending(path, ".vti") && vtk_only_vti(text))) return vtk_reader(path, text, spec);
  if (has_ending(path, ".csv")) return parse_grid_csv(text, path, spec);
  return parse_grid_vti(text, path, spec);
}

GridFileEstimate estimate_grid_file(const std::string& path, const GridFileSpec& spec) {
  constexpr std::uint64_t kHead = 1ull << 20;
  check_ending(path, spec);
  InputFile in(path, spec.quantity + " file", spec.max_bytes);
  const std::string head = in.read(kHead);
  const bool whole = head.size() == in.size();
  GridFileEstimate e;
  std::int64_t values = 0;       // held while reading: rows of a .csv, values of a .vti
  std::int64_t value_bytes = 0;  // per value
  if (has_ending(path, ".vti") || has_ending(path, ".pvti")) {
    if (GridField f; vti_header_grid(head, path, spec, f)) {
      e.cells = f.cells();
      std::copy(f.n, f.n + 3, e.n);
      values = std::int64_t(f.n[0] + 1) * (f.n[1] + 1) * (f.n[2] + 1);  // point data, the larger case
      e.how = spec.file_param + " " + grid_name(f.n) + " cells (its WholeExtent)";
    } else {
      // No header in the first MiB: every value takes at least 2 bytes.
      values = e.cells = std::min<std::int64_t>(std::int64_t(in.size() / 2), max_cells(spec));
      e.how = spec.file_param + " at most " + std::to_string(e.cells) + " cells (its size / 2 B: no <ImageData> in its first MiB)";
    }
    value_bytes = has_ending(path, ".pvti") ? 200 : sizeof(double) + sizeof(int);  // a .pvti's pieces through VTK, as below
  } else if (vtk_only(path)) {
    // VTK's readers hold the dataset, its cells' centres and values: about 200 B a cell of a hexahedral
    // mesh. The cells from the header where its first MiB gives them, else at most one per 8 bytes.
    const std::size_t at = head.find("NumberOfCells=\"");
    const long long given = at == std::string::npos ? -1 : std::atoll(head.c_str() + at + 15);
    e.cells = std::min<std::int64_t>(given > 0 ? given : std::int64_t(in.size() / 8), max_cells(spec));
    e.how = spec.file_param + (given > 0 ? std::string(" ") : std::string(" at most ")) + std::to_string(e.cells) +
            (given > 0 ? " cells (its NumberOfCells)" : " cells (its size / 8 B)");
    values = e.cells;
    value_bytes = 200;
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
      e.how = spec.file_param + " " + std::to_string(rows) + " rows";
    } else if (rows > 0) {
      const double per_row = double(scanned_end - first_row) / double(rows);
      e.cells = std::int64_t(std::min(double(max_cells(spec)), std::ceil(double(in.size() - first_row) / per_row)));
      e.how = spec.file_param + " about " + std::to_string(e.cells) + " rows (from the mean row of its first MiB)";
    } else {
      // No rows in the first MiB: every row takes at least 8 bytes ("0,0,0,1\n").
      e.cells = std::min<std::int64_t>(std::int64_t(in.size() / 8), max_cells(spec));
      e.how = spec.file_param + " at most " + std::to_string(e.cells) + " rows (its size / 8 B)";
    }
    values = e.cells;
    value_bytes = sizeof(GridRow) + 4 * sizeof(double);  // a row, its coordinates and one axis's sorted copy
  }
  // The text, what is held per value, and the field (the value and the line of each cell).
  const std::int64_t held = checked_add(checked_mul(values, value_bytes, path + ": rows or values x bytes"),
                                        checked_mul(e.cells, sizeof(double) + sizeof(int), path + ": cells x bytes"), path + ": bytes");
  e.read_bytes = std::uint64_t(checked_add(std::int64_t(in.size()), held, path + ": bytes"));
  return e;
}

}  // namespace ks
