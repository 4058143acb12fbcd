// radiation.rmc with profile `file`: a temperature field read from .csv (x,y,z,T or i,j,k,T) and
// ASCII .vti (cell or point data) equals the analytic field it was written from, a run from it gives
// the analytic run's Q^R, and bad files are refused with the file, the line and what is allowed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
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
const std::map<std::string, std::string> kParab1 = {{"profile", "parab1"}, {"kappa", "1"},        {"nx", "8"},
                                                    {"ny", "4"},           {"nz", "4"},           {"rays_per_cell", "200"},
                                                    {"rays_per_batch", "100"}};

RmcConfig parab1_config() { return make_config(test_support::method_params<RmcMethod>(kParab1)); }

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
    dir_ = fs::temp_directory_path() / ("ks_rmc_tfile_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
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
       << "  <ImageData WholeExtent=\"0 " << n[0] << " 0 " << n[1] << " 0 " << n[2] << "\" Origin=\"" << o[0] << ' ' << o[1]
       << ' ' << o[2] << "\" Spacing=\"" << h[0] << ' ' << h[1] << ' ' << h[2] << "\">\n"
       << "    <Piece Extent=\"0 " << n[0] << " 0 " << n[1] << " 0 " << n[2] << "\">\n"
       << (points ? "      <PointData Scalars=\"T\">\n" : "      <CellData Scalars=\"T\">\n")
       << "        <DataArray type=\"Float64\" Name=\"T\" format=\"" << format << "\">\n";
    for (std::size_t i = 0; i < values.size(); ++i) os << values[i] << ((i + 1) % 6 ? ' ' : '\n');
    os << "\n        </DataArray>\n" << (points ? "      </PointData>\n" : "      </CellData>\n")
       << "    </Piece>\n  </ImageData>\n</VTKFile>\n";
    return os.str();
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
  ASSERT_EQ(exact.T.size(), T.size());
  for (std::size_t i = 0; i < T.size(); ++i) {
    EXPECT_EQ(exact.T[i], T[i]) << i;
    EXPECT_NEAR(eight.T[i], T[i], 5e-8 * T[i]) << i;
  }
}

TEST_F(RmcTemperatureFile, CsvOfCellIndicesReproducesTheAnalyticFieldWithoutACellSize) {
  const RmcConfig c = parab1_config();
  const std::vector<double> T = cell_temperatures(c);
  const TemperatureField f = load_temperature_file(write("parab1-ijk.csv", csv(c, T, true)));
  EXPECT_FALSE(f.has_size());  // the box is then `length` along every axis
  EXPECT_EQ(f.T, T);
}

TEST_F(RmcTemperatureFile, VtiCellDataIsTheFieldAndPointDataIsAveragedToCellCentres) {
  const RmcConfig c = parab1_config();
  const std::vector<double> T = cell_temperatures(c);
  const double h[3] = {c.spacing(0), c.spacing(1), c.spacing(2)}, o[3] = {-0.5, 0.0, 2.0};
  const TemperatureField cells = load_temperature_file(write("parab1.vti", vti(c.n, h, o, T, false)));
  EXPECT_EQ(cells.T, T);
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
  ASSERT_EQ(points.T.size(), T.size());
  for (int k = 0; k < c.n[2]; ++k)
    for (int j = 0; j < c.n[1]; ++j)
      for (int i = 0; i < c.n[0]; ++i)
        EXPECT_NEAR(points.T[(k * c.n[1] + j) * c.n[0] + i], linear((i + 0.5) * h[0], (j + 0.5) * h[1], (k + 0.5) * h[2]), 1e-10);
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
  for (const std::string& file : {write("xyz.csv", csv(c, T, false)), write("ijk.csv", csv(c, T, true)),
                                  write("cells.vti", vti(c.n, h, o, T, false))}) {
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
  // kinetic-run --out DIR --format csv|vti writes T.csv (x,y,z,T) and T.vti (ASCII cell data).
  const auto analytic = test::run(kParab1);
  const Snapshot snap = analytic->snapshot();
  ASSERT_EQ(snap.fields[0].desc.name, "T");
  const std::string csv_path = (dir_ / "T.csv").string();
  write_field_csv(snap.fields[0], csv_path);
  const std::string vti_path = write_field_vtk(snap.fields[0], (dir_ / "T").string());
  for (const std::string& path : {csv_path, vti_path}) {
    const TemperatureField f = load_temperature_file(path);
    EXPECT_EQ(f.T, snap.fields[0].values) << path;
    EXPECT_EQ(f.n[0], 8) << path;
  }
}

TEST_F(RmcTemperatureFile, ABoxFromAFileKeepsItsSizeOriginAndWalls) {
  // A 3D field of non-cubic cells: the file sets the box (0.6 x 0.2 x 0.1 m), six walls at wall_temperature.
  std::ostringstream os;
  os << "# a comment line, then a header with an extra column\nx, y, z, u, T\n";
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) os << 1.1 + (i + 0.5) * 0.2 << ',' << (j + 0.5) * 0.1 << ',' << (k + 0.5) * 0.05 << ",0," << 900 + 100 * i << '\n';
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
  msg = error_message(
      [&] { load_temperature_file(write("uneven.csv", "x,y,z,T\n0.1,0.5,0.5,900\n0.2,0.5,0.5,900\n0.4,0.5,0.5,900\n")); });
  EXPECT_HAS(msg, "column x");
  EXPECT_HAS(msg, "not uniformly spaced");
}

TEST_F(RmcTemperatureFile, BinaryAndAppendedVtiAreRefusedWithHowToConvert) {
  const double h[3] = {0.5, 1, 1}, o[3] = {0, 0, 0};
  const int n[3] = {2, 1, 1};
  const std::string bin = write("binary.vti", vti(n, h, o, {800.0, 900.0}, false, "binary"));
  std::string msg = error_message([&] { load_temperature_file(bin); });
  EXPECT_HAS(msg, bin);
  EXPECT_HAS(msg, "binary and appended .vti files are not supported");
  EXPECT_HAS(msg, "Data Mode: Ascii");
  std::string appended = vti(n, h, o, {}, false, "appended");
  appended.insert(appended.find("</VTKFile>"), "  <AppendedData encoding=\"raw\">_\x01\x02<</DataArray></AppendedData>\n");
  msg = error_message([&] { load_temperature_file(write("appended.vti", appended)); });
  EXPECT_HAS(msg, "format=\"appended\" (the file has AppendedData)");
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
  EXPECT_HAS(msg, "a file path ending in .csv or .vti");
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
  EXPECT_GT(q[hottest], 0.0);  // the hot pocket emits more than it absorbs
  EXPECT_LT(*std::min_element(q.begin(), q.end()), 0.0);  // and the cool gas around it absorbs
}

}  // namespace
}  // namespace ks::rmc
