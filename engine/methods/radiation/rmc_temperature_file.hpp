// radiation.rmc: a temperature field from a user's file (profile `file`, parameter temperature_file),
// e.g. a snapshot of a DNS to couple with. Two formats, read without VTK:
//
// .csv  A header, then one row per cell of a uniform nx x ny x nz grid, in any order:
//         x,y,z,T   cell centres in m, T in K; the grid (cells and cell size per axis) follows
//                   from the distinct coordinates; an axis with one distinct value has one cell,
//                   as wide as the smallest cell of the other axes.
//         i,j,k,T   cell indices from 0 (n = largest index + 1); the file gives no size, so every
//                   axis is the parameter `length` long, as for the analytic profiles.
//       Columns may come in any order; other columns are ignored; blank lines and lines starting
//       with '#' are skipped. kinetic-run --out DIR --format csv writes this format (T.csv).
// .vti  VTK XML ImageData in ASCII (binary and appended data are refused, with how to convert):
//       WholeExtent, Spacing and Origin give the grid; the DataArray named T, else the first
//       one-component array, of CellData (one value per cell) or PointData (one value per point;
//       each cell takes the mean of its 8 corners, which is the trilinear interpolant at the cell
//       centre). kinetic-run --format vti writes this format (T.vti, cell data).
//
// The file is read through read_input_file (a regular file of at most kMaxTemperatureFileBytes). Its
// field replaces nx, ny, nz, length and the analytic profiles' temperature, so it is held to their
// ranges (make_info declares those parameters with the bounds below): 1 to 1024 cells per axis, every
// axis it resolves 1 mm to 100 m long, its box within +-100 m, every value a finite temperature in
// (0, 5000] K. Errors name the file, the line and the value, and what was expected there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ks::rmc {

constexpr int kMaxCellsPerAxis = 1024;                     // nx, ny, nz
constexpr double kMinLength = 1e-3, kMaxLength = 100.0;    // m, length
constexpr double kMaxTemperature = 5000.0;                 // K, temperature and wall_temperature

struct TemperatureField {
  std::string file;
  int n[3] = {0, 0, 0};           // cells per axis
  double h[3] = {0.0, 0.0, 0.0};  // m per cell; 0 where the file gives no size (i,j,k .csv)
  double origin[3] = {0.0, 0.0, 0.0};  // m, the lower corner of cell (0, 0, 0) in the file's frame
  std::vector<double> T;          // K per cell, x fastest, then y, then z
  std::vector<int> line;          // per cell: the file's line of its value; 0 when averaged from points

  long long cells() const { return (long long)n[0] * n[1] * n[2]; }
  bool has_size() const { return h[0] > 0.0; }
  // Where a cell's value came from: "line 12 (cell 3, 0, 1)" or "cell (3, 0, 1) (the mean of its 8 points)".
  std::string source(std::size_t cell) const;
};

// Reads a .csv or .vti file (chosen by its ending, any case); throws bad_input naming the file.
TemperatureField load_temperature_file(const std::string& path);

// What estimate_memory needs of a temperature file, read without its values: a .vti's grid from its
// header (the <ImageData> tag in its first MiB); a .csv's cells as its rows (one per cell), counted in
// its first MiB and, beyond that, estimated from their mean length (an estimate, not a bound: a file
// whose later rows are much shorter holds more cells).
struct TemperatureFileEstimate {
  std::int64_t cells = 0;
  int n[3] = {0, 0, 0};           // cells per axis where the header gives them (a .vti), else 0
  std::uint64_t read_bytes = 0;   // the reader's peak host memory: the text, its rows or values, the field
  std::string how;                // where the cells come from, for MemoryEstimate::detail
};
TemperatureFileEstimate estimate_temperature_file(const std::string& path);

// The readers on text already in memory; `file` names it in errors.
TemperatureField parse_temperature_csv(const std::string& text, const std::string& file);
TemperatureField parse_temperature_vti(const std::string& text, const std::string& file);

// Refuses a cell temperature outside [lo, hi] K, the range of the spectral tables named `tables`.
void check_temperature_range(const TemperatureField& f, double lo, double hi, const std::string& tables);

}  // namespace ks::rmc
