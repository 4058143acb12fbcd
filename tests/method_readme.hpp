// A method folder's README.md as text, for tests that keep the numbers it gives equal to the code's.
#pragma once

#include <fstream>
#include <iterator>
#include <string>

namespace ks::test_support {

inline std::string method_readme(const std::string& folder) {
  std::ifstream in(std::string(KS_SOURCE_DIR) + "/engine/methods/" + folder + "/README.md");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace ks::test_support
