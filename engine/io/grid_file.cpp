#include "grid_file.hpp"

#include <algorithm>
#include <cmath>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "grid_file_checks.hpp"
#include "input_file.hpp"

namespace ks {

using namespace grid_file;

namespace {

void check_ending(const std::string& path, const GridFileSpec& spec) {
  if (!has_ending(path, ".csv") && !has_ending(path, ".vti"))
    throw bad_input(path, "is neither a .csv nor a .vti file", "a " + spec.quantity + " file ending in .csv or .vti");
}

}  // namespace

std::string GridField::source(std::size_t cell) const {
  if (line.empty()) return "cell " + cell_name(n, cell);  // binary data
  if (cell < line.size() && line[cell] > 0) return "line " + std::to_string(line[cell]) + " (cell " + cell_name(n, cell) + ")";
  return "cell " + cell_name(n, cell) + " (the mean of its 8 points)";
}

GridField read_grid_file(const std::string& path, const GridFileSpec& spec) {
  check_ending(path, spec);
  const std::string text = read_input_file(path, spec.quantity + " file", spec.max_bytes);
  return has_ending(path, ".csv") ? parse_grid_csv(text, path, spec) : parse_grid_vti(text, path, spec);
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
  if (has_ending(path, ".vti")) {
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
