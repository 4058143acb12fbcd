// Checkpoint files: "KSCHKPT1", a little-endian u64 header length, a JSON header
// {format_version, method, method_state_version, params, iteration, backend,
//  state_bytes}, then the method's own binary state.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/method.hpp"

namespace ks {

constexpr int kCheckpointFormatVersion = 1;

struct CheckpointHeader {
  std::string method;
  nlohmann::json params;
  std::int64_t iteration = 0;
  std::string backend;
};

void save_checkpoint(const Method& method, const ExecutionContext& ctx, const std::string& path);
// Reads the header only (to build the method before loading the state).
CheckpointHeader read_checkpoint_header(const std::string& path);
// Loads the state into a method already set up with the header's params; refuses
// another method, another format version, and truncated files.
void load_checkpoint(Method& method, const std::string& path);

}  // namespace ks
