// Text safe to print on a terminal, for error messages and titles. C++17 (CUDA sources include it
// through errors.hpp).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace ks {

// `text` safe to print on a terminal: control characters (a NUL, which cut messages short; ESC, which
// starts the sequences that retitle or clear a terminal; the C1 controls in UTF-8) as \xNN, line
// ends and tabs kept.
inline std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool c1 = c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F || c1) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c1 ? static_cast<unsigned char>(text[++i]) : c);
      out += hex;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace ks
