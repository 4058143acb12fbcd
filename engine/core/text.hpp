// Small text helpers shared by the parameter checks and the file readers.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <string_view>

namespace ks {

inline std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// Whether `path` ends with `ending`, ignoring case (a ".VTI" file is a ".vti" file).
inline bool has_ending(const std::string& path, const std::string& ending) { return lower(path).ends_with(lower(ending)); }

// A number in a message, six significant digits ("0.001", "1.5e+07").
inline std::string format_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// A number as given, ten significant digits ("1234.5678", "1e+300"): values a user wrote.
inline std::string format_precise(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

// `s` cut to about `max_chars` for a message: the head, then how long the whole was.
inline std::string cut(std::string_view s, std::size_t max_chars) {
  if (s.size() <= max_chars) return std::string(s);
  return std::string(s.substr(0, max_chars)) + "... (" + std::to_string(s.size()) + " chars)";
}

// Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF).
inline bool is_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n = 0;
    unsigned cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xE0) == 0xC0) n = 1, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) n = 2, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) n = 3, cp = c & 0x07;
    else return false;
    for (int k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return false;
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    const unsigned min_cp[] = {0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += n + 1;
  }
  return true;
}

}  // namespace ks
