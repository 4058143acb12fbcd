// VTK XML files that ParaView opens, written without the VTK library (the engine and the CLI must
// build without it): one dataset per grid holding every field on it, ImageData (.vti) for uniform
// grids, RectilinearGrid (.vtr) for stretched ones (Grid::faces), PolyData (.vtp) for particle lists; Float64 arrays, binary appended and zlib-compressed
// by default (vtk_data_arrays.hpp), ASCII on request.
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
// of one cell flat, so a 2D grid is a plane), .vtr (rectilinear grid: the faces as its coordinates)
// or .vtp (particles, point data). Three-component fields
// are the Vectors, the first one-component field the Scalars. FieldData holds "units" ("T [K]" per
// field), "axes" ("x [m]" per axis) and, when `time` is given, "TimeValue". The file is replaced
// atomically. Returns the path written (the extension is chosen from the grid kind).
std::string write_dataset_vtk(const Dataset& dataset, const std::string& path_without_extension, VtkEncoding encoding,
                              std::optional<double> time = std::nullopt);

// The parallel ImageData file (.pvti) over per-rank pieces of `dataset`'s whole grid: `pieces` are
// the pieces' grids (first, cells) and `sources` their .vti file names relative to the .pvti. Returns
// the path written.
std::string write_dataset_pvti(const Dataset& dataset, const std::vector<Grid>& pieces, const std::vector<std::string>& sources,
                               const std::string& path_without_extension);

}  // namespace ks
