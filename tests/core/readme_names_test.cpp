// The method READMEs name the code that implements each equation: in the "code" column of their
// tables and as `function()` in the text. Every name must exist in the sources, so that a rename or
// a removal cannot leave a README describing code that is gone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/memory.hpp"
#include "io/input_file.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path kSource = KS_SOURCE_DIR;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every C++ and CUDA source of the engine, the apps and the benchmarks, one text.
const std::string& all_sources() {
  static const std::string text = [] {
    std::string t;
    for (const char* dir : {"engine", "app", "bench"})
      for (const auto& e : fs::recursive_directory_iterator(kSource / dir)) {
        const std::string ext = e.path().extension().string();
        if (ext == ".cpp" || ext == ".hpp" || ext == ".cu") t += read(e.path()) + '\n';
      }
    return t;
  }();
  return text;
}

bool defined_somewhere(const std::string& name) {
  const std::string last = name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
  return std::regex_search(all_sources(), std::regex("\\b" + last + "\\b"));
}

std::vector<std::string> split_cells(const std::string& row) {
  std::vector<std::string> cells;
  std::stringstream s(row.substr(1));
  for (std::string c; std::getline(s, c, '|');) cells.push_back(c);
  return cells;
}

// The names a README gives for code: `name()` anywhere, and in a table whose header has a "code"
// column, the identifiers with '_' or '::' in that column's `spans` (after an optional "file.hpp:").
std::set<std::string> code_names(const std::string& readme) {
  std::set<std::string> names;
  const std::regex call("`([A-Za-z_][A-Za-z0-9_:]*)\\(\\)`");
  for (auto it = std::sregex_iterator(readme.begin(), readme.end(), call); it != std::sregex_iterator(); ++it) names.insert((*it)[1]);
  std::stringstream lines(readme);
  int code_column = -1;
  const std::regex span("`([^`]+)`"), identifier("[A-Za-z_][A-Za-z0-9_:]*");
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] != '|') {
      code_column = -1;
      continue;
    }
    const std::vector<std::string> cells = split_cells(line);
    if (code_column < 0) {
      for (std::size_t c = 0; c < cells.size(); ++c)
        if (cells[c].find("code") != std::string::npos && cells[c].size() < 12) code_column = int(c);
      if (code_column < 0) code_column = -2;  // a table without a code column
      continue;
    }
    if (code_column < 0 || std::size_t(code_column) >= cells.size()) continue;
    const std::string& cell = cells[std::size_t(code_column)];
    for (auto s = std::sregex_iterator(cell.begin(), cell.end(), span); s != std::sregex_iterator(); ++s) {
      std::string text = (*s)[1];
      if (const auto colon = text.find(": "); colon != std::string::npos) text = text.substr(colon + 2);
      for (auto id = std::sregex_iterator(text.begin(), text.end(), identifier); id != std::sregex_iterator(); ++id) {
        const std::string name = (*id)[0];
        if (name.find('_') != std::string::npos || name.find("::") != std::string::npos) names.insert(name);
      }
    }
  }
  return names;
}

class MethodReadme : public ::testing::TestWithParam<const char*> {};

TEST_P(MethodReadme, EveryFunctionItNamesExists) {
  const fs::path readme = kSource / "engine" / "methods" / GetParam() / "README.md";
  const std::set<std::string> names = code_names(read(readme));
  EXPECT_GE(names.size(), 2u) << readme << " names no code for its equations";
  for (const std::string& name : names) {
    if (name.rfind("vtk", 0) != 0) {
      EXPECT_TRUE(defined_somewhere(name)) << readme << " names `" << name << "`, which no source defines";
    }
  }
}

// Every source file a README names (`coag_model.hpp`, `bench/bgk_bench.cpp`, `x.hpp: name`) is in the
// repository: found by its path, or by its name in the method's folder, tests/ or bench/.
TEST_P(MethodReadme, EveryFileItNamesExists) {
  const fs::path folder = kSource / "engine" / "methods" / GetParam();
  const std::string text = read(folder / "README.md");
  const std::regex file("`([A-Za-z0-9_/.]+\\.(hpp|cpp|cuh|cu))(: [^`]*)?`");
  int files = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), file); it != std::sregex_iterator(); ++it, ++files) {
    const fs::path named = (*it)[1].str();
    bool found = fs::exists(kSource / named) || fs::exists(folder / named) || fs::exists(kSource / "engine" / named);
    for (const char* dir : {"tests", "bench"})
      for (const auto& e : fs::recursive_directory_iterator(kSource / dir)) found = found || e.path().filename() == named.filename();
    EXPECT_TRUE(found) << folder / "README.md"
                       << " names `" << named.string() << "`, which is not in the repository";
  }
  EXPECT_GE(files, 1) << "no source file named in " << folder / "README.md";
}

INSTANTIATE_TEST_SUITE_P(AllMethods, MethodReadme, ::testing::Values("bgk", "coagulation", "dvm", "lbm", "radiation"));

// The README's input size limits are the code's, in binary units and as the messages print them.
TEST(Readme, InputSizeLimitsAreTheCodes) {
  const std::string text = read(kSource / "README.md");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m,
                                std::regex("presets (\\d+) MiB, checkpoint headers (\\d+) MiB, temperature files (\\d+) GiB;\\s+"
                                           "messages give them in decimal units, ([0-9.]+ MB), ([0-9.]+ MB), ([0-9.]+ GB)")))
      << "README.md no longer states the input size limits in the form this test reads";
  EXPECT_EQ(std::stoull(m[1]) << 20, ks::kMaxPresetBytes);
  EXPECT_EQ(std::stoull(m[2]) << 20, ks::kMaxCheckpointHeaderBytes);
  EXPECT_EQ(std::stoull(m[3]) << 30, ks::kMaxTemperatureFileBytes);
  EXPECT_EQ(m[4].str(), ks::format_bytes(ks::kMaxPresetBytes));
  EXPECT_EQ(m[5].str(), ks::format_bytes(ks::kMaxCheckpointHeaderBytes));
  EXPECT_EQ(m[6].str(), ks::format_bytes(ks::kMaxTemperatureFileBytes));
}

}  // namespace
