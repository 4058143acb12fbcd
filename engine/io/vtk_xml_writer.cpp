#include "vtk_xml_writer.hpp"

#include <algorithm>
#include <sstream>

#include "field_writer.hpp"
#include "output_file.hpp"

namespace ks {

namespace {

bool same_grid(const Grid& a, const Grid& b, const FieldData& fa, const FieldData& fb) {
  return a.kind == b.kind && a.cells == b.cells && a.origin == b.origin && a.spacing == b.spacing && a.axes == b.axes &&
         a.first == b.first && a.whole == b.whole && a.faces == b.faces && fa.positions == fb.positions;
}

std::string numbers(const std::array<double, 3>& v) {
  std::ostringstream out;
  out.precision(17);
  out << v[0] << ' ' << v[1] << ' ' << v[2];
  return out.str();
}

// An axis the whole grid has one cell along is flat: it has one point, so a 2D grid is a plane of
// cells and a 1D grid a line.
bool flat(const Grid& g, int a) { return (g.whole[a] > 0 ? g.whole[a] : g.cells[a]) == 1; }

// A grid of cells along one axis only. ParaView's default view of image data (a slice) cannot draw
// it ("Incorrect dimensionality"), a rectilinear grid's (its surface) draws it as a line.
bool line(const Grid& g) { return g.kind == Grid::Kind::Image && int(!flat(g, 0)) + int(!flat(g, 1)) + int(!flat(g, 2)) == 1; }

// The point coordinates along axis `a` of a grid's cells: the faces of a rectilinear grid, the
// uniform grid's points from its first cell in the whole grid; a flat axis has one, its lower face.
std::vector<double> coordinates(const Grid& g, int a) {
  if (g.rectilinear()) return flat(g, a) ? std::vector<double>{g.faces[a][0]} : g.faces[a];
  std::vector<double> at(flat(g, a) ? 1 : g.cells[a] + 1);
  for (std::size_t i = 0; i < at.size(); ++i) at[i] = g.origin[a] + double(g.first[a] + std::int64_t(i)) * g.spacing[a];
  return at;
}

// "x0 x1 y0 y1 z0 z1" of a grid's cells in the whole grid (points, one more than cells; a flat axis "0 0").
std::string extent(const Grid& g) {
  std::string e;
  for (int a = 0; a < 3; ++a) {
    if (a) e += ' ';
    e += std::to_string(g.first[a]);
    e += ' ';
    e += std::to_string(g.first[a] + (flat(g, a) ? 0 : g.cells[a]));
  }
  return e;
}

// The attributes naming the active arrays: the field the method marks as the dataset's vectors, else
// its first three-component field, the Vectors; the first one-component field the Scalars.
std::string attributes(const Dataset& d) {
  std::string scalars, vectors;
  for (const FieldData* f : d.fields) {
    if (f->desc.components == 1 && scalars.empty()) scalars = f->desc.name;
    if (written_components(*f) == 3 && (vectors.empty() || f->desc.active_vectors)) vectors = f->desc.name;
  }
  return (scalars.empty() ? "" : " Scalars=\"" + xml_escaped(scalars) + "\"") +
         (vectors.empty() ? "" : " Vectors=\"" + xml_escaped(vectors) + "\"");
}

std::string labelled(const std::string& name, const std::string& unit) { return unit.empty() ? name : name + " [" + unit + "]"; }

std::string field_data(const Dataset& d, VtkDataArrays& arrays, std::optional<double> time) {
  std::vector<std::string> units, axes;
  for (const FieldData* f : d.fields) units.push_back(labelled(f->desc.name, f->desc.unit));
  for (const GridAxis& a : d.grid().axes) axes.push_back(labelled(a.name, a.unit));
  std::string out = "    <FieldData>\n" + arrays.strings("units", units, "      ") + arrays.strings("axes", axes, "      ");
  if (time) out += arrays.float64("TimeValue", 1, {*time}, "      ", true);
  return out + "    </FieldData>\n";
}

std::string data_arrays(const Dataset& d, VtkDataArrays& arrays) {
  std::string out;
  for (const FieldData* f : d.fields) {
    if (written_components(*f) == f->desc.components) {
      out += arrays.float64(f->desc.name, f->desc.components, f->values, "        ");
      continue;
    }
    out += arrays.float64(f->desc.name, 3, padded_to_three(*f), "        ");
  }
  return out;
}

std::string write_file(const std::string& path, const std::string& type, const std::string& body, const VtkDataArrays& arrays) {
  write_file_atomically(path,
                        "<?xml version=\"1.0\"?>\n<VTKFile type=\"" + type + "\" version=\"1.0\"" + arrays.file_attributes() + ">\n" +
                            body + arrays.appended_element() + "</VTKFile>\n",
                        "VTK file");
  return path;
}

}  // namespace

int written_components(const FieldData& f) { return f.desc.components == 2 ? 3 : f.desc.components; }

std::vector<double> padded_to_three(const FieldData& f) {
  std::vector<double> padded;
  padded.reserve(f.values.size() / 2 * 3);
  for (std::size_t i = 0; i + 1 < f.values.size(); i += 2) padded.insert(padded.end(), {f.values[i], f.values[i + 1], 0.0});
  return padded;
}

std::vector<Dataset> datasets_of(const std::vector<FieldData>& fields, bool pieces) {
  std::vector<Dataset> out;
  for (const FieldData& f : fields) {
    if (f.grid.piece() != pieces) continue;
    auto it = out.begin();
    while (it != out.end() && !same_grid(it->grid(), f.grid, *it->fields.front(), f)) ++it;
    if (it == out.end()) out.push_back({"", {&f}});
    else it->fields.push_back(&f);
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    Dataset& d = out[i];
    const std::string stem = d.fields.size() == 1                     ? file_safe(d.fields[0]->desc.name)
                             : d.grid().kind == Grid::Kind::Particles ? "particles"
                                                                      : "fields";
    d.name = stem;
    for (int n = 2; std::any_of(out.begin(), out.begin() + i, [&d](const Dataset& e) { return e.name == d.name; }); ++n)
      d.name = stem + "_" + std::to_string(n);
  }
  return out;
}

std::string write_dataset_vtk(const Dataset& d, const std::string& stem, VtkEncoding encoding, std::optional<double> time) {
  VtkDataArrays arrays(encoding);
  const Grid& g = d.grid();
  // Appended in file order: the field data, then the fields.
  const std::string fields_meta = field_data(d, arrays, time);
  const std::string values = data_arrays(d, arrays);
  if (g.kind == Grid::Kind::Particles) {
    const std::int64_t n = g.count();
    std::vector<double> points;
    points.reserve(3 * n);
    for (const auto& p : d.fields.front()->positions) points.insert(points.end(), p.begin(), p.end());
    std::vector<std::int64_t> connectivity(n), offsets(n);
    for (std::int64_t i = 0; i < n; ++i) connectivity[i] = i, offsets[i] = i + 1;
    const std::string body = "  <PolyData>\n" + fields_meta + "    <Piece NumberOfPoints=\"" + std::to_string(n) + "\" NumberOfVerts=\"" +
                             std::to_string(n) + "\">\n      <Points>\n" + arrays.float64("", 3, points, "        ") +
                             "      </Points>\n      <Verts>\n" + arrays.int64("connectivity", connectivity, "        ") +
                             arrays.int64("offsets", offsets, "        ") + "      </Verts>\n      <PointData" + attributes(d) + ">\n" +
                             values + "      </PointData>\n    </Piece>\n  </PolyData>\n";
    return write_file(stem + ".vtp", "PolyData", body, arrays);
  }
  if (g.rectilinear() || line(g)) {
    std::string points;
    for (int a = 0; a < 3; ++a) points += arrays.float64(std::string(1, "xyz"[a]), 1, coordinates(g, a), "        ");
    const std::string body = "  <RectilinearGrid WholeExtent=\"" + extent(g) + "\">\n" + fields_meta + "    <Piece Extent=\"" + extent(g) +
                             "\">\n      <CellData" + attributes(d) + ">\n" + values + "      </CellData>\n      <Coordinates>\n" + points +
                             "      </Coordinates>\n    </Piece>\n  </RectilinearGrid>\n";
    return write_file(stem + ".vtr", "RectilinearGrid", body, arrays);
  }
  const std::string body = "  <ImageData WholeExtent=\"" + extent(g) + "\" Origin=\"" + numbers(g.origin) + "\" Spacing=\"" +
                           numbers(g.spacing) + "\">\n" + fields_meta + "    <Piece Extent=\"" + extent(g) + "\">\n      <CellData" +
                           attributes(d) + ">\n" + values + "      </CellData>\n    </Piece>\n  </ImageData>\n";
  return write_file(stem + ".vti", "ImageData", body, arrays);
}

std::string dataset_extension(const Dataset& d) {
  const Grid& g = d.grid();
  return g.kind == Grid::Kind::Particles ? ".vtp" : g.rectilinear() || line(g) ? ".vtr" : ".vti";
}

std::string write_dataset_parallel(const Dataset& d, const std::vector<Grid>& pieces, const std::vector<std::string>& sources,
                                   const std::string& stem) {
  Grid whole = d.grid();
  whole.first = {0, 0, 0};
  whole.cells = whole.whole;
  const bool rectilinear = dataset_extension(d) == ".vtr";
  const std::string type = rectilinear ? "PRectilinearGrid" : "PImageData";
  std::string body = "  <" + type + " WholeExtent=\"" + extent(whole) + "\" GhostLevel=\"0\"" +
                     (rectilinear ? "" : " Origin=\"" + numbers(whole.origin) + "\" Spacing=\"" + numbers(whole.spacing) + "\"") +
                     ">\n    <PCellData" + attributes(d) + ">\n";
  for (const FieldData* f : d.fields)
    body += "      <PDataArray type=\"Float64\" Name=\"" + xml_escaped(f->desc.name) + "\" NumberOfComponents=\"" +
            std::to_string(written_components(*f)) + "\"/>\n";
  body += "    </PCellData>\n";
  if (rectilinear) {
    body += "    <PCoordinates>\n";
    for (const char* axis : {"x", "y", "z"}) body += "      <PDataArray type=\"Float64\" Name=\"" + std::string(axis) + "\"/>\n";
    body += "    </PCoordinates>\n";
  }
  for (std::size_t p = 0; p < pieces.size(); ++p)
    body += "    <Piece Extent=\"" + extent(pieces[p]) + "\" Source=\"" + xml_escaped(sources[p]) + "\"/>\n";
  body += "  </" + type + ">\n";
  return write_file(stem + (rectilinear ? ".pvtr" : ".pvti"), type, body, VtkDataArrays(VtkEncoding::Ascii));
}

}  // namespace ks
