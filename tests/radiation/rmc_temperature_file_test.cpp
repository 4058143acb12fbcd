// radiation.rmc with profile `file`: a temperature field read from .csv (x,y,z,T or i,j,k,T) and
// ASCII .vti (cell or point data) equals the analytic field it was written from, a run from it gives
// the analytic run's Q^R, and bad files are refused with the file, the line and what is allowed.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <numeric>
#include <random>
#include <sstream>

#include "core/errors.hpp"
#include "core/registry.hpp"
#include "expect_error.hpp"
#include "io/field_writer.hpp"
#include "io/preset.hpp"
#include "io/vtk_xml_writer.hpp"
#include "methods/radiation/rmc_cases.hpp"
#include "methods/radiation/rmc_temperature_file.hpp"
#include "rmc_test_support.hpp"

namespace ks::rmc {
namespace {

namespace fs = std::filesystem;
using ks::test_support::error_message;

// parab1 (eq. 19) on 8 x 4 x 4 cells of the unit slab: the field every file here is written from.
const std::map<std::string, std::string> kParab1 = {
    {"profile", "parab1"}, {"kappa", "1"}, {"nx", "8"}, {"ny", "4"}, {"nz", "4"}, {"rays_per_cell", "200"}, {"rays_per_batch", "100"}};

RmcConfig parab1_config() { return make_config(rmc_param_table().read(test_support::method_params<RmcMethod>(kParab1))); }

// The same run with the field from `file`: walls at parab1's 500 K, periodic in y and z as the slab.
std::map<std::string, std::string> from_file(const std::string& file) {
  auto p = kParab1;
  p["profile"] = "file";
  p["temperature_file"] = file;
  p["file_geometry"] = "channel";
  p["wall_temperature"] = "500";
  p["nx"] = "32";  // replaced by the file's grid
  return p;
}

class RmcTemperatureFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ks_rmc_tfile_" + std::to_string(::getpid()) + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }

  // x,y,z,T (or i,j,k,T) rows of `c`'s cells in a shuffled order, T printed to `digits` significant digits.
  std::string csv(const RmcConfig& c, const std::vector<double>& T, bool indices, int digits = 17) const {
    std::vector<std::size_t> order(T.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), std::mt19937(7));
    std::ostringstream os;
    os.precision(digits);
    os << (indices ? "i,j,k,T\n" : "x,y,z,T\n");
    for (std::size_t cell : order) {
      const std::size_t i = cell % c.n[0], j = (cell / c.n[0]) % c.n[1], k = cell / (std::size_t(c.n[0]) * c.n[1]);
      if (indices) os << i << ',' << j << ',' << k;
      else os << (i + 0.5) * c.spacing(0) << ',' << (j + 0.5) * c.spacing(1) << ',' << (k + 0.5) * c.spacing(2);
      os << ',' << T[cell] << '\n';
    }
    return os.str();
  }

  // VTK XML ImageData, ASCII, one array T of cell data (or point data with `points`), origin `o`.
  static std::string vti(const int n[3], const double h[3], const double o[3], const std::vector<double>& values, bool points,
                         const std::string& format = "ascii") {
    std::ostringstream os;
    os.precision(17);
    os << "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
       << "  <ImageData WholeExtent=\"0 " << n[0] << " 0 " << n[1] << " 0 " << n[2] << "\" Origin=\"" << o[0] << ' ' << o[1] << ' ' << o[2]
       << "\" Spacing=\"" << h[0] << ' ' << h[1] << ' ' << h[2] << "\">\n"
       << "    <Piece Extent=\"0 " << n[0] << " 0 " << n[1] << " 0 " << n[2] << "\">\n"
       << (points ? "      <PointData Scalars=\"T\">\n" : "      <CellData Scalars=\"T\">\n")
       << "        <DataArray type=\"Float64\" Name=\"T\" format=\"" << format << "\">\n";
    for (std::size_t i = 0; i < values.size(); ++i) os << values[i] << ((i + 1) % 6 ? ' ' : '\n');
    os << "\n        </DataArray>\n"
       << (points ? "      </PointData>\n" : "      </CellData>\n") << "    </Piece>\n  </ImageData>\n</VTKFile>\n";
    return os.str();
  }

  // The same with a WholeExtent (and piece Extent) as written, for crafted grids; 1 mm cells.
  static std::string vti_extent(const std::string& extent, const std::string& values) {
    return "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
           "  <ImageData WholeExtent=\"" +
           extent +
           "\" Origin=\"0 0 0\" Spacing=\"0.001 0.001 0.001\">\n"
           "    <Piece Extent=\"" +
           extent +
           "\">\n      <CellData Scalars=\"T\">\n"
           "        <DataArray type=\"Float64\" Name=\"T\" format=\"ascii\">\n" +
           values + "\n        </DataArray>\n      </CellData>\n    </Piece>\n  </ImageData>\n</VTKFile>\n";
  }

  // The message of load_temperature_file(path), which must refuse the file as bad input naming it.
  static std::string refusal(const std::string& path) {
    const std::string msg = error_message([&] { load_temperature_file(path); });
    EXPECT_NE(msg.find(path), std::string::npos) << msg;
    return msg;
  }

  fs::path dir_;
};

#define EXPECT_HAS(msg, part) EXPECT_NE((msg).find(part), std::string::npos) << (msg)

TEST_F(RmcTemperatureFile, CsvOfCellCentresReproducesTheAnalyticField) {
  const RmcConfig c = parab1_config();
  const std::vector<double> T = cell_temperatures(c);
  // Printed to 17 digits a double survives exactly; to 8 digits within half a unit of the 8th digit.
  const TemperatureField exact = load_temperature_file(write("parab1.csv", csv(c, T, false)));
  const TemperatureField eight = load_temperature_file(write("parab1-8.csv", csv(c, T, false, 8)));
  for (const TemperatureField* f : {&exact, &eight}) {
    EXPECT_EQ(f->n[0], 8);
    EXPECT_EQ(f->n[1], 4);
    EXPECT_EQ(f->n[2], 4);
    EXPECT_DOUBLE_EQ(f->h[0], 0.125);
    EXPECT_DOUBLE_EQ(f->h[1], 0.25);
    EXPECT_NEAR(f->origin[0], 0.0, 1e-12);
  }
  ASSERT_EQ(exact.values.size(), T.size());
  for (std::size_t i = 0; i < T.size(); ++i) {
    EXPECT_EQ(exact.values[i], T[i]) << i;
    EXPECT_NEAR(eight.values[i], T[i], 5e-8 * T[i]) << i;
  }
}

TEST_F(RmcTemperatureFile, CsvOfCellIndicesReproducesTheAnalyticFieldWithoutACellSize) {
  const RmcConfig c = parab1_config();
  const std::vector<double> T = cell_temperatures(c);
  const TemperatureField f = load_temperature_file(write("parab1-ijk.csv", csv(c, T, true)));
  EXPECT_FALSE(f.has_size());  // the box is then `length` along every axis
  EXPECT_EQ(f.values, T);
}

TEST_F(RmcTemperatureFile, VtiCellDataIsTheFieldAndPointDataIsAveragedToCellCentres) {
  const RmcConfig c = parab1_config();
  const std::vector<double> T = cell_temperatures(c);
  const double h[3] = {c.spacing(0), c.spacing(1), c.spacing(2)}, o[3] = {-0.5, 0.0, 2.0};
  const TemperatureField cells = load_temperature_file(write("parab1.vti", vti(c.n, h, o, T, false)));
  EXPECT_EQ(cells.values, T);
  EXPECT_DOUBLE_EQ(cells.h[2], 0.25);
  EXPECT_DOUBLE_EQ(cells.origin[0], -0.5);
  EXPECT_DOUBLE_EQ(cells.origin[2], 2.0);

  // Point data of a field linear in x, y and z: the mean of a cell's 8 corners is its centre value.
  const int np[3] = {c.n[0] + 1, c.n[1] + 1, c.n[2] + 1};
  auto linear = [](double x, double y, double z) { return 500.0 + 800.0 * x + 40.0 * y + 12.0 * z; };
  std::vector<double> P;
  for (int k = 0; k < np[2]; ++k)
    for (int j = 0; j < np[1]; ++j)
      for (int i = 0; i < np[0]; ++i) P.push_back(linear(i * h[0], j * h[1], k * h[2]));
  const TemperatureField points = load_temperature_file(write("linear-points.VTI", vti(c.n, h, o, P, true)));
  ASSERT_EQ(points.values.size(), T.size());
  for (int k = 0; k < c.n[2]; ++k)
    for (int j = 0; j < c.n[1]; ++j)
      for (int i = 0; i < c.n[0]; ++i)
        EXPECT_NEAR(points.values[(k * c.n[1] + j) * c.n[0] + i], linear((i + 0.5) * h[0], (j + 0.5) * h[1], (k + 0.5) * h[2]), 1e-10);
  EXPECT_EQ(points.source(3), "cell (3, 0, 0) (the mean of its 8 points)");
}

TEST_F(RmcTemperatureFile, RunFromTheFileGivesTheAnalyticRunsQR) {
  // Same cells, walls, tables and seed: the same rays, so the same Q^R (bitwise where the box is
  // bitwise the same; 1e-12 of the peak where the cell size is rebuilt from printed centres).
  const auto analytic = test::run(kParab1);
  const RmcConfig c = parab1_config();
  const std::vector<double> T = cell_temperatures(c);
  const double h[3] = {c.spacing(0), c.spacing(1), c.spacing(2)}, o[3] = {0.0, 0.0, 0.0};
  const std::vector<double> q = analytic->mean();
  const double peak = std::fabs(*std::max_element(q.begin(), q.end(), [](double a, double b) { return std::fabs(a) < std::fabs(b); }));
  ASSERT_GT(peak, 0.0);
  for (const std::string& file :
       {write("xyz.csv", csv(c, T, false)), write("ijk.csv", csv(c, T, true)), write("cells.vti", vti(c.n, h, o, T, false))}) {
    SCOPED_TRACE(file);
    const auto m = test::run(from_file(file));
    ASSERT_EQ(m->problem().config.cells(), c.cells());
    EXPECT_EQ(m->problem().config.n[0], 8);
    EXPECT_TRUE(m->problem().config.one_dimensional());
    const std::vector<double> qf = m->mean();
    for (std::size_t i = 0; i < q.size(); ++i) EXPECT_NEAR(qf[i], q[i], 1e-12 * peak) << "cell " << i;
    // The slab reference on the file's cells exists (the field is the same across y and z).
    EXPECT_EQ(m->reference().size(), std::size_t(c.n[0]));
  }
  EXPECT_EQ(test::run(from_file(write("ijk2.csv", csv(c, T, true))))->mean(), q);  // bitwise
}

TEST_F(RmcTemperatureFile, FieldsWrittenByKineticRunReadBack) {
  // kinetic-run --out DIR --format csv|vti|vti-ascii writes T.csv (x,y,z,T) and fields.vti (every field
  // as cell data; binary appended, zlib-compressed where the build has zlib, or ASCII).
  const auto analytic = test::run(kParab1);
  const Snapshot snap = analytic->snapshot();
  ASSERT_EQ(snap.fields[0].desc.name, "T");
  const std::string csv_path = (dir_ / "T.csv").string();
  write_field_csv(snap.fields[0], csv_path);
  const std::vector<Dataset> sets = datasets_of(snap.fields);
  ASSERT_EQ(sets.size(), 1u);
  ASSERT_GT(sets[0].fields.size(), 1u);
  const std::string binary = write_dataset_vtk(sets[0], (dir_ / "binary").string(), VtkEncoding::Binary);
  const std::string ascii = write_dataset_vtk(sets[0], (dir_ / "ascii").string(), VtkEncoding::Ascii);
  for (const std::string& path : {csv_path, binary, ascii}) {
    const TemperatureField f = load_temperature_file(path);
    EXPECT_EQ(f.values, snap.fields[0].values) << path;
    EXPECT_EQ(f.n[0], 8) << path;
  }
}

TEST_F(RmcTemperatureFile, ABoxFromAFileKeepsItsSizeOriginAndWalls) {
  // A 3D field of non-cubic cells: the file sets the box (0.6 x 0.2 x 0.1 m), six walls at wall_temperature.
  std::ostringstream os;
  os << "# a comment line, then a header with an extra column\nx, y, z, u, T\n";
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i)
        os << 1.1 + (i + 0.5) * 0.2 << ',' << (j + 0.5) * 0.1 << ',' << (k + 0.5) * 0.05 << ",0," << 900 + 100 * i << '\n';
  auto p = kParab1;
  p["profile"] = "file";
  p["temperature_file"] = write("box.csv", os.str());
  p["wall_temperature"] = "300";
  p["rays_per_cell"] = "20";
  const auto m = test::run(p);
  const RmcConfig& c = m->problem().config;
  EXPECT_EQ(c.n[0], 3);
  EXPECT_NEAR(c.L[0], 0.6, 1e-12);
  EXPECT_NEAR(c.L[1], 0.2, 1e-12);
  EXPECT_NEAR(c.L[2], 0.1, 1e-12);
  EXPECT_FALSE(c.periodic[1] || c.periodic[2]);
  for (const Wall& w : c.walls) EXPECT_EQ(w.T, 300.0);
  const Snapshot snap = m->snapshot();
  EXPECT_NEAR(snap.fields[0].grid.origin[0], 1.1, 1e-12);
  EXPECT_EQ(snap.fields[0].values[2], 1100.0);
  EXPECT_TRUE(m->reference().empty());  // no reference for a file's box
}

TEST_F(RmcTemperatureFile, MissingColumnNamesTheFileAndTheAllowedHeaders) {
  const std::string path = write("no-z.csv", "x,y,T\n0.5,0.5,1000\n");
  const std::string msg = error_message([&] { load_temperature_file(path); });
  EXPECT_HAS(msg, path + ": line 1");
  EXPECT_HAS(msg, "has no column 'z'");
  EXPECT_HAS(msg, "x,y,z,T");
  EXPECT_HAS(msg, "i,j,k,T");
  const std::string no_t = error_message([&] { load_temperature_file(write("no-T.csv", "i,j,k,temp\n0,0,0,1\n")); });
  EXPECT_HAS(no_t, "has no column 'T'");
}

TEST_F(RmcTemperatureFile, NanNegativeAndTextTemperaturesNameTheLineAndTheValue) {
  const std::string nan = write("nan.csv", "i,j,k,T\n0,0,0,1000\n1,0,0,nan\n");
  std::string msg = error_message([&] { load_temperature_file(nan); });
  EXPECT_HAS(msg, nan + ": line 3");
  EXPECT_HAS(msg, "T = nan K is not a temperature");
  EXPECT_HAS(msg, "finite temperature T > 0 K");
  const std::string neg = write("negative.csv", "i,j,k,T\n0,0,0,1000\n\n1,0,0,-20\n");
  msg = error_message([&] { load_temperature_file(neg); });
  EXPECT_HAS(msg, neg + ": line 4");
  EXPECT_HAS(msg, "T = -20 K");
  msg = error_message([&] { load_temperature_file(write("text.csv", "x,y,z,T\n0.5,abc,0.5,1000\n")); });
  EXPECT_HAS(msg, "line 2: 'abc' in column 'y' is not a number");
  msg = error_message([&] { load_temperature_file(write("short.csv", "i,j,k,T\n0,0,0\n")); });
  EXPECT_HAS(msg, "line 2: has 3 values, the header has 4");
  const double h[3] = {0.5, 1, 1}, o[3] = {0, 0, 0};
  const int n[3] = {2, 1, 1};
  const std::string v = write("negative.vti", vti(n, h, o, {800.0, -1.0}, false));
  msg = error_message([&] { load_temperature_file(v); });
  EXPECT_HAS(msg, v + ": line 7");
  EXPECT_HAS(msg, "T = -1 K is not a temperature");
}

TEST_F(RmcTemperatureFile, RaggedAndRepeatedGridsAreRefused) {
  const RmcConfig c = parab1_config();
  std::string rows = csv(c, cell_temperatures(c), false);
  rows.erase(rows.rfind('\n', rows.size() - 2) + 1);  // drop the last row
  const std::string path = write("ragged.csv", rows);
  std::string msg = error_message([&] { load_temperature_file(path); });
  EXPECT_HAS(msg, path + ": the grid is ragged: 127 rows for 8 x 4 x 4 = 128 cells");
  EXPECT_HAS(msg, "has no row");
  EXPECT_HAS(msg, "one row per cell of a full nx x ny x nz grid");
  msg = error_message([&] { load_temperature_file(write("twice.csv", "i,j,k,T\n0,0,0,900\n1,0,0,900\n0,0,0,950\n")); });
  EXPECT_HAS(msg, "line 4");
  EXPECT_HAS(msg, "gives cell (0, 0, 0) again (line 2 gave it first)");
  msg = error_message([&] { load_temperature_file(write("uneven.csv", "x,y,z,T\n0.1,0.5,0.5,900\n0.2,0.5,0.5,900\n0.4,0.5,0.5,900\n")); });
  EXPECT_HAS(msg, "column x");
  EXPECT_HAS(msg, "not uniformly spaced");
}

// A 2 x 1 x 1 .vti whose T is appended raw data: `file_attrs` on <VTKFile>, `array_attrs` on the
// DataArray, `bytes` after the '_'.
std::string appended_vti(const std::string& file_attrs, const std::string& array_attrs, const std::string& bytes,
                         const std::string& encoding = "raw") {
  return "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\"" + file_attrs +
         ">\n  <ImageData WholeExtent=\"0 2 0 1 0 1\" Origin=\"0 0 0\" Spacing=\"0.5 1 1\">\n    <Piece Extent=\"0 2 0 1 0 1\">\n"
         "      <CellData Scalars=\"T\">\n        <DataArray type=\"Float64\" Name=\"T\"" +
         array_attrs + "/>\n      </CellData>\n    </Piece>\n  </ImageData>\n  <AppendedData encoding=\"" + encoding + "\">\n   _" + bytes +
         "\n  </AppendedData>\n</VTKFile>\n";
}

// The bytes of `v` in the other byte order (big-endian on this little-endian host).
template <class T>
std::string big_endian(T v) {
  std::string b(reinterpret_cast<const char*>(&v), sizeof v);
  return std::string(b.rbegin(), b.rend());
}

TEST_F(RmcTemperatureFile, AppendedBinaryVtiIsReadInEitherByteOrderAndCheckedWhereItFails) {
  // Uncompressed, a UInt32 byte count, big-endian: 800 K and 900 K.
  const std::string big = " byte_order=\"BigEndian\" header_type=\"UInt32\"";
  const std::string values = big_endian(std::uint32_t(16)) + big_endian(800.0) + big_endian(900.0);
  const TemperatureField f = load_temperature_file(write("big.vti", appended_vti(big, " format=\"appended\" offset=\"0\"", values)));
  EXPECT_EQ(f.values, (std::vector<double>{800.0, 900.0}));
  EXPECT_EQ(f.source(1), "cell (1, 0, 0)");

  std::string msg = error_message([&] {
    load_temperature_file(
        write("one.vti", appended_vti(big, " format=\"appended\" offset=\"0\"", big_endian(std::uint32_t(8)) + big_endian(800.0))));
  });
  EXPECT_HAS(msg, "line 6 DataArray 'T'");
  EXPECT_HAS(msg, "holds 8 bytes for 16 expected");
  const std::string whole = appended_vti(big, " format=\"appended\" offset=\"0\"", values);
  msg = error_message([&] { load_temperature_file(write("cut.vti", whole.substr(0, whole.find(">\n   _") + 14))); });  // a file cut short
  EXPECT_HAS(msg, "the appended data ends inside the array's values");
  msg = error_message([&] { load_temperature_file(write("far.vti", appended_vti(big, " format=\"appended\" offset=\"99\"", values))); });
  EXPECT_HAS(msg, "ends inside the array's byte count");
  msg = error_message([&] { load_temperature_file(write("nooffset.vti", appended_vti(big, " format=\"appended\"", values))); });
  EXPECT_HAS(msg, "has no offset=\"N\"");
  msg = error_message(
      [&] { load_temperature_file(write("b64.vti", appended_vti(big, " format=\"appended\" offset=\"0\"", "AAAA", "base64"))); });
  EXPECT_HAS(msg, "base64-encoded, which is not read without VTK");
  EXPECT_HAS(msg, "Encode Appended Data off");
  msg = error_message([&] {
    load_temperature_file(write("order.vti", appended_vti(" byte_order=\"Middle\"", " format=\"appended\" offset=\"0\"", values)));
  });
  EXPECT_HAS(msg, "has byte_order=\"Middle\"; allowed: LittleEndian or BigEndian");
  // A compression header whose blocks do not make the array's 16 bytes (1 block of 0 bytes).
  const std::string zlib = " header_type=\"UInt32\" compressor=\"vtkZLibDataCompressor\"";
  std::string header;
  for (std::uint32_t v : {1u, 0u, 0u, 4u}) header.append(reinterpret_cast<const char*>(&v), 4);
  msg = error_message(
      [&] { load_temperature_file(write("zlib.vti", appended_vti(zlib, " format=\"appended\" offset=\"0\"", header + "xxxx"))); });
  EXPECT_HAS(msg, vtk_zlib_available() ? "its compression header gives 1 blocks of 0 bytes" : "this build has no zlib");

  // Inline base64 data, .vtr and .vtu need VTK's readers (the app installs them; this test program has
  // none); the message says how to convert.
  msg = error_message([&] { load_temperature_file(write("grid.vtr", "<VTKFile/>")); });
  EXPECT_HAS(msg, "grid.vtr: is a VTK file this program cannot read (it was built without VTK; the app reads it)");
  EXPECT_HAS(msg, "Resample To Image");
  const double h[3] = {0.5, 1, 1}, o[3] = {0, 0, 0};
  const int n[3] = {2, 1, 1};
  msg = error_message([&] { load_temperature_file(write("binary.vti", vti(n, h, o, {800.0, 900.0}, false, "binary"))); });
  EXPECT_HAS(msg, "inline binary (base64) data is not read without VTK");
  EXPECT_HAS(msg, "Data Mode Appended with Encode Appended Data off, or Ascii");
  msg = error_message([&] { load_temperature_file(write("short.vti", vti(n, h, o, {800.0}, false))); });
  EXPECT_HAS(msg, "holds 1 values for 2 cells");
}

TEST_F(RmcTemperatureFile, ProfileFileNeedsAFileThatExistsAndFitsTheTables) {
  auto p = from_file("");
  std::string msg = error_message([&] { test::run(p); });
  EXPECT_HAS(msg, "temperature_file: profile 'file' needs a temperature file");
  const std::string missing = (dir_ / "missing.csv").string();
  msg = error_message([&] { test::run(from_file(missing)); });
  EXPECT_HAS(msg, missing + ": cannot open the temperature file");
  msg = error_message([&] { test::run(from_file((dir_ / "field.txt").string())); });
  EXPECT_HAS(msg, "a file path ending in .csv, .vti, .pvti, .vtr or .vtu");
  // The H2O tables cover 200-3000 K; a grey gas takes any positive temperature.
  const std::string cold = write("cold.csv", "i,j,k,T\n0,0,0,1000\n1,0,0,150\n");
  p = from_file(cold);
  p["gas"] = "H2O";
  msg = error_message([&] { test::run(p); });
  EXPECT_HAS(msg, cold + ": line 3 (cell (1, 0, 0))");
  EXPECT_HAS(msg, "T = 150 K is outside the H2O narrow-band tables");
  EXPECT_HAS(msg, "T in [200, 3000] K");
  p["gas"] = "grey";
  p["rays_per_cell"] = "10";
  EXPECT_NO_THROW(test::run(p));
}

TEST(RmcTemperatureFilePreset, HotSpotPresetReadsItsFileFromThePresetFolderAndTheHotSpotCools) {
  // presets/radiation/temperature-from-file.json names data/hot-spot-16.csv relative to itself.
  const Preset p = load_preset(std::string(KS_SOURCE_DIR) + "/presets/radiation/temperature-from-file.json", builtin_registry());
  RmcMethod m;
  m.setup(p.params, test_support::cpu_context());
  m.advance();
  const RmcConfig& c = m.problem().config;
  EXPECT_EQ(c.cells(), 16 * 16 * 16);
  EXPECT_NEAR(c.L[0], 0.16, 1e-12);
  const Snapshot snap = m.snapshot();
  const std::vector<double>& T = snap.fields[0].values;
  const std::vector<double> q = m.mean();
  const std::size_t hottest = std::max_element(T.begin(), T.end()) - T.begin();
  EXPECT_GT(T[hottest], 1700.0);
  EXPECT_GT(q[hottest], 0.0);                             // the hot pocket emits more than it absorbs
  EXPECT_LT(*std::min_element(q.begin(), q.end()), 0.0);  // and the cool gas around it absorbs
}

// Hardening: crafted files are refused as bad input naming the file, fast, without reading past the text.

TEST_F(RmcTemperatureFile, GridsWhoseCellsOverflowAreRefusedNamingTheFileAndTheExtents) {
  // 2^32 + 1 cells per axis: the product wraps 64 bits; 65536 x 65536 x 2 = 2^33 wraps 32 bits, and each
  // such axis is beyond the 1024 cells of nx, ny, nz.
  std::string msg = refusal(write("overflow-64.csv", "i,j,k,T\n0,0,0,1000\n4294967296,4294967296,4294967296,1000\n"));
  EXPECT_HAS(msg, "the grid 4294967297 x 4294967297 x 4294967297 cells (the largest i, j, k + 1)");
  EXPECT_HAS(msg, "does not fit in a 64-bit size");
  msg = refusal(write("overflow-32.csv", "i,j,k,T\n0,0,0,1000\n65535,65535,1,1000\n"));
  EXPECT_HAS(msg, "the grid 65536 x 65536 x 2 cells (the largest i, j, k + 1) has 65536 cells along x");
  EXPECT_HAS(msg, "1 to 1024 cells per axis (the range of nx, ny, nz)");
  const std::string v64 = write("overflow-64.vti", vti_extent("0 4294967296 0 4294967296 0 4294967296", "1000"));
  msg = refusal(v64);
  EXPECT_HAS(msg, v64 + ": line 3 <ImageData>");
  EXPECT_HAS(msg, "4294967296 x 4294967296 x 4294967296 cells (WholeExtent=\"0 4294967296 0 4294967296 0 4294967296\")");
  EXPECT_HAS(msg, "does not fit in a 64-bit size");
  // The memory estimate reads the header only, and refuses the same grid.
  EXPECT_HAS(error_message([&] { estimate_temperature_file(v64); }), "does not fit in a 64-bit size");
  msg = refusal(write("overflow-32.vti", vti_extent("0 65536 0 65536 0 2", "1000")));
  EXPECT_HAS(msg, "65536 x 65536 x 2 cells (WholeExtent=\"0 65536 0 65536 0 2\") has 65536 cells along x");
  msg = refusal(write("extent-not-integer.vti", vti_extent("0 2.5 0 1 0 1", "1000 1000")));
  EXPECT_HAS(msg, "holds 2.5, not a point index");
}

TEST_F(RmcTemperatureFile, FewRowsWithLargeIndicesAreRaggedWithoutAGridOfEveryCell) {
  // Two rows span 1024^3 cells: the reader reports the ragged grid from the rows alone. A grid of every
  // cell (8 + 4 B each, 12.9 GB) would take many seconds to fill; the rows take microseconds.
  const auto t0 = std::chrono::steady_clock::now();
  std::string msg = refusal(write("sparse.csv", "i,j,k,T\n0,0,0,900\n1023,1023,1023,900\n"));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
  EXPECT_HAS(msg, "the grid is ragged: 2 rows for 1024 x 1024 x 1024 = 1073741824 cells");
  EXPECT_HAS(msg, "cell (1, 0, 0) has no row");
  // A repeated cell among too few rows: the line that repeats it first.
  msg = refusal(write("sparse-twice.csv", "i,j,k,T\n0,0,0,900\n4,0,0,900\n0,0,0,950\n0,0,0,960\n"));
  EXPECT_HAS(msg, "line 4: gives cell (0, 0, 0) again (line 2 gave it first)");
}

TEST_F(RmcTemperatureFile, VtiCutAnywhereIsRefusedWithTheFileAndTheLine) {
  const double h[3] = {0.25, 0.5, 1.0}, o[3] = {0, 0, 0};
  const int n[3] = {4, 2, 1};
  const std::string full = vti(n, h, o, {800, 810, 820, 830, 840, 850, 860, 870}, false);
  ASSERT_EQ(parse_grid_vti(full, "cut.vti", temperature_file_spec()).values.size(), 8u);
  // Every cut before the end of </VTKFile> (each read is bounds-checked: AddressSanitizer builds check it too).
  const std::size_t complete = full.find("</VTKFile>") + std::string("</VTKFile>").size();
  for (std::size_t len = 0; len < complete; ++len) {
    const std::string msg = error_message([&] { parse_grid_vti(full.substr(0, len), "cut.vti", temperature_file_spec()); });
    EXPECT_EQ(msg.rfind("cut.vti", 0), 0u) << "cut at " << len << ": " << msg;
  }
  // Inside a tag, inside an attribute's value, inside the values: the line and what was expected there.
  std::string cut = write("cut-in-tag.vti", full.substr(0, full.find("format=\"ascii\"") + 14));
  std::string msg = refusal(cut);
  EXPECT_HAS(msg, cut + ": line 6: the file ends inside the tag <DataArray>; allowed: '>' closing the tag");
  cut = write("cut-in-value.vti", full.substr(0, full.find("WholeExtent=\"0 4") + 16));
  msg = refusal(cut);
  EXPECT_HAS(msg, cut + ": line 3: the file ends inside the value of WholeExtent in <ImageData>");
  cut = write("cut-in-data.vti", full.substr(0, full.find("820") + 3));
  msg = refusal(cut);
  EXPECT_HAS(msg, cut + ": line 7: the file ends inside the values of DataArray 'T' (its tag is on line 6)");
  EXPECT_HAS(msg, "allowed: the values, then </DataArray>");
  cut = write("cut-after-data.vti", full.substr(0, full.find("</CellData>")));
  EXPECT_HAS(refusal(cut), "the file ends before </VTKFile>");
}

TEST_F(RmcTemperatureFile, RepeatedColumnIsRefusedNamingIt) {
  std::string msg = refusal(write("repeated-T.csv", "i,j,k,T,T\n0,0,0,900,950\n1,0,0,900,950\n"));
  EXPECT_HAS(msg, "line 1: the header 'i,j,k,T,T' repeats the column 'T' (columns 4 and 5)");
  msg = refusal(write("repeated-i.csv", "i,i,j,k,T\n0,1,0,0,900\n"));
  EXPECT_HAS(msg, "repeats the column 'i' (columns 1 and 2)");
  msg = refusal(write("repeated-case.csv", "x,y,z,t,T\n0.5,0.5,0.5,900,950\n"));  // columns are matched in any case
  EXPECT_HAS(msg, "repeats the column 'T' (columns 4 and 5)");
}

TEST_F(RmcTemperatureFile, GeometryAndTemperaturesOutsideTheParameterRangesAreRefused) {
  const int n[3] = {2, 1, 1};
  const double o[3] = {0, 0, 0};
  auto spaced = [&](const std::string& name, double hx, const double origin[3]) {
    const double h[3] = {hx, 0.5, 0.5};
    return write(name, vti(n, h, origin, {800.0, 900.0}, false));
  };
  // The box along each axis within the range of length, [1e-3, 100] m.
  std::string msg = refusal(spaced("tiny-spacing.vti", 1e-300, o));
  EXPECT_HAS(msg, "line 3 <ImageData>: the box along x is 2 x 1e-300 = 2e-300 m long");
  EXPECT_HAS(msg, "[0.001, 100] m along each axis it resolves (the range of length)");
  EXPECT_HAS(refusal(spaced("huge-spacing.vti", 1e300, o)), "the box along x is 2 x 1e+300 = 2e+300 m long");
  EXPECT_HAS(refusal(spaced("zero-spacing.vti", 0.0, o)), "Spacing along x is 0");
  const double far[3] = {1e300, 0, 0};
  msg = refusal(spaced("far-origin.vti", 0.5, far));
  EXPECT_HAS(msg, "the box along x spans 1e+300 to 1e+300 m");
  EXPECT_HAS(msg, "a box within -100 to 100 m");
  std::string nan = vti(n, o, o, {800.0, 900.0}, false);
  nan.replace(nan.find("Spacing=\"0 0 0\""), 15, "Spacing=\"nan 1 1\"");
  EXPECT_HAS(refusal(write("nan-spacing.vti", nan)), "Spacing=\"nan 1 1\" holds 'nan'");
  // A .csv's centres: each within +-100 m, and the cells they space out within the range of length.
  msg = refusal(write("far.csv", "x,y,z,T\n0.5,0.5,0.5,900\n1e300,0.5,0.5,900\n"));
  EXPECT_HAS(msg, "line 3: x = 1e+300 m is outside the box the method allows");
  msg = refusal(write("tiny.csv", "x,y,z,T\n0,0.5,0.5,900\n1e-9,0.5,0.5,900\n"));
  EXPECT_HAS(msg, "the box along x is 2 x 1e-09 = 2e-09 m long");
  // Temperatures: finite, > 0 and at most the 5000 K of the temperature parameter (sigma T^4 stays finite).
  msg = refusal(write("hot.csv", "i,j,k,T\n0,0,0,900\n1,0,0,6000\n"));
  EXPECT_HAS(msg, "line 3: T = 6000 K is above 5000 K");
  EXPECT_HAS(refusal(write("huge-T.csv", "i,j,k,T\n0,0,0,900\n1,0,0,1e300\n")), "T = 1e+300 K is above 5000 K");
  const double h[3] = {0.5, 0.5, 0.5};
  EXPECT_HAS(refusal(write("inf-T.vti", vti(n, h, o, {800.0, INFINITY}, false))), "T = inf K is not a temperature");
}

TEST_F(RmcTemperatureFile, FifoAndDevicesAreRefusedWithoutWaitingOrReading) {
  // A FIFO with no writer: a plain open would wait for one forever.
  const std::string fifo = (dir_ / "pipe.csv").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto read = std::async(std::launch::async, [&] { return error_message([&] { load_temperature_file(fifo); }); });
  if (read.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    ADD_FAILURE() << "the reader waits on the FIFO";
    ::close(::open(fifo.c_str(), O_WRONLY | O_NONBLOCK));  // a writer that closes at once ends the wait
  }
  std::string msg = read.get();
  EXPECT_HAS(msg, fifo + ": the temperature file is a FIFO (named pipe)");
  EXPECT_HAS(error_message([&] { estimate_temperature_file(fifo); }), "FIFO");
  // /dev/zero behind a temperature file's name: a device, refused before reading (which would not end).
  const std::string zero = (dir_ / "zero.vti").string();
  fs::create_symlink("/dev/zero", zero);
  msg = refusal(zero);
  EXPECT_HAS(msg, "the temperature file is a character device");
  EXPECT_HAS(error_message([&] { load_temperature_file("/dev/zero"); }), "/dev/zero: is not a .csv or .vti file");
}

TEST_F(RmcTemperatureFile, MemoryEstimateReadsTheVtiHeaderAndCountsTheCsvRows) {
  // A .vti header of 64^3 cells and no data: the estimate has the grid, the reader refuses the file.
  const int n[3] = {64, 64, 64};
  const double h[3] = {0.01, 0.01, 0.01}, o[3] = {0, 0, 0};
  const std::string full = vti(n, h, o, {}, false);
  const std::string header = write("header-only.vti", full.substr(0, full.find("<DataArray")));
  const TemperatureFileEstimate e = estimate_temperature_file(header);
  EXPECT_EQ(e.cells, 64 * 64 * 64);
  EXPECT_EQ(e.n[2], 64);
  // At least the values of every point and the field (8 + 4 B each).
  EXPECT_GE(e.read_bytes, 65ull * 65 * 65 * 12 + 64ull * 64 * 64 * 12);
  EXPECT_HAS(refusal(header), "the file ends before </VTKFile>");
  RmcMethod m;
  const MemoryEstimate est = m.estimate_memory(test_support::method_params<RmcMethod>(from_file(header)), test_support::cpu_context());
  EXPECT_GE(est.host_bytes, 64ull * 64 * 64 * 88);  // 11 doubles per cell (see estimate_memory)
  EXPECT_HAS(est.detail, "64 x 64 x 64 cells (its WholeExtent)");
  // A .csv within the first MiB: its rows are counted.
  const RmcConfig c = parab1_config();
  const TemperatureFileEstimate rows = estimate_temperature_file(write("rows.csv", csv(c, cell_temperatures(c), true)));
  EXPECT_EQ(rows.cells, c.cells());
}

}  // namespace
}  // namespace ks::rmc
