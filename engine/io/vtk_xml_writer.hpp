// VTK XML files that ParaView opens, written without the VTK library (the engine
// and the CLI must build without it): ImageData (.vti) for grid fields, PolyData
// (.vtp) for particle lists. ASCII data arrays, Float64.
#pragma once

#include <string>

#include "core/field.hpp"

namespace ks {

// Writes `field` as .vti (Image grid, cell data) or .vtp (particles, point data);
// returns the path written (the extension is chosen from the grid kind).
std::string write_field_vtk(const FieldData& field, const std::string& path_without_extension);

}  // namespace ks
