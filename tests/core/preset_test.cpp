// Presets: every shipped one loads; every kind of mistake is a BadInput error
// naming the file, the JSON pointer and what is allowed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/registry.hpp"
#include "expect_error.hpp"
#include "io/preset.hpp"

namespace fs = std::filesystem;

namespace {

const char* kGoodPreset = R"({
  "method": "aerosol.coagulation",
  "title": "test preset",
  "params": { "n_s": 100, "n_runs": 2, "t_end": 10.0 },
  "reference": { "series": "N/N0", "analytic": { "id": "constant_kernel_number" } }
})";

class PresetFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("ks_preset_test_" + std::to_string(::getpid()) + "_" +
                                             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream out(path);
    out << text;
    return path;
  }
  // The good preset with `edit` applied.
  std::string write_edited(const std::string& name, const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json doc = nlohmann::json::parse(kGoodPreset);
    edit(doc);
    return write(name, doc.dump(2));
  }

  // Loads `path`, expects a BadInput ks::Error and returns its message.
  static std::string load_error(const std::string& path) {
    SCOPED_TRACE("the preset " + path);
    return ks::test_support::error_message([&] { ks::load_preset(path, ks::builtin_registry()); });
  }

  fs::path dir_;
};

#define EXPECT_MESSAGE_HAS(msg, part) EXPECT_NE((msg).find(part), std::string::npos) << "message: " << (msg)

}  // namespace

TEST(ShippedPresets, EveryPresetLoadsWithItsMethodsParams) {
  const fs::path root = fs::path(KS_SOURCE_DIR) / "presets";
  ASSERT_TRUE(fs::is_directory(root)) << root;
  int count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    ++count;
    SCOPED_TRACE(entry.path().string());
    ks::Preset p;
    ASSERT_NO_THROW(p = ks::load_preset(entry.path().string(), ks::builtin_registry()));
    EXPECT_TRUE(ks::builtin_registry().has(p.method));
    EXPECT_FALSE(p.title.empty());
    EXPECT_EQ(p.file, entry.path().string());
    // The param set is complete: every spec of the method has a value.
    for (const auto& spec : ks::builtin_registry().info(p.method).params) EXPECT_TRUE(p.params.has(spec.key)) << spec.key;
    // What the file sets is what the preset holds; file paths are read from the preset's folder, and
    // the files they name are shipped.
    std::ifstream in(entry.path());
    const nlohmann::json doc = nlohmann::json::parse(in);
    if (doc.contains("params")) {
      for (const auto& [key, v] : doc["params"].items()) {
        if (p.params.spec(key).type != ks::ParamType::Path) {
          EXPECT_EQ(p.params.to_json()[key], v) << key;
        } else if (!v.get<std::string>().empty()) {
          const fs::path file = entry.path().parent_path() / v.get<std::string>();
          EXPECT_EQ(p.params.get_path(key), file.lexically_normal().string()) << key;
          EXPECT_TRUE(fs::is_regular_file(p.params.get_path(key))) << key << ": " << p.params.get_path(key);
        }
      }
    }
  }
  EXPECT_GE(count, 4) << "expected the shipped coagulation presets under " << root;
}

// The cost model the app's time estimates divide by a measured rate (Method::iteration_cost): every
// shipped preset has one, and it grows with the work an iteration does.
TEST(ShippedPresets, AnIterationsCostGrowsWithItsWork) {
  const fs::path root = fs::path(KS_SOURCE_DIR) / "presets";
  auto cost = [&](const std::string& name) {
    const ks::Preset p = ks::load_preset((root / name).string(), ks::builtin_registry());
    return ks::builtin_registry().create(p.method)->iteration_cost(p.params);
  };
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
    const double c = cost(fs::relative(entry.path(), root).string());
    EXPECT_TRUE(std::isfinite(c) && c > 0.0) << entry.path() << ": " << c;
  }
  // The coarse bed is the fine one on a lattice of half the nodes per axis: an eighth of the updates.
  EXPECT_NEAR(cost("lbm/packed-bed-fine.json") / cost("lbm/packed-bed-coarse.json"), 8.0, 0.2);
  EXPECT_LT(cost("lbm/teaching-packed-bed.json"), cost("lbm/packed-bed-coarse.json") / 10);
  // Twice the cells per axis, the same velocities: eight times the sweep.
  EXPECT_DOUBLE_EQ(cost("dvm/cavity-kn1-128.json") / cost("dvm/cavity-kn1-64.json"), 8.0);
}

TEST_F(PresetFile, GoodPresetLoadsParamsAndReference) {
  const ks::Preset p = ks::load_preset(write("good.json", kGoodPreset), ks::builtin_registry());
  EXPECT_EQ(p.method, "aerosol.coagulation");
  EXPECT_EQ(p.params.get_int("n_s"), 100);
  EXPECT_EQ(p.params.get_int("n_runs"), 2);
  EXPECT_EQ(p.params.get_choice("kernel"), "free_molecular");  // method default
  EXPECT_EQ(p.reference.series, "N/N0");
  EXPECT_EQ(p.reference.analytic_id, "constant_kernel_number");
  EXPECT_FALSE(p.backend.has_value());
}

TEST_F(PresetFile, UnknownTopLevelKeyNamesFileKeyAndAllowedKeys) {
  const std::string path = write_edited("top.json", [](nlohmann::json& d) { d["colour"] = "red"; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "/colour");
  EXPECT_MESSAGE_HAS(msg, "unknown key 'colour'");
  EXPECT_MESSAGE_HAS(msg, "allowed: one of");
  EXPECT_MESSAGE_HAS(msg, "method");
  EXPECT_MESSAGE_HAS(msg, "reference");
}

TEST_F(PresetFile, MissingMethodNamesFileAndKey) {
  const std::string path = write_edited("nomethod.json", [](nlohmann::json& d) { d.erase("method"); });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "missing required key 'method'");
}

TEST_F(PresetFile, UnknownMethodNamesPointerAndKnownMethods) {
  const std::string path = write_edited("badmethod.json", [](nlohmann::json& d) { d["method"] = "fluid.lbm"; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/method");
  EXPECT_MESSAGE_HAS(msg, "unknown method 'fluid.lbm'");
  EXPECT_MESSAGE_HAS(msg, "one of aerosol.coagulation");
}

TEST_F(PresetFile, WrongTypeOfStringKeyNamesPointer) {
  const std::string path = write_edited("title.json", [](nlohmann::json& d) { d["title"] = 42; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/title");
  EXPECT_MESSAGE_HAS(msg, "expected a string, got 42");
}

TEST_F(PresetFile, WrongTypeOfParamNamesPointerAndExpectedType) {
  const std::string path = write_edited("ptype.json", [](nlohmann::json& d) { d["params"]["n_s"] = "lots"; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/params/n_s");
  EXPECT_MESSAGE_HAS(msg, "wrong type (expected int)");
  EXPECT_MESSAGE_HAS(msg, "an integer in [16, 100000000]");
}

TEST_F(PresetFile, OutOfRangeParamNamesPointerValueAndAllowedRange) {
  const std::string path = write_edited("range.json", [](nlohmann::json& d) { d["params"]["n_s"] = 3; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/params/n_s");
  EXPECT_MESSAGE_HAS(msg, "value 3 for 'n_s' is out of range");
  EXPECT_MESSAGE_HAS(msg, "allowed: an integer in [16, 100000000]");
}

TEST_F(PresetFile, UnknownChoiceParamListsChoices) {
  const std::string path = write_edited("choice.json", [](nlohmann::json& d) { d["params"]["kernel"] = "magic"; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/params/kernel");
  EXPECT_MESSAGE_HAS(msg, "one of free_molecular, constant, additive");
}

TEST_F(PresetFile, UnknownParamNamesPointerAndKnownParams) {
  const std::string path = write_edited("unknownparam.json", [](nlohmann::json& d) { d["params"]["n_particles"] = 5; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/params/n_particles");
  EXPECT_MESSAGE_HAS(msg, "unknown parameter 'n_particles'");
  EXPECT_MESSAGE_HAS(msg, "one of kernel, n_s, n_runs");
}

TEST_F(PresetFile, BadJsonSyntaxNamesFile) {
  const std::string path = write("syntax.json", R"({ "method": "aerosol.coagulation", "title": "x", )");
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "not valid JSON");
}

TEST_F(PresetFile, MissingFileNamesFile) {
  const std::string path = (dir_ / "does-not-exist.json").string();
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "cannot open");
}

TEST_F(PresetFile, NonObjectDocumentIsRefused) {
  const std::string path = write("array.json", "[1, 2, 3]");
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "must be a JSON object");
}

TEST_F(PresetFile, BadBackendNamesPointerAndAllowedBackends) {
  const std::string path = write_edited("backend.json", [](nlohmann::json& d) { d["backend"] = "opencl"; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/backend");
  EXPECT_MESSAGE_HAS(msg, "unknown backend 'opencl'");
  EXPECT_MESSAGE_HAS(msg, "auto, cuda or cpu");
  const std::string path2 = write_edited("backend2.json", [](nlohmann::json& d) { d["backend"] = true; });
  const std::string msg2 = load_error(path2);
  EXPECT_MESSAGE_HAS(msg2, path2 + ":/backend");
  EXPECT_MESSAGE_HAS(msg2, "expected a string");
}

TEST_F(PresetFile, GoodBackendIsRead) {
  const std::string path = write_edited("cpu.json", [](nlohmann::json& d) { d["backend"] = "cpu"; });
  const ks::Preset p = ks::load_preset(path, ks::builtin_registry());
  ASSERT_TRUE(p.backend.has_value());
  EXPECT_EQ(*p.backend, ks::BackendRequest::Cpu);
}

TEST_F(PresetFile, ViewTabIsOneOfTheWindowsViews) {
  const std::string good = write_edited("tab.json", [](nlohmann::json& d) { d["view"]["tab"] = "plot"; });
  EXPECT_EQ(ks::load_preset(good, ks::builtin_registry()).view["tab"], "plot");
  const std::string path = write_edited("badtab.json", [](nlohmann::json& d) { d["view"]["tab"] = "chart"; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/view/tab");
  EXPECT_MESSAGE_HAS(msg, "chart");
  EXPECT_MESSAGE_HAS(msg, "field, plot or scene");
}

TEST_F(PresetFile, ReferenceWithUnknownSeriesNamesPointerAndKnownSeries) {
  const std::string path = write_edited("refseries.json", [](nlohmann::json& d) { d["reference"]["series"] = "volume"; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/reference/series");
  EXPECT_MESSAGE_HAS(msg, "has no series 'volume'");
  EXPECT_MESSAGE_HAS(msg, "one of N/N0, d_g, sigma_g");
}

TEST_F(PresetFile, ReferenceWithBothAnalyticAndTableIsRefused) {
  const std::string path = write_edited("refboth.json", [](nlohmann::json& d) {
    d["reference"]["table"] = {{"x", {1.0}}, {"y", {0.5}}, {"source", "test"}};
  });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/reference");
  EXPECT_MESSAGE_HAS(msg, "exactly one of 'analytic' or 'table'");
}

TEST_F(PresetFile, ReferenceWithNeitherAnalyticNorTableIsRefused) {
  const std::string path = write_edited("refneither.json", [](nlohmann::json& d) { d["reference"].erase("analytic"); });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/reference");
  EXPECT_MESSAGE_HAS(msg, "exactly one of 'analytic' or 'table'");
}

TEST_F(PresetFile, ReferenceWithUnknownAnalyticIdListsKnownIds) {
  const std::string path = write_edited("refid.json", [](nlohmann::json& d) { d["reference"]["analytic"]["id"] = "golden_ratio"; });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/reference/analytic/id");
  EXPECT_MESSAGE_HAS(msg, "unknown analytic reference 'golden_ratio'");
  EXPECT_MESSAGE_HAS(msg, "constant_kernel_number");
}

TEST_F(PresetFile, TableWithDifferentLengthsNamesPointerAndBothLengths) {
  const std::string path = write_edited("reftable.json", [](nlohmann::json& d) {
    d["reference"].erase("analytic");
    d["reference"]["table"] = {{"x", {1.0, 2.0, 3.0}}, {"y", {0.5, 0.25}}, {"source", "test"}};
  });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/reference/table");
  EXPECT_MESSAGE_HAS(msg, "equal length");
  EXPECT_MESSAGE_HAS(msg, "got 3 and 2");
}

TEST_F(PresetFile, TableWithNonNumberNamesElementPointer) {
  const std::string path = write_edited("reftablenan.json", [](nlohmann::json& d) {
    d["reference"].erase("analytic");
    d["reference"]["table"] = {{"x", {1.0, "two"}}, {"y", {0.5, 0.25}}, {"source", "test"}};
  });
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path + ":/reference/table/x/1");
  EXPECT_MESSAGE_HAS(msg, "expected a number");
}

TEST_F(PresetFile, GoodTableReferenceIsRead) {
  const std::string path = write_edited("tableok.json", [](nlohmann::json& d) {
    d["reference"] = {{"series", "sigma_g"}, {"table", {{"x", {1.0, 10.0}}, {"y", {1.3, 1.45}}, {"source", "a test"}}}};
  });
  const ks::Preset p = ks::load_preset(path, ks::builtin_registry());
  EXPECT_EQ(p.reference.series, "sigma_g");
  EXPECT_TRUE(p.reference.analytic_id.empty());
  EXPECT_EQ(p.reference.x, (std::vector<double>{1.0, 10.0}));
  EXPECT_EQ(p.reference.y, (std::vector<double>{1.3, 1.45}));
  EXPECT_EQ(p.reference.source, "a test");
}
