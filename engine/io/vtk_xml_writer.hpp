// VTK XML files that ParaView opens, written without the VTK library (the engine
// and the CLI must build without it): ImageData (.vti) for grid fields, PolyData
// (.vtp) for particle lists. ASCII data arrays, Float64.
#pragma once

#include <string>
#include <vector>

#include "core/field.hpp"

namespace ks {

// Writes `field` as .vti (Image grid, cell data; a piece with its extent in the whole grid; axes of
// one cell flat, so a 2D field is a plane) or .vtp (particles, point data); a field of three
// components is tagged as Vectors, of one as Scalars. Returns the path written (the extension is
// chosen from the grid kind).
std::string write_field_vtk(const FieldData& field, const std::string& path_without_extension);

// The parallel ImageData file (.pvti) over per-rank pieces of `field`'s whole grid: `pieces` are the
// pieces' grids (first, cells) and `sources` their .vti file names relative to the .pvti. Returns
// the path written.
std::string write_field_pvti(const FieldData& field, const std::vector<Grid>& pieces, const std::vector<std::string>& sources,
                             const std::string& path_without_extension);

}  // namespace ks
