#include "io/run_output.hpp"

#include <algorithm>
#include <filesystem>

#include "core/errors.hpp"
#include "core/rank_agreement.hpp"
#include "io/field_writer.hpp"
#include "io/input_file.hpp"
#include "io/json_text.hpp"
#include "io/output_file.hpp"
#include "io/reference.hpp"
#include "io/vtk_xml_writer.hpp"

namespace ks {

std::string finished_reason(const Progress& p) {
  const std::string residual = to_string(ParamValue(p.residual));
  return p.converged ? "converged (residual " + residual + " below the tolerance)"
                     : "end condition reached without a convergence tolerance being met (residual " + residual + ")";
}

nlohmann::json make_summary(const Snapshot& snap, const RunRecord& rec) {
  const Preset& p = *rec.preset;
  nlohmann::json j;
  j["method"] = p.method;
  j["preset"] = {{"file", p.file}, {"title", p.title}, {"paper", p.paper}, {"case", p.case_name}};
  j["params"] = rec.params.to_json();
  j["backend"] = {{"kind", to_string(rec.ctx.backend)}, {"device", rec.ctx.device_name}};
  if (!rec.ctx.cuda_unused_reason.empty()) j["backend"]["cuda_unused"] = rec.ctx.cuda_unused_reason;
  const int ranks = ranks_of(rec.ctx).size();
  j["ranks"] = {{"count", ranks}, {"decomposition", ranks > 1 ? rec.decomposition : "one process"}};
  if (ranks > 1) {
    const Communicator::Traffic t = ranks_of(rec.ctx).traffic();
    j["ranks"]["rank0_collective_seconds"] = t.seconds;  // waiting for the other ranks included
    j["ranks"]["rank0_bytes_sent"] = t.bytes;
    // Of these, within the iterations (iterations_time_s): no set-up, no snapshot.
    j["ranks"]["rank0_iterations_collective_seconds"] = rec.run_traffic.seconds;
    j["ranks"]["rank0_iterations_bytes_sent"] = rec.run_traffic.bytes;
  }
  j["state"] = rec.state;
  j["stop_reason"] = rec.stop_reason;
  // True only when the method's tolerance was met; stop_reason says what ended the run otherwise.
  j["converged"] = snap.progress.converged;
  j["iterations"] = snap.progress.iteration;
  j["sim_time"] = snap.progress.sim_time;
  j["time_unit"] = snap.progress.time_unit;
  j["residual"] = snap.progress.residual;
  j["work_done"] = snap.progress.work_done;
  j["work_unit"] = snap.progress.work_unit;
  j["wall_time_s"] = rec.wall_seconds;
  j["iterations_time_s"] = rec.run_seconds;
  j["memory_estimate"] = to_json(rec.memory);
  nlohmann::json series = nlohmann::json::array();
  for (const auto& s : snap.series) {
    nlohmann::json e = {{"name", s.name}, {"x_label", s.x_label}, {"y_label", s.y_label}, {"x", s.x}, {"y", s.y}};
    if (!s.y_err.empty()) e["y_stderr"] = s.y_err;
    series.push_back(e);
  }
  j["series"] = series;
  j["diagnostics"] = snap.diagnostics;
  if (!p.reference.empty()) {
    for (const auto& s : snap.series) {
      if (s.name != p.reference.series) continue;
      const auto ref = evaluate_reference(p.reference, s.x);
      j["reference"] = {
          {"series", s.name}, {"source", p.reference.source}, {"y", ref}, {"mean_relative_error", mean_relative_error(s.y, ref)}};
    }
  }
  return j;
}

VtkEncoding encoding_of(const std::string& format) { return format == "vti-ascii" ? VtkEncoding::Ascii : VtkEncoding::Binary; }

std::vector<std::string> write_fields(const std::string& dir, const std::string& format, const Snapshot& snap, TimeSeriesWriter* series) {
  std::vector<std::string> files;
  if (format == "none") return files;
  if (series) return series->write(snap.fields, snap.progress.iteration, snap.progress.sim_time);
  if (format == "csv") {
    for (const auto& f : snap.fields) {
      if (f.grid.piece()) continue;
      files.push_back(dir + "/" + file_safe(f.desc.name) + ".csv");
      write_field_csv(f, files.back());
    }
    return files;
  }
  for (const Dataset& d : datasets_of(snap.fields))
    files.push_back(write_dataset_vtk(d, dir + "/" + d.name, encoding_of(format), snap.progress.sim_time));
  return files;
}

namespace {

// The files the summary.json already in `dir` lists, its own and those it named of runs before it:
// earlier runs' outputs (none when there is no summary there, or one that does not read).
std::vector<std::string> earlier_files(const std::string& dir) {
  const std::string path = dir + "/summary.json";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return {};
  std::vector<std::string> files;
  try {
    const nlohmann::json summary = parse_json_text(read_input_file(path, "summary", 64ull << 20), path);
    for (const char* key : {"files", "files_of_an_earlier_run"})
      if (summary.is_object() && summary.contains(key) && summary[key].is_array())
        for (const auto& f : summary[key])
          if (f.is_string()) files.push_back(f.get<std::string>());
  } catch (const Error&) {
    return {};
  }
  return files;
}

}  // namespace

nlohmann::json write_outputs(const std::string& dir, const Snapshot& snap, const RunRecord& rec,
                             const std::vector<std::string>& field_files, const std::string& option) {
  prepare_output_dir(dir, option);
  const std::vector<std::string> before = earlier_files(dir);
  nlohmann::json summary = make_summary(snap, rec);
  nlohmann::json files = nlohmann::json(field_files);
  for (const auto& s : snap.series) {
    const std::string path = dir + "/series_" + file_safe(s.name) + ".csv";
    write_series_csv(s, path);
    files.push_back(path);
  }
  summary["files"] = files;
  // An earlier run's outputs this run did not replace (another method, format or set of series):
  // left, but named, so the folder never mixes two runs without saying so.
  std::vector<std::string> left;
  for (const std::string& f : before) {
    std::error_code ec;
    if (std::find(files.begin(), files.end(), f) == files.end() && std::filesystem::exists(f, ec)) left.push_back(f);
  }
  if (!left.empty()) summary["files_of_an_earlier_run"] = left;
  write_file_atomically(dir + "/summary.json", summary.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", "summary");
  return summary;
}

std::vector<std::string> write_field_pieces(const std::string& dir, const std::string& format, const Snapshot& snap,
                                            const Communicator& comm, TimeSeriesWriter* series, bool (*skip)(const Dataset&)) {
  std::vector<Dataset> datasets = datasets_of(snap.fields, true);  // alike on every rank: the same fields
  if (skip) std::erase_if(datasets, skip);
  // STEM_rR: rank R's piece of the dataset STEM (.vti or .vtr), which the .pvti or .pvtr names relative to itself.
  const auto stem_of = [&](const Dataset& d) { return series ? TimeSeriesWriter::numbered(d.name, snap.progress.iteration) : d.name; };
  const auto piece = [&](const Dataset& d, int rank) { return stem_of(d) + "_r" + std::to_string(rank); };
  std::vector<double> extents;  // per dataset: first (3), cells (3)
  on_every_rank(
      comm,
      [&] {
        for (const Dataset& d : datasets) {
          write_dataset_vtk(d, dir + "/" + piece(d, comm.rank()), encoding_of(format), snap.progress.sim_time);
          for (int a = 0; a < 3; ++a) extents.push_back(d.grid().first[a]);
          for (int a = 0; a < 3; ++a) extents.push_back(d.grid().cells[a]);
        }
      },
      "another rank could not write its field pieces");
  const std::vector<double> all = comm.all_gather(extents);
  std::vector<std::string> written;
  if (comm.rank() != 0) return written;
  for (std::size_t k = 0; k < datasets.size(); ++k) {
    std::vector<Grid> pieces;
    std::vector<std::string> sources;
    for (int r = 0; r < comm.size(); ++r) {
      const double* e = all.data() + (std::size_t(r) * datasets.size() + k) * 6;
      Grid g;
      for (int a = 0; a < 3; ++a) {
        g.first[a] = int(e[a]);
        g.cells[a] = int(e[3 + a]);
      }
      pieces.push_back(g);
      sources.push_back(piece(datasets[k], r) + dataset_extension(datasets[k]));
    }
    written.push_back(write_dataset_parallel(datasets[k], pieces, sources, dir + "/" + stem_of(datasets[k])));
    if (series) series->add(datasets[k].name, written.back().substr(dir.size() + 1), snap.progress.iteration, snap.progress.sim_time);
  }
  return written;
}

}  // namespace ks
