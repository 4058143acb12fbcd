// What VTK's XML readers take on trust, checked before and after they read a grid file. VTK reads
// the sizes a file declares and allocates, decodes and decompresses by them: an inline base64 array
// that is empty, not base64 or shorter than its extent, compressed garbage (zlib, LZ4, LZMA) and a
// .vtu whose connectivity points past its points crashed the reader or its caller, and a header
// claiming 2e9 points allocated them before any check.
//
// check_before_vtk reads the file's XML structure (xml_tags.hpp) and every DataArray's bytes as VTK
// would (the layout of VTK's "VTK File Formats", XML section): each piece's point and cell counts
// within the grid limits, each array's values exactly as many as its tuples need, base64 text that
// decodes, binary headers whose sizes the bytes there hold, and every compressed block inflating to
// its size with VTK's own decompressor; check_vtk_output then checks what the reader made: arrays of
// the counts declared, finite coordinates, connectivity within the points, known cell types.
#pragma once

#include <string>

#include "io/grid_file.hpp"

class vtkDataSet;

namespace ks::vtk_io {

// Throws bad_input naming the file, the line or array, and what is wrong.
void check_before_vtk(const std::string& path, const std::string& text, const GridFileSpec& spec);
void check_vtk_output(const std::string& path, vtkDataSet* data);

}  // namespace ks::vtk_io
