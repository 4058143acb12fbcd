// What a method shows: fields on a grid (or a particle list) and x/y series.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ks {

// An axis of a grid as views and files label it: "x" in "m", or a phase space's "v_x" in "v_ref".
struct GridAxis {
  std::string name;
  std::string unit;
};

inline bool operator==(const GridAxis& a, const GridAxis& b) { return a.name == b.name && a.unit == b.unit; }

// The three spatial axes x, y, z measured in `unit`.
inline std::array<GridAxis, 3> spatial_axes(const std::string& unit) { return {{{"x", unit}, {"y", unit}, {"z", unit}}}; }

// A uniform Cartesian grid of cells, or a list of particles with positions.
struct Grid {
  enum class Kind { Image, Particles };
  Kind kind = Kind::Image;
  std::array<int, 3> cells = {1, 1, 1};             // Image: cells per axis; Particles: {count, 1, 1}
  std::array<double, 3> origin = {0.0, 0.0, 0.0};   // lower corner, in the axes' units
  std::array<double, 3> spacing = {1.0, 1.0, 1.0};  // per cell, in the axes' units
  // What origin, spacing and positions measure along each axis (a method may use its own length
  // unit, such as the mean free path, or a velocity for a phase space).
  std::array<GridAxis, 3> axes = spatial_axes("m");

  // Image, under MPI (ExecutionContext::field_pieces): this rank's piece of a grid of `whole` cells,
  // starting at cell `first`; origin and spacing are the whole grid's. whole = 0: the whole grid.
  std::array<int, 3> first = {0, 0, 0};
  std::array<int, 3> whole = {0, 0, 0};
  // Image, a rectilinear grid (a stretched axis at the solver's own cells): the cell faces along each
  // axis, cells + 1 of them; origin and spacing are then its box and mean cell. Empty: uniform.
  std::array<std::vector<double>, 3> faces;

  std::int64_t count() const { return std::int64_t(cells[0]) * cells[1] * cells[2]; }
  bool piece() const { return kind == Kind::Image && whole[0] > 0; }
  bool rectilinear() const { return kind == Kind::Image && !faces[0].empty(); }
  // The centre of cell i along axis a.
  double centre(int a, std::int64_t i) const {
    return rectilinear() ? 0.5 * (faces[a][i] + faces[a][i + 1]) : origin[a] + (double(i) + 0.5) * spacing[a];
  }
};

struct FieldDesc {
  std::string name;  // e.g. "diameter"
  std::string unit;  // SI
  int components = 1;
  std::string help;
  int view_normal = 2;          // 3D image fields: the axis normal to the slice a view shows first (the flow's plane)
  bool active_vectors = false;  // VTK files: the dataset's Vectors (its default glyphs, streamlines), over its first vector field
};

// The index of the field called `name` in `fields`, or -1 when there is none.
inline int field_index(const std::vector<FieldDesc>& fields, const std::string& name) {
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i].name == name) return int(i);
  return -1;
}

// One field's values on the host, cell-major (x fastest), components interleaved.
struct FieldData {
  FieldDesc desc;
  Grid grid;
  std::vector<double> values;
  std::vector<std::array<double, 3>> positions;  // Particles only: one per particle, in the grid's axes' units
};

// A named x/y history (residual vs iteration, N(t)/N0 vs t/tau, ...).
struct Series {
  std::string name;
  std::string x_label;
  std::string y_label;
  std::vector<double> x;
  std::vector<double> y;
  std::vector<double> y_err;          // optional: standard error of y (ensembles), same length as y or empty
  bool log_x = false, log_y = false;  // the axes a plot shows first on a log scale (log-spaced times, size spectra)
};

}  // namespace ks
