// JSON from input files and command lines, parsed with limits: at most kMaxJsonDepth levels of
// nesting (deeper documents overflow the stack of a recursive parser or printer); messages quote
// only a short excerpt of any value (core/json_brief.hpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/json_brief.hpp"

namespace ks {

constexpr int kMaxJsonDepth = 64;

// Parses `text`; throws bad_input naming `where`, the line and what was wrong.
nlohmann::json parse_json_text(const std::string& text, const std::string& where);

}  // namespace ks
