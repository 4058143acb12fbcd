// One simulation as the Python module drives it: a preset (or a method with parameters), its
// Runner and what its summary and saved folder need. No Python here: bindings.cpp converts.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend.hpp"
#include "io/preset.hpp"
#include "io/run_output.hpp"
#include "run/runner.hpp"

namespace ks::py {

class Session {
 public:
  // A preset file, or a name under the presets folder ("dvm/couette-slip", ".json" optional), with
  // `overrides` ({"key": value}) applied as a preset's "params" are.
  static std::unique_ptr<Session> from_preset(const std::string& preset, const std::string& backend, const nlohmann::json& overrides);
  // `method` with its defaults, then `params`. `backend`: auto, cuda or cpu; "" the preset's (else auto).
  static std::unique_ptr<Session> from_method(const std::string& method, const std::string& backend, const nlohmann::json& params);
  // The state of a checkpoint, with its method and parameters; its preset where that file still exists.
  static std::unique_ptr<Session> restart(const std::string& checkpoint, const std::string& backend);

  // Sets the method up on the Runner's worker and waits for it; throws the set-up's error.
  Session(Preset preset, const ParamSet& params, const std::string& backend, const std::string& restart_from = {},
          nlohmann::json checkpoint_preset = nullptr);

  Runner& runner() { return *runner_; }
  const Runner& runner() const { return *runner_; }
  const Preset& preset() const { return preset_; }
  // Whether the worker settled (idle, paused, finished or failed) within `seconds` (< 0: no limit).
  bool wait(double seconds) const;
  // Throws the run's failure (RunFailed, or BadInput where a restart's state was refused), if any.
  void throw_if_failed() const;
  // The state as files take it: the solver's own cells (Runner::file_snapshot); never null.
  std::shared_ptr<const Snapshot> snapshot() const;

  // What `kinetic-run --out` writes in summary.json; `stop_reason` says what ended the last run
  // where the method did not finish ("" before any).
  nlohmann::json summary(const std::string& stop_reason) const;
  // The fields as `format` (vti, vti-ascii, csv), the series and summary.json into `dir`; the files.
  std::vector<std::string> save(const std::string& dir, const std::string& format, const std::string& stop_reason) const;
  // Written between iterations and waited for; throws where it could not be written.
  void checkpoint(const std::string& path);

 private:
  RunRecord record(const std::string& stop_reason) const;

  Preset preset_;
  ExecutionContext ctx_;
  std::chrono::steady_clock::time_point created_ = std::chrono::steady_clock::now();
  std::unique_ptr<Runner> runner_;
};

}  // namespace ks::py
