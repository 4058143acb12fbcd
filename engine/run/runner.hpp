// The Runner owns one method on a worker thread. Clients (GUI, CLI, tests) post
// commands and read progress and the latest complete snapshot; they never call
// the method and never wait for a solver step.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/communicator.hpp"
#include "core/errors.hpp"
#include "core/method.hpp"
#include "device_field.hpp"

namespace ks {

enum class RunState { Idle, Running, Paused, Finished, Failed };
std::string to_string(RunState s);

struct SetResult {
  enum class Status { Applied, Deferred, Refused };
  Status status = Status::Refused;
  std::string message;
};

struct RunnerOptions {
  // Minimum time between published snapshots while running (paused/finished/failed always publish).
  std::chrono::milliseconds snapshot_interval{100};
  // Called on the worker thread after every completed iteration (checkpoints, logging).
  std::function<void(const Method&, const ExecutionContext&)> after_iteration;
  // Called on the worker after every completed iteration (after after_iteration); true pauses the run
  // there. Under MPI it is where the ranks agree to stop (a collective after the same iteration on
  // every rank), so that none waits in a collective the others never reach.
  std::function<bool()> pause_after_iteration;
  // When set, the state is loaded from this checkpoint after setup (a restart).
  std::string restart_from;
  // Recorded in every checkpoint ({"file", "title", "case"} of the preset), checked on restart.
  nlohmann::json checkpoint_preset;
  // CUDA backend: after every snapshot also publish this field (and component, -1 for a scalar or
  // a vector's magnitude) in device memory for zero-copy views (see device_field.hpp); ignored
  // without CUDA. Runner::show_on_device changes the selection.
  std::string device_field;
  int device_component = -1;
  // Where the Runner shares the cores with a window: the worker (and the OpenMP threads it starts)
  // runs at a lower priority (nice 19 on Linux), so that the GUI thread gets a core when it needs
  // one; an idle window costs the solver nothing.
  bool yield_to_gui = false;
};

struct CheckpointOutcome {
  std::string path;   // "" before the first checkpoint command
  std::string error;  // "" when written
  ErrorKind kind = ErrorKind::RunFailed;
};

// What a front end shows of a run (Runner::status).
struct RunStatus {
  RunState state = RunState::Idle;
  bool setting_up = false;  // a set-up (the first one or a reset) is under way
  Progress progress;
  std::string error;                            // why it failed
  ErrorKind error_kind = ErrorKind::RunFailed;  // bad input (e.g. a checkpoint) or a run failure
  double iterations_per_second = 0.0, work_per_second = 0.0;
  // Seconds spent in iterations since the set-up (advance and what follows it on the worker, the
  // snapshots excluded), and this rank's time in collectives and bytes sent within them (under MPI).
  double iteration_seconds = 0.0;
  Communicator::Traffic iteration_traffic;
  // The last checkpoint command's outcome; the estimate the last set-up was checked against
  // (Method::estimate_memory).
  CheckpointOutcome last_checkpoint;
  MemoryEstimate memory_estimate;
};

class Runner {
 public:
  // Sets the method up on the worker thread; state is Idle when that is done (or Failed).
  Runner(std::unique_ptr<Method> method, ParamSet params, ExecutionContext ctx, RunnerOptions options = {});
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // Commands: non-blocking, applied in order on the worker.
  void start();  // run until finished (from idle or paused)
  // Pause, reset, stop, a live change and the destructor ask the running set-up or iteration to stop
  // at its next consistent point (core/interrupt.hpp): within a fraction of a second in one process,
  // an iteration's end under MPI.
  void pause();                   // at the next consistent point of the current iteration
  void step(std::int64_t n = 1);  // n iterations, then paused
  void reset();                   // set up again with the current and deferred parameters
  void stop();                    // end the current iteration early, publish, end the worker; waits for it
  // Written between iterations; never from a failed run or a state holding NaN (the previous file
  // is kept). The outcome is logged and kept in last_checkpoint().
  void checkpoint(const std::string& path);
  // Zero-copy views: publish `field` (`component`) in device memory from now on; when not running
  // it is published at once. No effect without a device field (CPU backend, none asked).
  void show_on_device(const std::string& field, int component);
  // Validated at once. Live parameters apply at the next iteration; others apply at once while
  // idle, and are deferred to the next reset otherwise (Deferred, with a message saying so).
  SetResult set(const std::string& key, const ParamValue& value);

  // Everything a front end shows of the run, read at once: its parts agree (a state with its progress).
  RunStatus status() const { return locked(status_); }
  // One part of status(), for a caller that needs only that.
  CheckpointOutcome last_checkpoint() const { return locked(status_.last_checkpoint); }
  MemoryEstimate memory_estimate() const { return locked(status_.memory_estimate); }
  RunState state() const { return locked(status_.state); }
  Progress progress() const { return locked(status_.progress); }
  bool setting_up() const { return locked(status_.setting_up); }
  std::string error() const { return locked(status_.error); }
  ErrorKind error_kind() const { return locked(status_.error_kind); }
  double iterations_per_second() const { return locked(status_.iterations_per_second); }
  double iteration_seconds() const { return locked(status_.iteration_seconds); }
  Communicator::Traffic iteration_traffic() const { return locked(status_.iteration_traffic); }
  double work_per_second() const { return locked(status_.work_per_second); }

  // What the worker is doing while a set-up or an iteration takes long: its stage and fraction
  // ("packing spheres", 0.4); empty between them and for methods that do not say.
  WorkStage work_stage() const { return ctx_.interrupt.stage(); }
  std::shared_ptr<const Snapshot> snapshot() const { return locked(snapshot_); }  // latest complete one (null before setup)
  // The same state as files take it (Method::file_snapshot): the same object where the method has
  // no file snapshot of its own.
  std::shared_ptr<const Snapshot> file_snapshot() const { return locked(file_snapshot_); }
  std::vector<std::string> take_messages();  // log lines since the last call
  const ExecutionContext& context() const { return ctx_; }
  // The device copy of RunnerOptions::device_field, or null (CPU backend, no CUDA, not asked).
  const DeviceFieldPublisher* device_field() const { return device_field_.get(); }
  const MethodInfo& info() const { return info_; }
  ParamSet params() const { return locked(params_); }           // what the method runs with now
  ParamSet pending_params() const { return locked(pending_); }  // what the next set-up (reset) will run with

  // Waits until pred(state) holds or the timeout passes; returns pred's final value.
  bool wait_until(const std::function<bool(RunState)>& pred, std::chrono::milliseconds timeout) const;
  // Blocks until no command is pending and the worker is idle, paused, finished or failed.
  bool wait_settled(std::chrono::milliseconds timeout) const;

 private:
  // A copy of one member, read under the lock: the getters above.
  template <class T>
  T locked(const T& member) const {
    std::lock_guard lock(mutex_);
    return member;
  }

  struct Command {
    enum class Kind { Setup, Start, Pause, Step, Reset, SetLive, Checkpoint, ShowOnDevice, Stop } kind;
    std::int64_t count = 0;
    std::string key;
    ParamValue value;
  };
  void post(Command c);
  void post_locked(Command c);  // post() with mutex_ held
  static bool interrupts(Command::Kind kind);
  void arm_interrupt();  // with the lock held, before a set-up or an iteration
  void worker_loop();
  void handle(const Command& c, std::unique_lock<std::mutex>& lock);
  void run_setup(std::unique_lock<std::mutex>& lock, const std::string& checkpoint);
  void iterate(std::unique_lock<std::mutex>& lock);
  void publish(bool force);
  std::string publish_device_field();  // with the lock released; the error, or ""
  void fail(const std::string& why, ErrorKind kind = ErrorKind::RunFailed);
  void log(const std::string& line);

  std::unique_ptr<Method> method_;
  const MethodInfo info_;
  ExecutionContext ctx_;
  RunnerOptions options_;

  mutable std::mutex mutex_;
  mutable std::condition_variable cv_;
  std::deque<Command> commands_;
  bool busy_ = false;  // the worker is executing a command or an iteration
  RunStatus status_;
  ParamSet params_;   // what the method was set up with, plus live changes
  ParamSet pending_;  // applies at the next reset
  std::int64_t steps_left_ = 0;
  bool quit_ = false;
  std::shared_ptr<const Snapshot> snapshot_, file_snapshot_;
  std::chrono::steady_clock::time_point last_publish_{};
  std::vector<std::string> messages_;

  // shared_ptr: destructible where DeviceFieldPublisher's implementation is absent (CPU-only builds)
  std::shared_ptr<DeviceFieldPublisher> device_field_;

  std::thread worker_;  // last: starts after every member above exists
};

}  // namespace ks
