#include "json_text.hpp"

#include <set>
#include <vector>

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
        throw bad_input(
            where, "line " + std::to_string(line) + ": arrays and objects nested deeper than " + std::to_string(kMaxJsonDepth) + " levels",
            "at most " + std::to_string(kMaxJsonDepth) + " levels of nesting");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

// Refuses a name given twice in one object, which a parser would otherwise settle silently (the last
// wins); JSON says names should be unique. Follows the parser's events to name where it is.
class UniqueNames {
 public:
  explicit UniqueNames(const std::string& where) : where_(where) {}

  bool operator()(int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    switch (event) {
      case Event::object_start:
      case Event::array_start: levels_.push_back({event == Event::object_start}); break;
      case Event::object_end:
      case Event::array_end:
        levels_.pop_back();
        next_element();
        break;
      case Event::key: {
        Level& level = levels_.back();
        level.key = parsed.get<std::string>();
        if (!level.keys.insert(level.key).second)
          throw bad_input(where_ + ":" + path(),
                          "the name '" + cut(level.key, 60) + "' is given twice in one object (a parser would keep the last)",
                          "each name once in an object");
        break;
      }
      case Event::value: next_element(); break;
    }
    return true;
  }

 private:
  struct Level {
    bool object;
    std::set<std::string> keys;
    std::string key;        // an object's current member
    std::size_t index = 0;  // an array's current element
  };
  void next_element() {
    if (!levels_.empty() && !levels_.back().object) ++levels_.back().index;
  }
  std::string path() const {
    std::string p;
    for (const Level& l : levels_) p += "/" + (l.object ? cut(l.key, 60) : std::to_string(l.index));
    return p;
  }

  const std::string& where_;
  std::vector<Level> levels_;
};

}  // namespace

nlohmann::json parse_json_text(const std::string& text, const std::string& where) {
  check_depth(text, where);
  try {
    return nlohmann::json::parse(text, UniqueNames(where));
  } catch (const nlohmann::json::parse_error& e) {
    // nlohmann quotes the last token read, which may be a whole (huge) string: cut it.
    throw bad_input(where, "not valid JSON: " + cut(e.what(), 240), "a JSON document (UTF-8)");
  } catch (const nlohmann::json::out_of_range& e) {  // a number beyond a double's range, such as 1e309
    throw bad_input(where, "a number beyond the range of a double: " + cut(e.what(), 240), "numbers of magnitude below 1.8e308");
  }
}

}  // namespace ks
