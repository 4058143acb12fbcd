#include "vtk_xml_writer.hpp"

#include <fstream>

#include "core/errors.hpp"

namespace ks {

namespace {

void write_array(std::ofstream& out, const FieldData& f) {
  out << "        <DataArray type=\"Float64\" Name=\"" << f.desc.name << "\" NumberOfComponents=\"" << f.desc.components
      << "\" format=\"ascii\">\n";
  for (std::size_t i = 0; i < f.values.size(); ++i) out << f.values[i] << ((i + 1) % 6 ? ' ' : '\n');
  out << "\n        </DataArray>\n";
}

// "x0 x1 y0 y1 z0 z1" of a grid's cells in the whole grid (points, one more than cells). An axis the
// whole grid has one cell along is flat ("0 0"): a 2D grid is a plane of cells, a 1D grid a line.
std::string extent(const Grid& g) {
  std::string e;
  for (int a = 0; a < 3; ++a) {
    const bool flat = (g.whole[a] > 0 ? g.whole[a] : g.cells[a]) == 1;
    e += (a ? " " : "") + std::to_string(g.first[a]) + " " + std::to_string(g.first[a] + (flat ? 0 : g.cells[a]));
  }
  return e;
}

// The attribute naming the array by what it is: Scalars for one component, Vectors for three.
std::string attribute(const FieldData& f) {
  if (f.desc.components == 1) return " Scalars=\"" + f.desc.name + "\"";
  if (f.desc.components == 3) return " Vectors=\"" + f.desc.name + "\"";
  return "";
}

}  // namespace

std::string write_field_vtk(const FieldData& f, const std::string& stem) {
  const bool particles = f.grid.kind == Grid::Kind::Particles;
  const std::string path = stem + (particles ? ".vtp" : ".vti");
  std::ofstream out(path);
  if (!out) throw bad_input(path, "cannot write the file", "a writable path");
  out.precision(17);
  out << "<?xml version=\"1.0\"?>\n";
  if (particles) {
    const std::int64_t n = f.grid.count();
    out << "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\">\n  <PolyData>\n"
        << "    <Piece NumberOfPoints=\"" << n << "\" NumberOfVerts=\"" << n << "\">\n"
        << "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
    for (const auto& p : f.positions) out << p[0] << ' ' << p[1] << ' ' << p[2] << '\n';
    out << "        </DataArray>\n      </Points>\n      <Verts>\n"
        << "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
    for (std::int64_t i = 0; i < n; ++i) out << i << '\n';
    out << "        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
    for (std::int64_t i = 1; i <= n; ++i) out << i << '\n';
    out << "        </DataArray>\n      </Verts>\n      <PointData" << attribute(f) << ">\n";
    write_array(out, f);
    out << "      </PointData>\n    </Piece>\n  </PolyData>\n</VTKFile>\n";
  } else {
    const auto& g = f.grid;
    out << "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
        << "  <ImageData WholeExtent=\"" << extent(g) << "\" Origin=\""
        << g.origin[0] << ' ' << g.origin[1] << ' ' << g.origin[2] << "\" Spacing=\"" << g.spacing[0] << ' '
        << g.spacing[1] << ' ' << g.spacing[2] << "\">\n"
        << "    <Piece Extent=\"" << extent(g) << "\">\n"
        << "      <CellData" << attribute(f) << ">\n";
    write_array(out, f);
    out << "      </CellData>\n    </Piece>\n  </ImageData>\n</VTKFile>\n";
  }
  out.flush();
  if (!out) throw bad_input(path, "writing the file failed (disk full?)");
  return path;
}

std::string write_field_pvti(const FieldData& f, const std::vector<Grid>& pieces, const std::vector<std::string>& sources,
                             const std::string& stem) {
  const std::string path = stem + ".pvti";
  std::ofstream out(path);
  if (!out) throw bad_input(path, "cannot write the file", "a writable path");
  out.precision(17);
  Grid whole = f.grid;
  whole.first = {0, 0, 0};
  whole.cells = f.grid.whole;
  const auto& g = f.grid;
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"PImageData\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
      << "  <PImageData WholeExtent=\"" << extent(whole) << "\" GhostLevel=\"0\" Origin=\"" << g.origin[0] << ' ' << g.origin[1] << ' '
      << g.origin[2] << "\" Spacing=\"" << g.spacing[0] << ' ' << g.spacing[1] << ' ' << g.spacing[2] << "\">\n"
      << "    <PCellData" << attribute(f) << ">\n"
      << "      <PDataArray type=\"Float64\" Name=\"" << f.desc.name << "\" NumberOfComponents=\"" << f.desc.components << "\"/>\n"
      << "    </PCellData>\n";
  for (std::size_t p = 0; p < pieces.size(); ++p) out << "    <Piece Extent=\"" << extent(pieces[p]) << "\" Source=\"" << sources[p] << "\"/>\n";
  out << "  </PImageData>\n</VTKFile>\n";
  out.flush();
  if (!out) throw bad_input(path, "writing the file failed (disk full?)");
  return path;
}

}  // namespace ks
