#include "recorder.hpp"

#include <exception>
#include <utility>

#include "io/output_file.hpp"

namespace ks::gui {

void Recorder::start(const std::string& dir, std::int64_t every, const Snapshot& current) {
  std::lock_guard lock(mutex_);
  prepare_output_dir(dir, "the recording's folder");
  TimeSeriesWriter writer(dir, VtkEncoding::Binary);
  writer.write(current.fields, current.progress.iteration, current.progress.sim_time);
  writer_.emplace(std::move(writer));
  every_ = every;
  last_ = current.progress.iteration;
  outputs_ = 1;
}

void Recorder::stop(const std::string& why) {
  std::lock_guard lock(mutex_);
  stop_locked(why);
}

void Recorder::stop_locked(const std::string& why) {
  if (!writer_) return;
  std::string files;
  for (const auto& pvd : writer_->collections()) files += (files.empty() ? "" : ", ") + pvd;
  messages_.push_back("recording stopped" + (why.empty() ? std::string() : " (" + why + ")") + ": " + std::to_string(outputs_) +
                      " outputs in " + files);
  writer_.reset();
}

bool Recorder::active() const {
  std::lock_guard lock(mutex_);
  return writer_.has_value();
}

void Recorder::after_iteration(const Method& method) {
  std::lock_guard lock(mutex_);
  if (!writer_) return;
  const Progress p = method.progress();
  if (p.iteration <= last_) return stop_locked("the run went back to iteration " + std::to_string(p.iteration));
  if (p.iteration % every_ != 0) return;
  try {
    const Snapshot snap = snapshot_for_files(method);
    writer_->write(snap.fields, p.iteration, p.sim_time);
    last_ = p.iteration;
    ++outputs_;
  } catch (const std::exception& e) {
    stop_locked(std::string("could not write: ") + e.what());
  }
}

std::vector<std::string> Recorder::take_messages() {
  std::lock_guard lock(mutex_);
  return std::exchange(messages_, {});
}

}  // namespace ks::gui
