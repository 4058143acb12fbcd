// VTK XML files that ParaView opens, written without the VTK library (the engine and the CLI must
// build without it): one dataset per grid holding every field on it, ImageData (.vti) for uniform
// grids, RectilinearGrid (.vtr) for stretched ones (Grid::faces) and lines, PolyData (.vtp) for
// particle lists; Float64 arrays, binary appended and zlib-compressed by default (vtk_data_arrays.hpp),
// ASCII on request.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/field.hpp"
#include "vtk_data_arrays.hpp"

namespace ks {

// Fields that share one grid: one file.
struct Dataset {
  std::string name;                      // the file's stem: the one field's name, else "fields" or "particles" (file-safe)
  std::vector<const FieldData*> fields;  // on the same grid, in the snapshot's order
  const Grid& grid() const { return fields.front()->grid; }
};

// `fields` grouped by grid, in the order of each grid's first field; stems are unique. Only the
// fields whose grid is a rank's piece (Grid::piece) with `pieces`, only the others without.
std::vector<Dataset> datasets_of(const std::vector<FieldData>& fields, bool pieces = false);

// Writes `dataset` as .vti (uniform grid, cell data; a piece with its extent in the whole grid; axes
// of one cell flat, so a 2D grid is a plane), .vtr (rectilinear grid: a stretched grid's faces, or a
// uniform grid's points where it has cells along one axis only, which ParaView draws as a line) or
// .vtp (particles, point data). Two-component fields (vectors of a plane) are written with a third
// component, 0. The field the method marks as active_vectors, else the first three-component one,
// are the Vectors, the first one-component field the Scalars. FieldData holds "units" ("T [K]" per
// field), "axes" ("x [m]" per axis) and, when `time` is given, "TimeValue". The file is replaced
// atomically. Returns the path written (the extension is dataset_extension's).
std::string write_dataset_vtk(const Dataset& dataset, const std::string& path_without_extension, VtkEncoding encoding,
                              std::optional<double> time = std::nullopt);
// Components as VTK files hold a field (these and the .hdf): a vector of the plane (two components)
// gets a third, 0, as ParaView's glyphs, stream tracers and calculators take three.
int written_components(const FieldData& field);
// A two-component field's values with that third component; call where written_components differs.
std::vector<double> padded_to_three(const FieldData& field);

// ".vti", ".vtr" or ".vtp": what write_dataset_vtk writes for `dataset`.
std::string dataset_extension(const Dataset& dataset);

// The parallel file (.pvti over .vti pieces, .pvtr over .vtr pieces) over per-rank pieces of
// `dataset`'s whole grid: `pieces` are the pieces' grids (first, cells) and `sources` their file
// names relative to it. Returns the path written.
std::string write_dataset_parallel(const Dataset& dataset, const std::vector<Grid>& pieces, const std::vector<std::string>& sources,
                                   const std::string& path_without_extension);

}  // namespace ks
