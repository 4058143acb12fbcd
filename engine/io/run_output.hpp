// What a run's output folder holds (`kinetic-run --out DIR`, the Python module's Simulation.save):
// summary.json plus one file per field and series.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/communicator.hpp"
#include "core/method.hpp"
#include "io/preset.hpp"
#include "io/time_series.hpp"
#include "io/vtk_xml_writer.hpp"

namespace ks {

struct RunRecord {
  const Preset* preset = nullptr;
  ParamSet params;
  ExecutionContext ctx;
  std::string state;        // finished, paused (stopped early), failed
  std::string stop_reason;  // "end condition", "--steps", "--max-seconds", "interrupted", the error
  double wall_seconds = 0.0;
  MemoryEstimate memory;              // what the set-up was estimated to need (and checked against)
  std::string decomposition;          // MethodInfo::decomposition, for a run across ranks
  double run_seconds = 0.0;           // the iterations' part of wall_seconds (the set-up and snapshots excluded)
  Communicator::Traffic run_traffic;  // rank 0's collectives within those iterations (under MPI)
};

// Why a finished run ended, for RunRecord::stop_reason: its tolerance met, or its end condition.
std::string finished_reason(const Progress& p);
// The summary as JSON (every series in full, the reference comparison when the preset has one).
nlohmann::json make_summary(const Snapshot& snap, const RunRecord& rec);
// The encoding of a --format: vti-ascii ASCII, else binary.
VtkEncoding encoding_of(const std::string& format);
// The fields of `snap` that are not a rank's piece, in `format` (csv: DIR/NAME.csv per field; vti,
// vti-ascii: one DIR/STEM.vti or .vtp per grid, datasets_of; none: nothing). With `series`
// (--output-every) the datasets are numbered by iteration and listed in its .pvd files. Returns the
// files written.
std::vector<std::string> write_fields(const std::string& dir, const std::string& format, const Snapshot& snap, TimeSeriesWriter* series);
// Writes the series, then the summary (to a temporary file renamed over summary.json, so a failed
// write never truncates an earlier summary) listing `field_files` and the series' files; returns the
// summary. `option` names where `dir` came from in errors ("--out"). Files an earlier run's
// summary.json there listed and this run did not write are named in files_of_an_earlier_run.
nlohmann::json write_outputs(const std::string& dir, const Snapshot& snap, const RunRecord& rec,
                             const std::vector<std::string>& field_files, const std::string& option);
// Under MPI (kinetic-run --pieces), on every rank: its pieces of the split grids' datasets as
// DIR/STEM_rR.vti, and on rank 0 one DIR/STEM.pvti per dataset over every rank's pieces (their
// extents gathered), whose paths it returns; with `series` (on every rank) STEM is numbered and
// rank 0 lists the .pvti in its .pvd. Every rank learns of any rank's failure to write and throws.
// Datasets `skip` holds true for are left out (written elsewhere: --format vtkhdf).
std::vector<std::string> write_field_pieces(const std::string& dir, const std::string& format, const Snapshot& snap,
                                            const Communicator& comm, TimeSeriesWriter* series, bool (*skip)(const Dataset&) = nullptr);

}  // namespace ks
