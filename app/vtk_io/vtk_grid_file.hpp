// The grid-file reader for what VTK's XML readers read (engine/io/grid_file.hpp): any .vti (ASCII,
// inline base64, appended raw or base64, compressed or not), .pvti (its .vti pieces, each checked and
// read as a file of its own), .vtr and .vtu, with cell or point data,
// for the radiation solver's temperature_file. The app and kinetic-run (built with VTK) install it
// at start; the engine's own readers stay the fallback where VTK is absent.
//
// Point values go to the cells as the mean of each cell's points (vtkPointDataToCellData: for a
// hexahedron the trilinear interpolant at its centre, as the engine's .vti reader does). The grid
// follows from the cells' centres as a .csv's x,y,z rows give it (grid_from_centres): the cells must
// make a uniform grid, in any order; a stretched .vtr or a general mesh is refused, naming the axis.
#pragma once

#include <string>

#include "io/grid_file.hpp"

namespace ks::vtk_io {

// `text` is the file's, as read_grid_file (engine/io) read it.
GridField read_grid_file(const std::string& path, const std::string& text, const GridFileSpec& spec);
// install_vtk_grid_file_reader(read_grid_file).
void install();

}  // namespace ks::vtk_io
