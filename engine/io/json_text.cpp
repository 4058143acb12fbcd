#include "json_text.hpp"

#include "core/errors.hpp"
#include "core/text.hpp"

namespace ks {

namespace {

// Refuses nesting deeper than kMaxJsonDepth before the recursive parser sees the text.
void check_depth(const std::string& text, const std::string& where) {
  int depth = 0, line = 1;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (c == '\n') ++line;
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        throw bad_input(where, "line " + std::to_string(line) + ": arrays and objects nested deeper than " +
                                   std::to_string(kMaxJsonDepth) + " levels",
                        "at most " + std::to_string(kMaxJsonDepth) + " levels of nesting");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::string& where) {
  check_depth(text, where);
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann quotes the last token read, which may be a whole (huge) string: cut it.
    throw bad_input(where, "not valid JSON: " + cut(e.what(), 240), "a JSON document (UTF-8)");
  }
}

}  // namespace ks
