// The engine's VTK files (engine/io/vtk_xml_writer.hpp, time_series.hpp) read back by VTK itself, as
// ParaView reads them, and files VTK writes read by the engine's reader (a radiation temperature field).
#include <gtest/gtest.h>

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkRectilinearGrid.h>
#include <vtkStringArray.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLDataParser.h>
#include <vtkXMLImageDataReader.h>
#include <vtkXMLImageDataWriter.h>
#include <vtkXMLWriter.h>
#include <vtkXMLPImageDataReader.h>
#include <vtkXMLPRectilinearGridReader.h>
#include <vtkXMLGenericDataObjectReader.h>
#include <vtkXMLPolyDataReader.h>
#include <vtkXMLRectilinearGridReader.h>
#include <vtkXMLRectilinearGridWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>
#include <vtkAppendFilter.h>
#include <vtkUnstructuredGrid.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "io/field_writer.hpp"
#include "io/preset.hpp"
#include "io/time_series.hpp"
#include "io/vtk_xml_writer.hpp"
#include "methods/radiation/rmc_temperature_file.hpp"
#include "temp_dir.hpp"
#include "vtk_grid_file.hpp"

namespace {

using ks::test::temp_dir;

ks::FieldData field(const std::string& name, const std::string& unit, int components, const ks::Grid& grid, double phase) {
  ks::FieldData f;
  f.desc = {name, unit, components, ""};
  f.grid = grid;
  for (std::int64_t k = 0; k < grid.count() * components; ++k) f.values.push_back(std::sin(0.37 * k + phase) * 1e-3 + k);
  return f;
}

ks::Grid grid(std::array<int, 3> cells) {
  ks::Grid g;
  g.cells = cells;
  g.origin = {-1.0, 0.5, 2.0};
  g.spacing = {0.1, 0.2, 0.3};
  return g;
}

// What a VTK reader returned holds field `f` as written: its grid (points: cells + 1; one point
// along an axis of one cell, which is flat), origin, spacing and every value (17 significant
// digits or binary: exact).
void expect_image_holds(vtkImageData* image, const ks::FieldData& f) {
  int dims[3];
  image->GetDimensions(dims);
  for (int a = 0; a < 3; ++a) {
    const int whole = f.grid.whole[a] > 0 ? f.grid.whole[a] : f.grid.cells[a];
    EXPECT_EQ(dims[a], whole == 1 ? 1 : f.grid.cells[a] + 1) << "axis " << a;
    EXPECT_DOUBLE_EQ(image->GetOrigin()[a], f.grid.origin[a]) << "axis " << a;
    EXPECT_DOUBLE_EQ(image->GetSpacing()[a], f.grid.spacing[a]) << "axis " << a;
  }
  vtkDataArray* read = image->GetCellData()->GetArray(f.desc.name.c_str());
  ASSERT_NE(read, nullptr) << f.desc.name;
  const int components = f.desc.components;
  ASSERT_EQ(read->GetNumberOfComponents(), components);
  ASSERT_EQ(read->GetNumberOfTuples(), f.grid.count());
  for (int cell = 0; cell < f.grid.count(); ++cell)
    for (int c = 0; c < components; ++c) ASSERT_EQ(read->GetComponent(cell, c), f.values[cell * components + c]) << "cell " << cell;
}

std::vector<std::string> strings(vtkFieldData* data, const char* name) {
  std::vector<std::string> out;
  auto* a = vtkStringArray::SafeDownCast(data->GetAbstractArray(name));
  if (a)
    for (vtkIdType i = 0; i < a->GetNumberOfValues(); ++i) out.push_back(a->GetValue(i));
  return out;
}

vtkSmartPointer<vtkImageData> read_image(const std::string& path) {
  vtkNew<vtkXMLImageDataReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  return reader->GetOutput();
}

// Why load_temperature_file refuses `path` ("" when it reads it).
std::string refusal(const std::string& path) {
  try {
    ks::rmc::load_temperature_file(path);
  } catch (const ks::Error& e) {
    return e.what();
  }
  return {};
}

std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// One grid, two fields: one .vti with both, read back exactly in binary (compressed) and ASCII,
// with the Vectors and Scalars named, the units and axes in FieldData and the time.
TEST(VtkFiles, GridDatasetHoldsEveryFieldAndReadsBackExactlyInBothEncodings) {
  const ks::Grid g = grid({20, 16, 12});
  const std::vector<ks::FieldData> fields = {field("velocity", "m/s", 3, g, 0.0), field("T", "K", 1, g, 1.0)};
  const std::vector<ks::Dataset> sets = ks::datasets_of(fields);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(sets[0].name, "fields");
  const std::string dir = temp_dir("dataset");
  std::uintmax_t sizes[2];  // ASCII, binary
  for (ks::VtkEncoding e : {ks::VtkEncoding::Binary, ks::VtkEncoding::Ascii}) {
    const bool binary = e == ks::VtkEncoding::Binary;
    const std::string path = ks::write_dataset_vtk(sets[0], dir + (binary ? "/binary" : "/ascii"), e, 0.25);
    sizes[binary] = std::filesystem::file_size(path);
    const std::string text = text_of(path);
    EXPECT_EQ(text.find("format=\"ascii\"") == std::string::npos, binary) << path;
    EXPECT_EQ(text.find("compressor=\"vtkZLibDataCompressor\"") != std::string::npos, binary && ks::vtk_zlib_available()) << path;
    auto image = read_image(path);
    for (const auto& f : fields) expect_image_holds(image, f);
    ASSERT_NE(image->GetCellData()->GetVectors(), nullptr);
    EXPECT_STREQ(image->GetCellData()->GetVectors()->GetName(), "velocity");
    EXPECT_STREQ(image->GetCellData()->GetScalars()->GetName(), "T");
    EXPECT_EQ(strings(image->GetFieldData(), "units"), (std::vector<std::string>{"velocity [m/s]", "T [K]"})) << path;
    EXPECT_EQ(strings(image->GetFieldData(), "axes"), (std::vector<std::string>{"x [m]", "y [m]", "z [m]"})) << path;
    vtkDataArray* time = image->GetFieldData()->GetArray("TimeValue");
    ASSERT_NE(time, nullptr) << path;
    EXPECT_EQ(time->GetTuple1(0), 0.25);
  }
  EXPECT_LT(sizes[1], sizes[0] / 2);  // binary (and compressed) under half the ASCII bytes
}

// A 2D vector field (the BGK cavity's V) is a plane of cells in ParaView, not a slab of voxels.
TEST(VtkFiles, PlaneFieldReadsBackAsAPlaneOfCells) {
  const ks::FieldData f = field("V", "v_ref", 3, grid({5, 4, 1}), 0.0);
  const std::string path = ks::write_dataset_vtk({"V", {&f}}, temp_dir("plane") + "/V", ks::VtkEncoding::Binary);
  auto image = read_image(path);
  EXPECT_EQ(image->GetDataDimension(), 2);
  EXPECT_EQ(image->GetNumberOfCells(), 20);
  expect_image_holds(image, f);
}

// A stretched grid (the DVM cube's) is a RectilinearGrid at its own cells: its coordinates are the
// cell faces, every value in place; a flat axis has one coordinate.
TEST(VtkFiles, StretchedGridReadsBackAsARectilinearGridAtItsOwnFaces) {
  ks::Grid g = grid({4, 3, 1});
  g.faces = {{{-2.0, -0.5, 0.0, 0.25, 3.0}, {0.0, 0.1, 0.3, 0.7}, {0.0, 1.0}}};
  const std::vector<ks::FieldData> fields = {field("U", "m/s", 3, g, 0.0), field("T", "K", 1, g, 1.0)};
  const auto sets = ks::datasets_of(fields);
  ASSERT_EQ(sets.size(), 1u);
  const std::string path = ks::write_dataset_vtk(sets[0], temp_dir("vtr") + "/fields", ks::VtkEncoding::Binary);
  EXPECT_EQ(path.substr(path.size() - 4), ".vtr");
  vtkNew<vtkXMLRectilinearGridReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  vtkRectilinearGrid* read = reader->GetOutput();
  int dims[3];
  read->GetDimensions(dims);
  EXPECT_EQ(dims[0], 5);
  EXPECT_EQ(dims[1], 4);
  EXPECT_EQ(dims[2], 1);
  vtkDataArray* coordinates[3] = {read->GetXCoordinates(), read->GetYCoordinates(), read->GetZCoordinates()};
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i <= g.cells[a]; ++i) EXPECT_EQ(coordinates[a]->GetTuple1(i), g.faces[a][i]) << "axis " << a << " face " << i;
  EXPECT_EQ(coordinates[2]->GetNumberOfTuples(), 1);
  for (const auto& f : fields) {
    vtkDataArray* a = read->GetCellData()->GetArray(f.desc.name.c_str());
    ASSERT_NE(a, nullptr) << f.desc.name;
    ASSERT_EQ(a->GetNumberOfTuples(), 12);
    for (int cell = 0; cell < 12; ++cell)
      for (int c = 0; c < f.desc.components; ++c) ASSERT_EQ(a->GetComponent(cell, c), f.values[cell * f.desc.components + c]);
  }
}

// A line of cells (the BGK shock, the radiation slabs) is a RectilinearGrid, which ParaView draws as a
// line (its default view of image data, a slice, cannot draw one): the points at the uniform grid's
// faces, every value in place; a plane's vector (two components, the BGK's q) gets a third, 0; the
// time. Under MPI the pieces of a line are .vtr pieces under a .pvtr, which VTK puts back together.
TEST(VtkFiles, LineReadsBackAsARectilinearGridWithPlaneVectorsInThreeComponents) {
  const ks::Grid g = grid({9, 1, 1});
  const std::vector<ks::FieldData> fields = {field("n", "", 1, g, 0.0), field("q", "W/m^2", 2, g, 1.0)};
  const auto sets = ks::datasets_of(fields);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(ks::dataset_extension(sets[0]), ".vtr");
  const auto check = [&](vtkRectilinearGrid* read, const std::string& what) {
    int dims[3];
    read->GetDimensions(dims);
    EXPECT_EQ(dims[0], 10) << what;
    EXPECT_EQ(dims[1], 1) << what;
    EXPECT_EQ(dims[2], 1) << what;
    EXPECT_EQ(read->GetDataDimension(), 1) << what;
    for (int i = 0; i <= 9; ++i) EXPECT_DOUBLE_EQ(read->GetXCoordinates()->GetTuple1(i), -1.0 + 0.1 * i) << what << " point " << i;
    EXPECT_EQ(read->GetYCoordinates()->GetTuple1(0), 0.5) << what;
    EXPECT_EQ(read->GetZCoordinates()->GetTuple1(0), 2.0) << what;
    vtkDataArray* n = read->GetCellData()->GetArray("n");
    vtkDataArray* q = read->GetCellData()->GetArray("q");
    ASSERT_NE(n, nullptr) << what;
    ASSERT_NE(q, nullptr) << what;
    ASSERT_EQ(q->GetNumberOfComponents(), 3) << what;
    ASSERT_EQ(q->GetNumberOfTuples(), 9) << what;
    for (int cell = 0; cell < 9; ++cell) {
      EXPECT_EQ(n->GetTuple1(cell), fields[0].values[cell]) << what;
      EXPECT_EQ(q->GetComponent(cell, 0), fields[1].values[2 * cell]) << what;
      EXPECT_EQ(q->GetComponent(cell, 1), fields[1].values[2 * cell + 1]) << what;
      EXPECT_EQ(q->GetComponent(cell, 2), 0.0) << what;
    }
    ASSERT_NE(read->GetCellData()->GetVectors(), nullptr) << what;
    EXPECT_STREQ(read->GetCellData()->GetVectors()->GetName(), "q") << what;
  };
  const std::string dir = temp_dir("line");
  const std::string path = ks::write_dataset_vtk(sets[0], dir + "/fields", ks::VtkEncoding::Binary, 1.5);
  EXPECT_EQ(path, dir + "/fields.vtr");
  vtkNew<vtkXMLRectilinearGridReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  check(reader->GetOutput(), "one file");
  vtkDataArray* time = reader->GetOutput()->GetFieldData()->GetArray("TimeValue");
  ASSERT_NE(time, nullptr);
  EXPECT_EQ(time->GetTuple1(0), 1.5);

  // Three ranks' pieces of the line: cells [0, 3), [3, 7), [7, 9).
  const int parts[][2] = {{0, 3}, {3, 7}, {7, 9}};
  std::vector<ks::Grid> pieces;
  std::vector<std::string> sources;
  std::vector<ks::FieldData> last;
  for (int r = 0; r < 3; ++r) {
    std::vector<ks::FieldData> piece = fields;
    for (auto& f : piece) {
      const auto& all = fields[&f - piece.data()].values;
      const int c = f.desc.components;
      f.grid.cells[0] = parts[r][1] - parts[r][0];
      f.grid.first = {parts[r][0], 0, 0};
      f.grid.whole = g.cells;
      f.values.assign(all.begin() + parts[r][0] * c, all.begin() + parts[r][1] * c);
    }
    const auto piece_sets = ks::datasets_of(piece, true);
    ASSERT_EQ(piece_sets.size(), 1u);
    sources.push_back(
        ks::write_dataset_vtk(piece_sets[0], dir + "/fields_r" + std::to_string(r), ks::VtkEncoding::Binary).substr(dir.size() + 1));
    EXPECT_EQ(sources.back(), "fields_r" + std::to_string(r) + ".vtr");
    pieces.push_back(piece[0].grid);
    last = piece;
  }
  const std::string whole = ks::write_dataset_parallel(ks::datasets_of(last, true)[0], pieces, sources, dir + "/fields");
  EXPECT_EQ(whole, dir + "/fields.pvtr");
  vtkNew<vtkXMLPRectilinearGridReader> parallel;
  parallel->SetFileName(whole.c_str());
  parallel->Update();
  check(parallel->GetOutput(), "pieces");
}

// The Vectors are the field the method marks (lbm.binary's mixture velocity u, after u_O2 and u_N2).
TEST(VtkFiles, VectorsAreTheFieldTheMethodMarks) {
  const ks::Grid g = grid({3, 2, 2});
  std::vector<ks::FieldData> fields = {field("u_O2", "m/s", 3, g, 0.0), field("u", "m/s", 3, g, 1.0), field("u_N2", "m/s", 3, g, 2.0)};
  fields[1].desc.active_vectors = true;
  const std::string path = ks::write_dataset_vtk(ks::datasets_of(fields)[0], temp_dir("vectors") + "/fields", ks::VtkEncoding::Binary);
  auto image = read_image(path);
  ASSERT_NE(image->GetCellData()->GetVectors(), nullptr);
  EXPECT_STREQ(image->GetCellData()->GetVectors()->GetName(), "u");
}

// Fields on different grids go to different files: the BGK's macroscopic fields and its phase space.
TEST(VtkFiles, FieldsOnDifferentGridsAreSeparateDatasets) {
  const ks::Grid space = grid({8, 8, 1}), phase = grid({8, 4, 1});
  ks::Grid shifted = space;
  shifted.origin[0] += 1.0;
  const std::vector<ks::FieldData> fields = {field("n", "", 1, space, 0), field("f(x, vx)", "", 1, phase, 0), field("T", "", 1, space, 0),
                                             field("u", "", 1, shifted, 0)};
  const auto sets = ks::datasets_of(fields);
  ASSERT_EQ(sets.size(), 3u);
  EXPECT_EQ(sets[0].name, "fields");
  EXPECT_EQ(sets[0].fields.size(), 2u);
  EXPECT_EQ(sets[1].name, "f_x__vx_");
  EXPECT_EQ(sets[2].name, "u");
  // A rank's piece (MPI --pieces) goes only with the pieces.
  std::vector<ks::FieldData> with_piece = fields;
  with_piece.push_back(field("rho", "", 1, space, 0));
  with_piece.back().grid.whole = {8, 8, 2};
  EXPECT_EQ(ks::datasets_of(with_piece).size(), 3u);
  const auto pieces = ks::datasets_of(with_piece, true);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].fields, std::vector<const ks::FieldData*>{&with_piece.back()});
}

// Particles: one .vtp with every particle field, points and vertices as ParaView draws them.
TEST(VtkFiles, ParticleDatasetReadsBackWithPointsAndEveryField) {
  ks::Grid g;
  g.kind = ks::Grid::Kind::Particles;
  g.cells = {7, 1, 1};
  std::vector<ks::FieldData> fields = {field("diameter", "nm", 1, g, 0.0), field("weight", "", 1, g, 2.0)};
  for (auto& f : fields)
    for (int i = 0; i < 7; ++i) f.positions.push_back({0.1 * i, -0.2 * i, 3.0 + i});
  const auto sets = ks::datasets_of(fields);
  ASSERT_EQ(sets.size(), 1u);
  EXPECT_EQ(sets[0].name, "particles");
  for (ks::VtkEncoding e : {ks::VtkEncoding::Binary, ks::VtkEncoding::Ascii}) {
    const std::string path = ks::write_dataset_vtk(sets[0], temp_dir("particles") + (e == ks::VtkEncoding::Binary ? "/b" : "/a"), e);
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName(path.c_str());
    reader->Update();
    vtkPolyData* poly = reader->GetOutput();
    ASSERT_EQ(poly->GetNumberOfPoints(), 7);
    EXPECT_EQ(poly->GetNumberOfVerts(), 7);
    for (int i = 0; i < 7; ++i)
      for (int a = 0; a < 3; ++a) EXPECT_EQ(poly->GetPoint(i)[a], fields[0].positions[i][a]);
    for (const auto& f : fields) {
      vtkDataArray* read = poly->GetPointData()->GetArray(f.desc.name.c_str());
      ASSERT_NE(read, nullptr) << f.desc.name;
      for (int i = 0; i < 7; ++i) EXPECT_EQ(read->GetTuple1(i), f.values[i]);
    }
  }
}

// What kinetic-run --pieces writes under MPI: each rank's slab of a dataset as a .vti piece and a
// .pvti over them. ParaView's reader puts the pieces back together: the whole grid, every value in place.
TEST(VtkFiles, PiecesReadBackAsTheWholeFieldWithVtkParallelReader) {
  ks::Grid g = grid({4, 3, 7});
  const std::vector<ks::FieldData> whole = {field("u", "m/s", 3, g, 0.0), field("p", "Pa", 1, g, 0.5)};
  const std::string dir = temp_dir("pvti");
  std::vector<ks::Grid> pieces;
  std::vector<std::string> sources;
  const int slabs[][2] = {{0, 2}, {2, 5}, {5, 7}};  // z planes of three ranks
  std::vector<ks::FieldData> last;
  for (int r = 0; r < 3; ++r) {
    std::vector<ks::FieldData> piece = whole;
    for (auto& f : piece) {
      f.grid.cells[2] = slabs[r][1] - slabs[r][0];
      f.grid.first = {0, 0, slabs[r][0]};
      f.grid.whole = g.cells;
      const std::size_t per_plane = 4 * 3 * f.desc.components;
      const auto& all = whole[&f - piece.data()].values;
      f.values.assign(all.begin() + slabs[r][0] * per_plane, all.begin() + slabs[r][1] * per_plane);
    }
    const auto sets = ks::datasets_of(piece, true);
    ASSERT_EQ(sets.size(), 1u);
    ks::write_dataset_vtk(sets[0], dir + "/fields_r" + std::to_string(r), ks::VtkEncoding::Binary);
    pieces.push_back(piece[0].grid);
    sources.push_back("fields_r" + std::to_string(r) + ".vti");
    last = piece;
  }
  const std::string path = ks::write_dataset_parallel(ks::datasets_of(last, true)[0], pieces, sources, dir + "/fields");
  vtkNew<vtkXMLPImageDataReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  for (const auto& f : whole) expect_image_holds(reader->GetOutput(), f);
}

// --output-every: numbered datasets and a .pvd naming each with its time, in order; an output written
// again at the same iteration (the run's end) replaces its entry.
TEST(VtkFiles, TimeSeriesCollectionListsEveryOutputWithItsTime) {
  const std::string dir = temp_dir("series");
  ks::TimeSeriesWriter series(dir, ks::VtkEncoding::Binary);
  const ks::Grid g = grid({6, 5, 1});
  const std::int64_t iterations[] = {0, 10, 20, 20};
  std::vector<std::vector<ks::FieldData>> outputs;
  for (int k = 0; k < 4; ++k) {
    outputs.push_back({field("n", "", 1, g, k), field("T", "K", 1, g, -k)});
    const auto files = series.write(outputs.back(), iterations[k], 0.5 * k);
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0], dir + "/" + ks::TimeSeriesWriter::numbered("fields", iterations[k]) + ".vti");
  }
  ASSERT_EQ(series.collections(), std::vector<std::string>{dir + "/fields.pvd"});
  vtkNew<vtkXMLDataParser> parser;
  parser->SetFileName((dir + "/fields.pvd").c_str());
  ASSERT_EQ(parser->Parse(), 1);
  vtkXMLDataElement* collection = parser->GetRootElement()->FindNestedElementWithName("Collection");
  ASSERT_NE(collection, nullptr);
  ASSERT_EQ(collection->GetNumberOfNestedElements(), 3);
  const int shown[] = {0, 1, 3};  // the last output replaced the third
  for (int e = 0; e < 3; ++e) {
    vtkXMLDataElement* entry = collection->GetNestedElement(e);
    const double time = 0.5 * shown[e];
    EXPECT_EQ(std::stod(entry->GetAttribute("timestep")), time);
    auto image = read_image(dir + "/" + entry->GetAttribute("file"));
    for (const auto& f : outputs[shown[e]]) expect_image_holds(image, f);
    EXPECT_EQ(image->GetFieldData()->GetArray("TimeValue")->GetTuple1(0), time);
  }
}

// A temperature field as VTK and ParaView save it (appended raw binary; zlib with UInt64 headers,
// or plain with UInt32 headers and Float32 point data) runs the radiation solver: the engine's reader
// gives the cells VTK wrote, and the method takes them as its temperature field.
TEST(VtkFiles, RadiationRunsFromATemperatureFieldVtkWroteInBinary) {
  const std::string dir = temp_dir("vtk-written");
  for (bool compressed : {true, false}) {
    vtkNew<vtkImageData> image;
    image->SetDimensions(9, 7, 6);  // points: 8 x 6 x 5 cells
    image->SetOrigin(0.1, -0.2, 0.0);
    image->SetSpacing(0.02, 0.03, 0.025);
    std::vector<double> cells;
    vtkSmartPointer<vtkDataArray> T;
    if (compressed) {
      T = vtkSmartPointer<vtkDoubleArray>::New();
      for (int c = 0; c < 8 * 6 * 5; ++c) cells.push_back(700.0 + 3.0 * c + 0.125);
      T->SetNumberOfTuples(8 * 6 * 5);
      for (int c = 0; c < 8 * 6 * 5; ++c) T->SetTuple1(c, cells[c]);
      T->SetName("T");
      image->GetCellData()->AddArray(T);
    } else {
      T = vtkSmartPointer<vtkFloatArray>::New();
      T->SetNumberOfTuples(9 * 7 * 6);
      for (int p = 0; p < 9 * 7 * 6; ++p) T->SetTuple1(p, 600.0 + p);  // exact in Float32
      T->SetName("T");
      image->GetPointData()->AddArray(T);
      for (int k = 0; k < 5; ++k)
        for (int j = 0; j < 6; ++j)
          for (int i = 0; i < 8; ++i) cells.push_back(600.0 + i + 0.5 + 9 * (j + 0.5) + 63 * (k + 0.5));  // mean of 8 corners
    }
    const std::string path = dir + (compressed ? "/T-zlib.vti" : "/T-plain.vti");
    vtkNew<vtkXMLImageDataWriter> writer;
    writer->SetInputData(image);
    writer->SetFileName(path.c_str());
    writer->SetDataModeToAppended();
    writer->EncodeAppendedDataOff();
    if (compressed) {
      writer->SetCompressorTypeToZLib();
      writer->SetHeaderTypeToUInt64();
    } else {
      writer->SetCompressorTypeToNone();
      writer->SetHeaderTypeToUInt32();
    }
    ASSERT_EQ(writer->Write(), 1);
    if (compressed && !ks::vtk_zlib_available()) continue;  // a build without zlib refuses it (engine tests)
    const ks::GridField f = ks::rmc::load_temperature_file(path);
    EXPECT_EQ(f.n[0], 8);
    EXPECT_EQ(f.n[1], 6);
    EXPECT_EQ(f.n[2], 5);
    EXPECT_DOUBLE_EQ(f.h[1], 0.03);
    ASSERT_EQ(f.values.size(), cells.size());
    for (std::size_t c = 0; c < cells.size(); ++c) ASSERT_DOUBLE_EQ(f.values[c], cells[c]) << path << " cell " << c;

    ks::ParamSet p =
        ks::load_preset(std::string(KS_SOURCE_DIR) + "/presets/radiation/temperature-from-file.json", ks::builtin_registry()).params;
    p.set("temperature_file", path);
    p.set("rays_per_cell", std::int64_t(20));
    auto method = ks::builtin_registry().create("radiation.rmc");
    method->setup(p, ks::resolve_backend(ks::BackendRequest::Cpu));
    method->advance();
    const ks::Snapshot snap = method->snapshot();
    int t = 0;
    while (t < int(snap.fields.size()) && snap.fields[t].desc.name != "T") ++t;
    ASSERT_LT(t, int(snap.fields.size()));
    EXPECT_EQ(snap.fields[t].grid.cells, (std::array<int, 3>{8, 6, 5}));
    for (std::size_t c = 0; c < cells.size(); ++c) ASSERT_DOUBLE_EQ(snap.fields[t].values[c], cells[c]) << path << " cell " << c;
  }
}

// With VTK's readers installed (as the app and kinetic-run do), the temperature file may be any .vti
// (here inline base64), a .vtr or a .vtu of a uniform grid, cell or point data: the cells come out
// as the engine's own readers give them. A stretched grid and a file VTK cannot read are refused
// naming the file and why.
TEST(VtkFiles, TemperatureFilesOfEveryVtkXmlKindReadThroughVtk) {
  ks::vtk_io::install();
  const std::string dir = temp_dir("vtk-kinds");
  vtkNew<vtkImageData> image;
  image->SetDimensions(5, 4, 3);  // 4 x 3 x 2 cells
  image->SetOrigin(0.0, 0.1, 0.2);
  image->SetSpacing(0.05, 0.05, 0.05);
  vtkNew<vtkDoubleArray> cellT, pointT;
  cellT->SetName("T");
  pointT->SetName("T");
  std::vector<double> cells, from_points;
  for (int c = 0; c < 24; ++c) cellT->InsertNextValue(800.0 + 10.0 * c), cells.push_back(800.0 + 10.0 * c);
  for (int p = 0; p < 60; ++p) pointT->InsertNextValue(500.0 + p);
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 4; ++i) from_points.push_back(500.0 + i + 0.5 + 5 * (j + 0.5) + 20 * (k + 0.5));  // mean of 8 corners
  const auto expect_cells = [](const std::string& path, const std::vector<double>& want) {
    const ks::GridField f = ks::rmc::load_temperature_file(path);
    EXPECT_EQ(f.n[0], 4) << path;
    EXPECT_EQ(f.n[1], 3) << path;
    EXPECT_EQ(f.n[2], 2) << path;
    EXPECT_NEAR(f.h[2], 0.05, 1e-8) << path;  // a .vtu's points are Float32
    EXPECT_NEAR(f.origin[1], 0.1, 1e-8) << path;
    ASSERT_EQ(f.values.size(), want.size()) << path;
    for (std::size_t c = 0; c < want.size(); ++c) EXPECT_NEAR(f.values[c], want[c], 1e-9) << path << " cell " << c;
  };
  // .vti with inline base64 data (the engine's reader leaves it to VTK's).
  image->GetCellData()->AddArray(cellT);
  vtkNew<vtkXMLImageDataWriter> vti;
  vti->SetInputData(image);
  vti->SetDataModeToBinary();
  vti->SetFileName((dir + "/inline.vti").c_str());
  ASSERT_EQ(vti->Write(), 1);
  expect_cells(dir + "/inline.vti", cells);
  // .pvti over two .vti pieces (x cells 0-1 and 2-3), laid out as ParaView saves a distributed image:
  // every piece checked and read. VTK's own parallel reader reads the same file whole.
  std::filesystem::create_directories(dir + "/parallel");
  for (int piece = 0; piece < 2; ++piece) {
    vtkNew<vtkImageData> part;
    part->SetExtent(2 * piece, 2 * piece + 2, 0, 3, 0, 2);
    part->SetOrigin(0.0, 0.1, 0.2);
    part->SetSpacing(0.05, 0.05, 0.05);
    vtkNew<vtkDoubleArray> partT;
    partT->SetName("T");
    for (int c = 0; c < 24; ++c)
      if (c % 4 / 2 == piece) partT->InsertNextValue(cells[c]);
    part->GetCellData()->AddArray(partT);
    vtkNew<vtkXMLImageDataWriter> w;
    w->SetInputData(part);
    w->SetFileName((dir + "/parallel/parallel_" + std::to_string(piece) + ".vti").c_str());
    ASSERT_EQ(w->Write(), 1);
  }
  std::ofstream(dir + "/parallel.pvti")
      << "<?xml version=\"1.0\"?>\n<VTKFile type=\"PImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
         "  <PImageData WholeExtent=\"0 4 0 3 0 2\" GhostLevel=\"0\" Origin=\"0 0.1 0.2\" Spacing=\"0.05 0.05 0.05\">\n"
         "    <PCellData Scalars=\"T\">\n      <PDataArray type=\"Float64\" Name=\"T\"/>\n    </PCellData>\n"
         "    <Piece Extent=\"0 2 0 3 0 2\" Source=\"parallel/parallel_0.vti\"/>\n"
         "    <Piece Extent=\"2 4 0 3 0 2\" Source=\"parallel/parallel_1.vti\"/>\n  </PImageData>\n</VTKFile>\n";
  vtkNew<vtkXMLPImageDataReader> whole;
  whole->SetFileName((dir + "/parallel.pvti").c_str());
  whole->Update();
  ASSERT_EQ(whole->GetOutput()->GetNumberOfCells(), 24);
  expect_cells(dir + "/parallel.pvti", cells);
  std::filesystem::remove(dir + "/parallel/parallel_1.vti");
  std::string missing = refusal(dir + "/parallel.pvti");
  EXPECT_NE(missing.find("parallel_1.vti"), std::string::npos) << missing;
  // A legacy .vtk: refused, naming the kinds read (the parameter's check says how to save it as .vti).
  std::ofstream(dir + "/legacy.vtk") << "# vtk DataFile Version 3.0\nT\nASCII\nDATASET STRUCTURED_POINTS\n";
  missing = refusal(dir + "/legacy.vtk");
  EXPECT_NE(missing.find("legacy.vtk: is not a .csv, .vti, .pvti, .vtr or .vtu file"), std::string::npos) << missing;
  // .vtu of hexahedra, point data.
  image->GetCellData()->RemoveArray("T");
  image->GetPointData()->AddArray(pointT);
  vtkNew<vtkAppendFilter> to_mesh;
  to_mesh->SetInputData(image);
  to_mesh->Update();
  vtkNew<vtkXMLUnstructuredGridWriter> vtu;
  vtu->SetInputData(to_mesh->GetOutput());
  vtu->SetFileName((dir + "/mesh.vtu").c_str());
  ASSERT_EQ(vtu->Write(), 1);
  expect_cells(dir + "/mesh.vtu", from_points);
  // .vtr, uniform coordinates then stretched ones.
  vtkNew<vtkRectilinearGrid> rect;
  rect->SetDimensions(5, 4, 3);
  vtkNew<vtkDoubleArray> x, y, z;
  for (int i = 0; i < 5; ++i) x->InsertNextValue(0.05 * i);
  for (int j = 0; j < 4; ++j) y->InsertNextValue(0.1 + 0.05 * j);
  for (int k = 0; k < 3; ++k) z->InsertNextValue(0.2 + 0.05 * k);
  rect->SetXCoordinates(x);
  rect->SetYCoordinates(y);
  rect->SetZCoordinates(z);
  rect->GetCellData()->AddArray(cellT);
  vtkNew<vtkXMLRectilinearGridWriter> vtr;
  vtr->SetInputData(rect);
  vtr->SetFileName((dir + "/uniform.vtr").c_str());
  ASSERT_EQ(vtr->Write(), 1);
  expect_cells(dir + "/uniform.vtr", cells);
  x->SetValue(4, 0.5);
  vtr->SetFileName((dir + "/stretched.vtr").c_str());
  ASSERT_EQ(vtr->Write(), 1);
  std::string msg = refusal(dir + "/stretched.vtr");
  EXPECT_NE(msg.find(dir + "/stretched.vtr: column x: the cell centres are not uniformly spaced"), std::string::npos) << msg;
  std::ofstream(dir + "/broken.vtu") << "<VTKFile type=\"UnstructuredGrid\"><UnstructuredGrid><Piece NumberOfPoints=\"8\"";
  msg = refusal(dir + "/broken.vtu");
  EXPECT_NE(msg.find(dir + "/broken.vtu: line 1: the file ends inside the tag <Piece>"), std::string::npos) << msg;
}

// What the checks before VTK's readers (app/vtk_io/vtk_file_checks.hpp) accept: every layout VTK
// writes, inline base64, appended raw and base64, each compressor, both header types, both byte orders.
TEST(VtkFiles, TemperatureFilesInEveryLayoutVtkWritesPassTheChecks) {
  ks::vtk_io::install();
  const std::string dir = temp_dir("vtk-layouts");
  vtkNew<vtkImageData> image;
  image->SetDimensions(5, 4, 3);  // 4 x 3 x 2 cells
  image->SetSpacing(0.05, 0.05, 0.05);
  vtkNew<vtkDoubleArray> cellT;
  cellT->SetName("T");
  for (int c = 0; c < 24; ++c) cellT->InsertNextValue(800.0 + 10.0 * c);
  image->GetCellData()->AddArray(cellT);
  int files = 0;
  for (int compressor : {vtkXMLWriter::NONE, vtkXMLWriter::ZLIB, vtkXMLWriter::LZ4, vtkXMLWriter::LZMA})
    for (int mode : {0, 1, 2})  // inline base64, appended raw, appended base64
      for (bool header64 : {false, true}) {
        vtkNew<vtkXMLImageDataWriter> w;
        w->SetInputData(image);
        w->SetCompressorType(compressor);
        w->SetBlockSize(64);  // several blocks, the last partial
        if (mode == 0) w->SetDataModeToBinary();
        else w->SetDataModeToAppended(), w->SetEncodeAppendedData(mode == 2);
        if (header64) w->SetHeaderTypeToUInt64();
        else w->SetHeaderTypeToUInt32();
        w->SetByteOrder(files % 2);  // big-endian every other file
        const std::string path = dir + "/t" + std::to_string(files++) + ".vti";
        w->SetFileName(path.c_str());
        ASSERT_EQ(w->Write(), 1) << path;
        const ks::GridField f = ks::rmc::load_temperature_file(path);
        ASSERT_EQ(f.values.size(), 24u) << path;
        for (int c = 0; c < 24; ++c) EXPECT_DOUBLE_EQ(f.values[c], 800.0 + 10.0 * c) << path << " cell " << c;
      }
}

// Every method's own snapshot (a teaching preset after one iteration on the CPU, and the DVM cube's
// stretched grid at its own cells, made small) written as kinetic-run writes it and read back by VTK's generic
// reader: each dataset's kind, dimensions, origin, spacing or coordinates, and every field's name,
// components and values.
TEST(VtkFiles, EveryMethodsSnapshotReadsBackWithVtkAsTheEngineHoldsIt) {
  const char* presets[] = {"bgk/teaching-cavity",    "bgk/teaching-shock",      "coagulation/teaching-demo",  "dvm/teaching-cavity",
                           "dvm/cube-mach2-reduced", "lbm/teaching-packed-bed", "radiation/teaching-hot-cube"};
  int kinds[3] = {0, 0, 0};  // image, rectilinear, particle datasets seen
  for (const char* name : presets) {
    const ks::Preset preset = ks::load_preset(std::string(KS_SOURCE_DIR) + "/presets/" + name + ".json", ks::builtin_registry());
    auto method = ks::builtin_registry().create(preset.method);
    const ks::ExecutionContext ctx = ks::resolve_backend(ks::BackendRequest::Cpu);
    ks::ParamSet params = preset.params;
    if (preset.case_name.find("section 4.2") != std::string::npos)  // the cube: 18 x 14 x 14 cells, 12^3 velocities
      for (const auto& [key, value] :
           {std::pair<const char*, std::int64_t>{"nx", 18}, {"ny", 14}, {"nz", 14}, {"body_cells", 4}, {"nv", 12}})
        params.set(key, value);
    method->setup(params, ctx);
    method->advance();
    const ks::Snapshot snap = ks::snapshot_for_files(*method);
    const std::string dir = temp_dir(std::string("snapshot-") + ks::file_safe(name));
    for (const ks::Dataset& d : ks::datasets_of(snap.fields)) {
      const std::string path = ks::write_dataset_vtk(d, dir + "/" + d.name, ks::VtkEncoding::Binary, snap.progress.sim_time);
      vtkNew<vtkXMLGenericDataObjectReader> reader;
      reader->SetFileName(path.c_str());
      reader->Update();
      vtkDataSet* data = vtkDataSet::SafeDownCast(reader->GetOutput());
      ASSERT_NE(data, nullptr) << path;
      const ks::Grid& g = d.grid();
      ASSERT_EQ(data->GetNumberOfCells(), g.count()) << path;  // particles: one vertex each
      vtkDataSetAttributes* values = data->GetCellData();
      if (auto* image = vtkImageData::SafeDownCast(data)) {
        for (int a = 0; a < 3; ++a) {
          EXPECT_EQ(image->GetOrigin()[a], g.origin[a]) << path;
          EXPECT_EQ(image->GetSpacing()[a], g.spacing[a]) << path;
        }
        EXPECT_FALSE(g.rectilinear()) << path;
        ++kinds[0];
      } else if (auto* rect = vtkRectilinearGrid::SafeDownCast(data)) {
        ++kinds[1];
        vtkDataArray* coordinates[3] = {rect->GetXCoordinates(), rect->GetYCoordinates(), rect->GetZCoordinates()};
        if (g.rectilinear()) {  // a stretched grid at its faces
          for (int a = 0; a < 3; ++a)
            for (std::size_t i = 0; i < g.faces[a].size(); ++i) ASSERT_EQ(coordinates[a]->GetTuple1(i), g.faces[a][i]) << path;
        } else {  // a line: the uniform grid's points along it
          ASSERT_EQ(rect->GetDataDimension(), 1) << path;
          for (int a = 0; a < 3; ++a)
            for (vtkIdType i = 0; i < coordinates[a]->GetNumberOfTuples(); ++i)
              ASSERT_DOUBLE_EQ(coordinates[a]->GetTuple1(i), g.origin[a] + double(i) * g.spacing[a]) << path;
        }
      } else {
        auto* poly = vtkPolyData::SafeDownCast(data);
        ASSERT_NE(poly, nullptr) << path;
        ASSERT_EQ(g.kind, ks::Grid::Kind::Particles) << path;
        for (vtkIdType i = 0; i < poly->GetNumberOfPoints(); ++i)
          for (int a = 0; a < 3; ++a) ASSERT_EQ(poly->GetPoint(i)[a], d.fields[0]->positions[i][a]) << path;
        values = poly->GetPointData();
        ++kinds[2];
      }
      EXPECT_EQ(data->GetFieldData()->GetArray("TimeValue")->GetTuple1(0), snap.progress.sim_time) << path;
      for (const ks::FieldData* f : d.fields) {
        vtkDataArray* a = values->GetArray(f->desc.name.c_str());
        ASSERT_NE(a, nullptr) << path << " " << f->desc.name;
        const int c = f->desc.components, written = c == 2 ? 3 : c;  // a vector of the plane gets z = 0
        ASSERT_EQ(a->GetNumberOfComponents(), written) << path << " " << f->desc.name;
        ASSERT_EQ(std::size_t(a->GetNumberOfTuples()), f->values.size() / c) << path << " " << f->desc.name;
        for (std::size_t v = 0; v < f->values.size(); ++v)
          ASSERT_EQ(a->GetComponent(v / c, v % c), f->values[v]) << path << " " << f->desc.name;
        for (std::size_t t = 0; written > c && t < f->values.size() / c; ++t)
          ASSERT_EQ(a->GetComponent(t, 2), 0.0) << path << " " << f->desc.name;
      }
    }
  }
  EXPECT_EQ(kinds[0], 6);  // bgk cavity 2, shock's phase space, dvm cavity, lbm, radiation
  EXPECT_EQ(kinds[1], 2);  // the cube, the shock's line
  EXPECT_EQ(kinds[2], 2);  // coagulation's particles, the bed's spheres
}

}  // namespace
