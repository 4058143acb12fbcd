// A scalar field on a uniform 3D grid from a user's file (radiation's temperature_file, e.g. a snapshot of
// a DNS to couple with), read without VTK. Two formats; V is the value's name in GridFileSpec (T):
//
// .csv  A header, then one row per cell of a uniform nx x ny x nz grid, in any order:
//         x,y,z,V   cell centres in m; the grid (cells and cell size per axis) follows from the
//                   distinct coordinates; an axis with one distinct value has one cell, as wide as
//                   the smallest cell of the other axes.
//         i,j,k,V   cell indices from 0 (n = largest index + 1); the file gives no size (h = 0).
//       Columns may come in any order; other columns are ignored; blank lines and lines starting
//       with '#' are skipped. kinetic-run --out DIR --format csv writes this format.
// .vti  VTK XML ImageData, ASCII or raw appended binary (zlib-compressed or not, as ParaView saves
//       it; without VTK, inline base64 data and LZ4 or LZMA compression are refused, with how to convert): WholeExtent, Spacing and Origin
//       give the grid; the DataArray named V, else the first one-component array, of CellData (one value per cell) or PointData (one value
//       per point; each cell takes the mean of its 8 corners, which is the trilinear interpolant at the cell centre). kinetic-run --format
//       vti and vti-ascii write this format (cell data).
//
// The file is read through read_input_file (a regular file of at most spec.max_bytes) and held to the
// spec's bounds, those of the parameters the field replaces: cells per axis, the length of every axis
// it resolves, its box within +-max_length, every value finite in (0, max_value]. Errors name the
// file, the line and the value, and what was expected there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ks {

// What a grid file holds and the bounds a method holds it to; every message names these.
struct GridFileSpec {
  std::string value;        // the values' column and preferred DataArray name, e.g. "T"
  std::string unit;         // "K"
  std::string quantity;     // "temperature": "is not a temperature", "a temperature file"
  std::string value_param;  // the parameter whose range the values keep: "temperature"
  double max_value = 0.0;
  int max_cells_per_axis = 0;
  std::string cells_param;                    // "nx, ny, nz"
  double min_length = 0.0, max_length = 0.0;  // m
  std::string length_param;                   // "length"
  std::string file_param;                     // the parameter naming the file, for memory estimates: "temperature_file"
  std::uint64_t max_bytes = 0;
};

struct GridField {
  std::string file;
  int n[3] = {0, 0, 0};                // cells per axis
  double h[3] = {0.0, 0.0, 0.0};       // m per cell; 0 where the file gives no size (i,j,k .csv)
  double origin[3] = {0.0, 0.0, 0.0};  // m, the lower corner of cell (0, 0, 0) in the file's frame
  std::vector<double> values;          // per cell, x fastest, then y, then z
  std::vector<int> line;               // per cell: the file's line of its value; 0 when averaged from points; empty for binary data
  std::string row_name = "line";       // what `line` counts: a text file's lines, or a VTK dataset's cells ("file cell")

  long long cells() const { return (long long)n[0] * n[1] * n[2]; }
  bool has_size() const { return h[0] > 0.0; }
  // Where a cell's value came from: "line 12 (cell 3, 0, 1)", "cell (3, 0, 1) (the mean of its 8 points)" or,
  // from binary data, "cell (3, 0, 1)".
  std::string source(std::size_t cell) const;
};

// Reads a .csv or .vti file (chosen by its ending, any case); throws bad_input naming the file. Where
// a VTK reader is installed, also .pvti, .vtr and .vtu files and .vti files with inline or base64
// data or LZ4 or LZMA compression.
GridField read_grid_file(const std::string& path, const GridFileSpec& spec);

// A reader of what VTK's XML readers read (any .vti, .pvti, .vtr, .vtu), which the programs that link VTK
// install at start (the app, kinetic-run built with VTK: app/vtk_io); the engine itself has none.
// It is given the file's text (read once, within spec.max_bytes) and returns the cells as the other
// readers do, checked against the spec, or throws bad_input.
using VtkGridFileReader = GridField (*)(const std::string& path, const std::string& text, const GridFileSpec& spec);
void install_vtk_grid_file_reader(VtkGridFileReader reader);
// The endings read_grid_file takes here: ".csv or .vti", with ".pvti, .vtr or .vtu" where VTK's are installed.
std::string grid_file_endings();

// What a memory estimate needs of a grid file, read without its values: a .vti's grid from its header
// (the <ImageData> tag in its first MiB); a .csv's cells as its rows (one per cell), counted in its first
// MiB and, beyond that, estimated from their mean length (an estimate, not a bound: a file whose later
// rows are much shorter holds more cells).
struct GridFileEstimate {
  std::int64_t cells = 0;
  int n[3] = {0, 0, 0};          // cells per axis where the header gives them (a .vti), else 0
  std::uint64_t read_bytes = 0;  // the reader's peak host memory: the text, its rows or values, the field
  std::string how;               // where the cells come from, for MemoryEstimate::detail
};
GridFileEstimate estimate_grid_file(const std::string& path, const GridFileSpec& spec);

// The readers on text already in memory; `file` names it in errors.
GridField parse_grid_csv(const std::string& text, const std::string& file, const GridFileSpec& spec);
GridField parse_grid_vti(const std::string& text, const std::string& file, const GridFileSpec& spec);

}  // namespace ks
