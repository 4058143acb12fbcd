// Where the binaries find presets and resources (core/data_dir.hpp). The installed case is run by
// scripts/install-check.sh (ctest InstallToAPrefixAndRunFromThere).
#include "core/data_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "expect_error.hpp"
#include "scoped_env.hpp"

namespace ks {
namespace {

namespace fs = std::filesystem;

TEST(DataDir, ATestInTheBuildTreeReadsTheSourceTree) {
  const DataDir d = data_dir();
  EXPECT_EQ(d.found_by, "build tree");
  EXPECT_EQ(fs::weakly_canonical(d.path), fs::weakly_canonical(KS_SOURCE_DIR));
  EXPECT_TRUE(fs::exists(preset_dir() / "coagulation" / "teaching-demo.json"));
  EXPECT_TRUE(fs::exists(resource_dir() / "radiation" / "nbck_h2o.json"));
}

TEST(DataDir, TheVariableOverridesAndAMissingFolderIsNamed) {
  const fs::path dir = fs::temp_directory_path() / "ks-data-dir-test";
  fs::create_directories(dir);
  {
    const test_support::ScopedEnv env("KS_DATA_DIR", dir.string());
    EXPECT_EQ(data_dir().found_by, "KS_DATA_DIR");
    EXPECT_EQ(preset_dir(), dir / "presets");
    EXPECT_EQ(resource_dir(), dir / "resources");
    const test_support::ScopedEnv presets("KS_PRESET_DIR", "/elsewhere/presets");
    EXPECT_EQ(preset_dir(), fs::path("/elsewhere/presets")) << "one folder at a time";
  }
  const test_support::ScopedEnv missing("KS_DATA_DIR", (dir / "absent").string());
  test_support::expect_error([] { data_dir(); }, ErrorKind::BadInput, {"KS_DATA_DIR", "absent", "is not a folder"});
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ks
