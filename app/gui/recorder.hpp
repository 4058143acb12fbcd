// File > Record time series: the fields every N iterations into a folder as numbered datasets and
// .pvd collections (io/time_series.hpp), the files kinetic-run --output-every writes. The writing
// happens on the runner's worker after the iteration (RunnerOptions::after_iteration), so no output
// is skipped however fast the run goes. A write that fails stops the recording, never the run, and
// the app shows why (take_messages).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/method.hpp"
#include "io/time_series.hpp"

namespace ks::gui {

class Recorder {
 public:
  // Starts recording into `dir` every `every` iterations, writing `current` (the state shown) first.
  // Throws ks::Error when that first write fails (nothing is recorded then).
  void start(const std::string& dir, std::int64_t every, const Snapshot& current);
  // Stops; `why` goes to the messages ("" for none).
  void stop(const std::string& why = {});
  bool active() const;
  // On the worker, after every iteration: writes the method's fields when the iteration is due.
  void after_iteration(const Method& method);
  // What happened since the last call: outputs written, the recording stopped and why.
  std::vector<std::string> take_messages();

 private:
  void stop_locked(const std::string& why);

  mutable std::mutex mutex_;
  std::optional<TimeSeriesWriter> writer_;
  std::int64_t every_ = 0, last_ = -1;  // the period and the last iteration written
  int outputs_ = 0;
  std::vector<std::string> messages_;
};

}  // namespace ks::gui
