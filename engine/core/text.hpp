// Small text helpers shared by the parameter checks and the file readers.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>

namespace ks {

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// Whether `path` ends with `ending`, ignoring case (a ".VTI" file is a ".vti" file).
inline bool has_ending(const std::string& path, const std::string& ending) { return lower(path).ends_with(lower(ending)); }

}  // namespace ks
