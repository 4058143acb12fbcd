// Supersonic flow past a cube (section 4.2) on a small grid: the free stream is compressed and heated
// ahead of the body and rarefied behind it.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/errors.hpp"
#include "dvm_test_support.hpp"
#include "expect_error.hpp"
#include "methods/dvm/dvm_fields.hpp"

namespace ks::dvm {
namespace {

using testing::cpu_context;
using testing::params;
using testing::run;
using testing::small_cube;

TEST(DvmCube, GasIsCompressedAndHeatedAheadOfTheCubeAndRarefiedInItsWake) {
  DvmMethod m;
  run(m, small_cube(), cpu_context(), 15);
  const DvmConfig& c = m.config();
  const CellFields f = cell_fields(m.raw_moments(), m.geometry().solid);
  // Value in the cell containing (x, y, 0), y = 0.1 to stay off the cell faces at y = 0.
  auto at = [&](const std::vector<double>& v, double x) {
    const double p[3] = {x, 0.1, 0.1};
    int ijk[3];
    for (int a = 0; a < 3; ++a) {
      const auto& faces = c.axis[a].faces;
      ijk[a] = int(std::upper_bound(faces.begin(), faces.end(), p[a]) - faces.begin()) - 1;
    }
    return v[((long long)ijk[2] * c.n(1) + ijk[1]) * c.n(0) + ijk[0]];
  };
  const double front = -0.51, back = 0.51;  // the cells touching the faces normal to the stream
  // A Mach 2 stream stopped at a diffuse wall: strongly compressed and heated (the stagnation
  // temperature is 1 + (gamma - 1) / 2 Ma^2 = 2.33 in the continuum limit).
  EXPECT_GT(at(f.n, front), 1.5);
  EXPECT_GT(at(f.T, front), 1.3);
  EXPECT_LT(at(f.n, back), 0.5);
  // Far upstream the free stream is untouched.
  EXPECT_NEAR(at(f.n, -4.9), 1.0, 0.05);
  EXPECT_EQ(m.geometry().solid.size(), std::size_t(c.cells()));
  long long solid = 0;
  for (unsigned char s : m.geometry().solid) solid += s;
  EXPECT_EQ(solid, 4 * 4 * 4);
}

// Files get the stretched grid at the solver's own cells (a rectilinear grid whose faces are the
// axes'), the app's views a uniform resampling with the same cell counts.
TEST(DvmCube, FieldsForFilesKeepTheStretchedCellsAndForViewsAreResampled) {
  DvmMethod m;
  run(m, small_cube(), cpu_context(), 2);
  const DvmConfig& c = m.config();
  ASSERT_FALSE(uniform_grid(c));
  const CellFields f = cell_fields(m.raw_moments(), m.geometry().solid);
  const std::optional<Snapshot> files = m.file_snapshot();
  ASSERT_TRUE(files.has_value());
  for (bool native : {true, false}) {
    const Snapshot snap = native ? *files : m.snapshot();
    const FieldData& T = snap.fields.at(2);
    ASSERT_EQ(T.desc.name, "T");
    EXPECT_EQ(T.grid.rectilinear(), native);
    for (int a = 0; a < 3; ++a) {
      EXPECT_EQ(T.grid.cells[a], c.n(a));
      if (native) {
        EXPECT_EQ(T.grid.faces[a], c.axis[a].faces) << "axis " << a;
      }
    }
    if (native) EXPECT_EQ(T.values, f.T);
    else EXPECT_NE(T.values, f.T);  // interpolated between the stretched cells' centres
  }
  // A uniform grid has no snapshot of its own for files: the views' is exact.
  DvmMethod cavity;
  run(cavity, {{"case", "cavity"}, {"nx", "6"}, {"ny", "6"}, {"nz", "6"}, {"nv", "8"}}, cpu_context(), 1);
  EXPECT_FALSE(cavity.file_snapshot().has_value());
}

TEST(DvmCube, MachBeyondTheVelocityBoxIsRefusedWithTheLimit) {
  DvmMethod m;
  auto p = small_cube();
  p["mach"] = "3";
  test_support::expect_error([&] { m.setup(params(p), cpu_context()); }, ErrorKind::BadInput, {"mach", "Ma <="});
}

}  // namespace
}  // namespace ks::dvm
