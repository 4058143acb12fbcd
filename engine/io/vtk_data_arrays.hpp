// The data arrays of one VTK XML file as VTK itself writes them (VTK's "VTK File Formats", XML
// section), without the VTK library: inline ASCII, or raw binary in the file's <AppendedData> block.
// Binary arrays are each a UInt64 header and their little-endian bytes; where the build has zlib
// they are compressed in blocks of 32 KiB, the layout of vtkZLibDataCompressor:
//   header  [blocks, block size, size of the last block (0: full), compressed size of each block]
//   data    the compressed blocks, back to back
// without zlib the header is the byte count and the bytes follow uncompressed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ks {

enum class VtkEncoding { Binary, Ascii };

// Whether binary arrays are zlib-compressed in this build.
bool vtk_zlib_available();

// `text` for an XML attribute value: &, <, > and " as entities.
std::string xml_escaped(const std::string& text);

class VtkDataArrays {
 public:
  explicit VtkDataArrays(VtkEncoding encoding) : encoding_(encoding) {}

  // A <DataArray> element, indented by `indent`, of `values` with `components` per tuple; a
  // non-empty `name` names it. `tuples_attribute` adds NumberOfTuples (FieldData needs it).
  std::string float64(const std::string& name, int components, const std::vector<double>& values, const std::string& indent,
                      bool tuples_attribute = false);
  std::string int64(const std::string& name, const std::vector<std::int64_t>& values, const std::string& indent);
  // A String array of one string per tuple (FieldData: the fields' units), each ended by a NUL.
  std::string strings(const std::string& name, const std::vector<std::string>& values, const std::string& indent);

  // The <VTKFile> attributes the arrays need: byte order, and for binary the header type and compressor.
  std::string file_attributes() const;
  // The <AppendedData> element holding every binary array, "" for ASCII.
  std::string appended_element() const;

 private:
  // Adds `bytes` (header and data, compressed where zlib is there) to the appended block; returns
  // the attributes naming where they start.
  std::string append(const std::string& bytes);

  VtkEncoding encoding_;
  std::string appended_;
};

}  // namespace ks
