// The values of one binary DataArray in a VTK XML file's raw <AppendedData> block, read without VTK:
// the layout of vtk_data_arrays.hpp as VTK and ParaView write it (header UInt32 or UInt64; zlib-
// compressed blocks or plain bytes; little- or big-endian), element types Float32, Float64 and the
// integer types. Every size is checked against the bytes there before it is used.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "xml_tags.hpp"

namespace ks {

struct VtkBinaryLayout {
  bool header64 = false;    // header_type="UInt64" (VTK's default since 9.0); else UInt32
  std::string compressor;   // vtkZLibDataCompressor, vtkLZ4DataCompressor, vtkLZMADataCompressor; empty: none
  bool big_endian = false;  // byte_order="BigEndian"
  bool compressed() const { return !compressor.empty(); }
};

// The layout a <VTKFile> tag declares. Throws bad_input naming `where` for a header type, byte order
// or compressor VTK does not write.
VtkBinaryLayout vtk_binary_layout(const xml::Tag& t, const std::string& where);

// The `count` values of type `type` (a VTK type name) at `offset` in `appended` (the bytes after the
// block's '_'), as doubles. Throws bad_input naming `where` and what is wrong.
std::vector<double> read_appended_array(std::string_view appended, std::uint64_t offset, const std::string& type, std::uint64_t count,
                                        const VtkBinaryLayout& layout, const std::string& where);

}  // namespace ks
