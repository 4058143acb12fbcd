// What `kinetic-run --out DIR` writes: summary.json plus one file per field and series.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/communicator.hpp"
#include "core/method.hpp"
#include "io/preset.hpp"

namespace ks::cli {

struct RunRecord {
  const Preset* preset = nullptr;
  ParamSet params;
  ExecutionContext ctx;
  std::string state;        // finished, paused (stopped early), failed
  std::string stop_reason;  // "end condition", "--steps", "--max-seconds", "interrupted", the error
  double wall_seconds = 0.0;
  MemoryEstimate memory;    // what the set-up was estimated to need (and checked against)
  std::string decomposition;  // MethodInfo::decomposition, for a run across ranks
  double run_seconds = 0.0;   // the iterations' part of wall_seconds (the set-up and snapshots excluded)
  Communicator::Traffic run_traffic;  // rank 0's collectives within those iterations (under MPI)
};

// The summary as JSON (every series in full, the reference comparison when the preset has one).
nlohmann::json make_summary(const Snapshot& snap, const RunRecord& rec);
// Writes the files, then the summary (to a temporary file renamed over summary.json, so a failed
// write never truncates an earlier summary); returns the summary with the file list added.
nlohmann::json write_outputs(const std::string& dir, const std::string& format, const Snapshot& snap, const RunRecord& rec);

}  // namespace ks::cli
