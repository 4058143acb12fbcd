// A JSON value quoted in a message: never the whole of an unbounded value.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "text.hpp"

namespace ks {

// `v` as JSON text cut to about `max_chars` ("[1,2,3,... (4096 chars)]").
inline std::string brief(const nlohmann::json& v, std::size_t max_chars = 80) {
  return cut(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), max_chars);
}

}  // namespace ks
