// What the grid-file readers (grid_file_csv.cpp, grid_file_vti.cpp, app/vtk_io's over VTK) share: how
// values and grids are checked against a GridFileSpec and named in messages.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "grid_file.hpp"

namespace ks::grid_file {

// One row of a .csv: three coordinates or indices, the value and its line.
struct GridRow {
  long long idx[3];
  double value;
  int line;
};

std::string trim(const std::string& s);
// A whole token as a number (strtod accepts "nan" and "inf"; the caller checks finiteness).
bool parse_number(const std::string& text, double& x);
std::string cell_name(const int n[3], std::size_t c);
template <class I>
std::string grid_name(const I n[3]) {
  return std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " + std::to_string(n[2]);
}
// The most cells a grid may have: max_cells_per_axis^3.
std::int64_t max_cells(const GridFileSpec& spec);
// "a finite temperature T > 0 K, at most 5000 K (the range of temperature)"
std::string value_allowed(const GridFileSpec& spec);
// Refuses a value that is not finite, not above 0 or above spec.max_value, naming `where`.
void check_value(double v, const std::string& where, const GridFileSpec& spec);
// Sets f.n from the cells per axis `n` that `source` gives ("WholeExtent=...", "the largest i, j, k + 1"):
// their product in checked arithmetic, then each axis held to spec.max_cells_per_axis.
void set_grid(GridField& f, const std::int64_t n[3], const std::string& where, const GridFileSpec& spec, const std::string& source);
// The box of `f` (n, h and origin set): along each axis it resolves, n h within the length range; every
// corner within +-max_length m. A box beyond those is none the method's parameters could make.
void check_box(const GridField& f, const bool resolved[3], const std::string& where, const GridFileSpec& spec, const std::string& source);
// Fills f.values and f.line from `rows` (idx set, f.n set): one row per cell, a repeated or missing
// cell refused naming its row.
void fill_cells(GridField& f, const std::vector<GridRow>& rows);
// The uniform grid that cell centres make, one row each in any order (a .csv's x,y,z rows, a VTK
// file's cells): the cells per axis are the distinct coordinates `coords[a]` (one per row), the cell
// size their spacing, which must be uniform (to 1e-3 of a cell); an axis with one distinct value has
// one cell, as wide as the smallest cell of the others. Sets f.n, f.h, f.origin and the values;
// `source` names the centres in messages.
void grid_from_centres(GridField& f, std::vector<GridRow>& rows, const std::vector<double> coords[3], const GridFileSpec& spec,
                       const std::string& source);
// The grid of a .vti from the <ImageData> tag in `head` (its first bytes), or of a .pvti from its
// <PImageData>, into f.n; false when `head` has neither.
bool vti_header_grid(const std::string& head, const std::string& file, const GridFileSpec& spec, GridField& f);

}  // namespace ks::grid_file
