// Checkpoint files: "KSCHKPT1", a little-endian u64 header length, a JSON header
// {format_version, method, params, iteration, backend, preset, ranks, rank, state_bytes,
// state_fnv1a64}, then the method's own binary state. The checksum covers the state; a checkpoint
// is written to a temporary file and renamed, and never from a state holding NaN or Inf. Under MPI
// every rank writes its part: rank 0 to the path, rank r to checkpoint_part(path, r, ranks), each
// with the set's id, and rank 0 the manifest (checkpoint_manifest) once all are written; a restart
// needs the same number of ranks and refuses parts of different sets, naming them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/method.hpp"

namespace ks {

constexpr int kCheckpointFormatVersion = 2;

struct CheckpointHeader {
  std::string method;
  nlohmann::json params;
  std::int64_t iteration = 0;
  std::string backend;
  nlohmann::json preset;  // {"file", "title", "case"} of the run's preset, or null
  int ranks = 1;          // the ranks that wrote it (one file each)
};

// The file rank `rank` of `ranks` writes and reads: `path` itself for rank 0 (and a single process),
// `path.rank<r>` for the others.
std::string checkpoint_part(const std::string& path, int rank, int ranks);
// The manifest of a set of parts: `path.manifest` ({iteration, ranks, set_id}).
std::string checkpoint_manifest(const std::string& path);

// Refuses (run failed, exit 4) a state whose fields hold NaN or Inf: the previous checkpoint at
// `path` is then kept. `preset` ({"file", "title", "case"}) is recorded for restarts.
void save_checkpoint(const Method& method, const ExecutionContext& ctx, const std::string& path, const nlohmann::json& preset = nullptr);
// Reads the header only (to build the method before loading the state).
CheckpointHeader read_checkpoint_header(const std::string& path);
// Loads this rank's part (ctx.comm) into a method already set up with the header's params; refuses
// another method, another format version, a part written by another rank or number of ranks, a wrong
// checksum and truncated files.
void load_checkpoint(Method& method, const ExecutionContext& ctx, const std::string& path);

// The rule of a restart: the checkpoint must be of the same method and preset case, and every
// parameter that needs a re-setup (not live) must equal `params` (the preset with its --set
// overrides); otherwise bad input naming every difference. Live parameters that differ are
// listed: they apply after the state is loaded, so the preset's edits are never lost silently.
struct RestartPlan {
  ParamSet setup;                                                // what the checkpoint was written with: the method is set up with it
  std::vector<std::pair<std::string, ParamValue>> live_changes;  // then these apply, in order
};
RestartPlan plan_restart(const CheckpointHeader& h, const std::string& path, const std::string& method, const std::string& case_name,
                         const ParamSet& params);

}  // namespace ks
