#include "session.hpp"

#include <filesystem>

#include "core/data_dir.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "io/checkpoint.hpp"
#include "io/output_file.hpp"

namespace ks::py {

namespace fs = std::filesystem;

namespace {

// A preset of `method` at its defaults, for a simulation made without one.
Preset method_preset(const std::string& method) {
  const MethodInfo& info = builtin_registry().info(method);  // names the methods there are
  Preset preset;
  preset.method = method;
  preset.title = info.title;
  preset.paper = info.paper;
  preset.params = ParamSet(info.params);
  return preset;
}

}  // namespace

std::unique_ptr<Session> Session::from_preset(const std::string& name, const std::string& backend, const nlohmann::json& overrides) {
  Preset preset = load_preset(preset_file(name), builtin_registry());
  ParamSet params = preset.params;
  params.apply_json(overrides, "params");
  return std::make_unique<Session>(std::move(preset), params, backend);
}

std::unique_ptr<Session> Session::from_method(const std::string& method, const std::string& backend, const nlohmann::json& values) {
  Preset preset = method_preset(method);
  preset.params.apply_json(values, "params");
  const ParamSet params = preset.params;
  return std::make_unique<Session>(std::move(preset), params, backend);
}

std::unique_ptr<Session> Session::restart(const std::string& checkpoint, const std::string& backend) {
  const CheckpointHeader h = read_checkpoint_header(checkpoint);
  if (h.ranks != 1)
    throw bad_input(checkpoint, "the checkpoint was written by " + std::to_string(h.ranks) + " MPI ranks",
                    "a checkpoint of one process here; kinetic-run restarts it on as many ranks");
  Preset preset = method_preset(h.method);
  const std::string file =
      h.preset.is_object() && h.preset.value("file", nlohmann::json()).is_string() ? h.preset["file"].get<std::string>() : "";
  // The preset's title, case and reference where its file is still there, still reads and is still of
  // this method (the method set up is the preset's: it must be the checkpoint's). The checkpoint holds
  // every parameter, so a preset edited since (or broken) costs only its reference: the title is the
  // checkpoint's.
  bool from_file = false;
  if (!file.empty() && fs::is_regular_file(file)) try {
      if (Preset loaded = load_preset(file, builtin_registry()); loaded.method == h.method) {
        preset = std::move(loaded);
        from_file = true;
      }
    } catch (const Error&) {
    }
  if (!from_file && h.preset.is_object() && h.preset.value("title", nlohmann::json()).is_string())
    preset.title = h.preset["title"].get<std::string>();
  ParamSet params(builtin_registry().info(h.method).params);
  params.apply_json(h.params, checkpoint + ": params");
  return std::make_unique<Session>(std::move(preset), params, backend, checkpoint, h.preset);
}

Session::Session(Preset preset, const ParamSet& params, const std::string& backend, const std::string& restart_from,
                 nlohmann::json checkpoint_preset)
    : preset_(std::move(preset)) {
  const BackendRequest request = backend.empty() ? preset_.backend.value_or(BackendRequest::Auto) : parse_backend(backend, "backend");
  ctx_ = resolve_backend(request);
  RunnerOptions options;
  options.restart_from = restart_from;
  options.checkpoint_preset = checkpoint_preset.is_null() && !preset_.file.empty()
                                  ? nlohmann::json{{"file", preset_.file}, {"title", preset_.title}, {"case", preset_.case_name}}
                                  : std::move(checkpoint_preset);
  runner_ = std::make_unique<Runner>(builtin_registry().create(preset_.method), params, ctx_, options);
  wait(-1);
  throw_if_failed();
}

bool Session::wait(double seconds) const {
  if (seconds >= 0) return runner_->wait_settled(std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000.0)));
  while (!runner_->wait_settled(std::chrono::hours(1))) {
  }
  return true;
}

void Session::throw_if_failed() const {
  if (const RunStatus s = runner_->status(); s.state == RunState::Failed) throw Error(s.error_kind, s.error);
}

std::shared_ptr<const Snapshot> Session::snapshot() const {
  std::shared_ptr<const Snapshot> s = runner_->file_snapshot();
  if (!s) throw run_failed("the simulation has no state yet (its set-up did not finish)");
  return s;
}

RunRecord Session::record(const std::string& stop_reason) const {
  const RunStatus s = runner_->status();
  std::string why = stop_reason;
  if (s.state == RunState::Failed) why = s.error;
  else if (s.state == RunState::Finished) why = finished_reason(s.progress);
  else if (why.empty()) why = "not run yet";
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - created_).count();
  return {&preset_,
          runner_->params(),
          ctx_,
          to_string(s.state),
          why,
          wall,
          s.memory_estimate,
          runner_->info().decomposition,
          s.iteration_seconds,
          s.iteration_traffic};
}

nlohmann::json Session::summary(const std::string& stop_reason) const { return make_summary(*snapshot(), record(stop_reason)); }

std::vector<std::string> Session::save(const std::string& dir, const std::string& format, const std::string& stop_reason) const {
  if (format != "vti" && format != "vti-ascii" && format != "csv")
    throw bad_input("save(format=\"" + format.substr(0, 40) + "\")", "unknown format", "vti, vti-ascii or csv");
  const auto snap = snapshot();
  prepare_output_dir(dir, "save(\"" + dir + "\")");
  std::vector<std::string> files = write_fields(dir, format, *snap, nullptr);
  const nlohmann::json summary = write_outputs(dir, *snap, record(stop_reason), files, "save(\"" + dir + "\")");
  return summary["files"].get<std::vector<std::string>>();
}

void Session::checkpoint(const std::string& path) {
  check_output_file(path, "checkpoint(\"" + path + "\")");
  runner_->checkpoint(path);
  wait(-1);
  const CheckpointOutcome saved = runner_->last_checkpoint();
  if (!saved.error.empty()) throw Error(saved.kind, "checkpoint " + saved.path + " " + saved.error);
}

}  // namespace ks::py
