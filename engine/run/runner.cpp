#include "runner.hpp"

#include <cmath>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "core/errors.hpp"
#include "core/vector_state.hpp"
#include "io/checkpoint.hpp"

namespace ks {

namespace {

// Threads this thread creates afterwards (an OpenMP team) inherit the priority. The lowest: at nice
// 10 a software-rendered (llvmpipe) frame of the bed's 3D scene took 100-150 ms beside the solver on
// 2 cores, at 19 it takes 70-90 ms (the threads that rasterise it get the cores at once).
void lower_this_threads_priority() {
#ifdef __linux__
  constexpr int kNice = 19;
  setpriority(PRIO_PROCESS, pid_t(syscall(SYS_gettid)), kNice);  // best effort: a refusal changes nothing
#endif
}

}  // namespace

std::string to_string(RunState s) {
  switch (s) {
    case RunState::Idle: return "idle";
    case RunState::Running: return "running";
    case RunState::Paused: return "paused";
    case RunState::Finished: return "finished";
    case RunState::Failed: return "failed";
  }
  return "?";
}

Runner::Runner(std::unique_ptr<Method> method, ParamSet params, ExecutionContext ctx, RunnerOptions options)
    : method_(std::move(method)),
      info_(method_->info()),
      ctx_(std::move(ctx)),
      options_(std::move(options)),
      params_(params),
      pending_(std::move(params)) {
  if (ranks_of(ctx_).size() == 1) ctx_.interrupt = Interrupt::make();
#ifdef KS_HAVE_CUDA
  if (ctx_.backend == BackendKind::Cuda && !options_.device_field.empty())
    device_field_ = std::make_shared<DeviceFieldPublisher>(ctx_.cuda_device);
#endif
  busy_ = true;  // the setup below counts as pending work for wait_settled
  commands_.push_back({Command::Kind::Setup});
  worker_ = std::thread([this] { worker_loop(); });
}

Runner::~Runner() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
    steps_left_ = 0;
  }
  ctx_.interrupt.request();
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

// The commands a user waits on: the work under way stops early for them (a step adds to it, a
// checkpoint or a device field waits for its end).
bool Runner::interrupts(Command::Kind kind) {
  using K = Command::Kind;
  return kind == K::Pause || kind == K::Reset || kind == K::SetLive || kind == K::Stop;
}

void Runner::post(Command c) {
  std::lock_guard lock(mutex_);
  post_locked(std::move(c));
}

void Runner::post_locked(Command c) {
  if (interrupts(c.kind)) ctx_.interrupt.request();
  commands_.push_back(std::move(c));
  cv_.notify_all();
}

void Runner::arm_interrupt() {
  ctx_.interrupt.clear();
  bool waiting = quit_;
  for (const Command& c : commands_) waiting = waiting || interrupts(c.kind);
  if (waiting) ctx_.interrupt.request();
}

void Runner::start() { post({Command::Kind::Start}); }
void Runner::pause() { post({Command::Kind::Pause}); }
void Runner::step(std::int64_t n) { post({Command::Kind::Step, n}); }
void Runner::reset() { post({Command::Kind::Reset}); }
void Runner::checkpoint(const std::string& path) { post({Command::Kind::Checkpoint, 0, path}); }
void Runner::show_on_device(const std::string& field, int component) {
  if (device_field_) post({Command::Kind::ShowOnDevice, component, field});
}

void Runner::stop() {
  post({Command::Kind::Stop});
  if (worker_.joinable() && std::this_thread::get_id() != worker_.get_id()) worker_.join();
}

SetResult Runner::set(const std::string& key, const ParamValue& given) {
  std::lock_guard lock(mutex_);
  const ParamSpec* spec = nullptr;
  ParamValue value;
  try {
    spec = &params_.spec(key);
    // Re-validate: the GUI and the CLI validate too, but the Runner is the last gate. Keep the
    // validated value: it has the declared type (an Int given as 20.0 becomes 20, a Real given as 1 becomes 1.0).
    value = validate(*spec, to_json(given), "parameter '" + key + "'");
  } catch (const Error& e) {
    return {SetResult::Status::Refused, e.what()};
  }
  pending_.set(key, value);
  if (spec->live) {
    post_locked({Command::Kind::SetLive, 0, key, value});
    return {SetResult::Status::Applied, key + " = " + to_string(value) + " applies at the next iteration"};
  }
  if (status_.state == RunState::Idle && status_.progress.iteration == 0) {
    post_locked({Command::Kind::Reset});
    return {SetResult::Status::Applied, key + " = " + to_string(value) + " applied (the simulation is set up again)"};
  }
  return {SetResult::Status::Deferred,
          "'" + key + "' cannot change while a simulation is in progress; " + to_string(value) + " applies on Reset"};
}

std::vector<std::string> Runner::take_messages() {
  std::lock_guard lock(mutex_);
  return std::exchange(messages_, {});
}

bool Runner::wait_until(const std::function<bool(RunState)>& pred, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] { return pred(status_.state); });
}

bool Runner::wait_settled(std::chrono::milliseconds timeout) const {
  std::unique_lock lock(mutex_);
  return cv_.wait_for(lock, timeout,
                      [&] { return quit_ || (commands_.empty() && !busy_ && status_.state != RunState::Running && steps_left_ == 0); });
}

void Runner::log(const std::string& line) { messages_.push_back(line); }

void Runner::fail(const std::string& why, ErrorKind kind) {
  status_.state = RunState::Failed;
  status_.error = why;
  status_.error_kind = kind;
  steps_left_ = 0;
  log("run failed: " + why);
}

void Runner::worker_loop() {
  clear_inherited_vector_state();  // the creator's (the app's GUI thread) made libm 30x slower here
  if (options_.yield_to_gui) lower_this_threads_priority();
  std::unique_lock lock(mutex_);
  while (true) {
    cv_.wait(lock, [&] { return quit_ || !commands_.empty() || status_.state == RunState::Running || steps_left_ > 0; });
    if (quit_) break;
    busy_ = true;
    if (!commands_.empty()) {
      Command c = std::move(commands_.front());
      commands_.pop_front();
      handle(c, lock);
    } else if (status_.state == RunState::Running || steps_left_ > 0) {
      iterate(lock);
    }
    busy_ = false;
    cv_.notify_all();
  }
  busy_ = false;
  cv_.notify_all();
}

void Runner::run_setup(std::unique_lock<std::mutex>& lock, const std::string& checkpoint) {
  params_ = pending_;
  const ParamSet params = params_;
  steps_left_ = 0;
  status_.setting_up = true;
  arm_interrupt();
  lock.unlock();
  std::string why;
  ErrorKind kind = ErrorKind::RunFailed;
  MemoryEstimate estimate;
  bool cancelled = false;
  try {
    // Nothing is allocated before the estimate is known to fit.
    estimate = method_->estimate_memory(params, ctx_);
    check_memory(info_.id, estimate, ctx_);
    method_->setup(params, ctx_);
    if (!checkpoint.empty()) load_checkpoint(*method_, ctx_, checkpoint);
  } catch (const Interrupted&) {
    cancelled = true;
  } catch (const Error& e) {
    why = e.what();
    kind = e.kind();
  } catch (const std::exception& e) {
    why = e.what();
  }
  lock.lock();
  status_.setting_up = false;
  ctx_.interrupt.clear();
  if (cancelled) {
    // The method keeps its previous set-up (MethodBase::setup), if it had one; a command waits.
    params_ = method_->params();
    log("set-up cancelled");
    if (!snapshot_) fail("set-up cancelled before it finished: Reset to set up again");
    return;
  }
  status_.memory_estimate = estimate;
  if (!why.empty()) {
    fail("setup failed: " + why, kind);
    return;
  }
  status_.state = RunState::Idle;
  status_.error.clear();
  status_.iterations_per_second = status_.work_per_second = 0.0;
  status_.iteration_seconds = 0.0;
  status_.iteration_traffic = {};
  status_.progress = method_->progress();
  if (!checkpoint.empty()) log("restarted from " + checkpoint + " at iteration " + std::to_string(status_.progress.iteration));
  if (method_->finished()) status_.state = RunState::Finished;
  publish(true);
}

void Runner::handle(const Command& c, std::unique_lock<std::mutex>& lock) {
  using K = Command::Kind;
  switch (c.kind) {
    case K::Setup: run_setup(lock, options_.restart_from); break;
    case K::Reset:
      run_setup(lock, {});
      log("reset: set up again");
      break;
    case K::Start:
      if (status_.state == RunState::Idle || status_.state == RunState::Paused) status_.state = RunState::Running;
      else if (status_.state == RunState::Finished) log("already finished: change the end condition or Reset");
      else if (status_.state == RunState::Failed) log("the run failed (" + status_.error + "): Reset to start again");
      break;
    case K::Pause:
      steps_left_ = 0;
      if (status_.state == RunState::Running) {
        status_.state = RunState::Paused;
        publish(true);
      }
      break;
    case K::Step:
      if (status_.state == RunState::Failed) {
        log("the run failed (" + status_.error + "): Reset to start again");
      } else {
        steps_left_ += c.count;
        if (status_.state == RunState::Idle || status_.state == RunState::Finished) status_.state = RunState::Paused;
      }
      break;
    case K::SetLive: {
      lock.unlock();
      std::string why;
      try {
        method_->set_live(c.key, c.value);
      } catch (const std::exception& e) {
        why = e.what();
      }
      lock.lock();
      if (!why.empty()) {
        log("could not apply " + c.key + ": " + why);
        break;
      }
      params_.set(c.key, c.value);
      log(c.key + " = " + to_string(c.value) + " applied at iteration " + std::to_string(status_.progress.iteration));
      // A finished run may have more to do after a live change (a later end time).
      if (status_.state == RunState::Finished && !method_->finished()) status_.state = RunState::Paused;
      if (status_.state == RunState::Paused && method_->finished()) status_.state = RunState::Finished;
      status_.progress = method_->progress();
      publish(true);
      break;
    }
    case K::Checkpoint: {
      status_.last_checkpoint = {c.key, {}, ErrorKind::RunFailed};
      if (status_.state == RunState::Failed) {
        status_.last_checkpoint.error = "not written: the run failed (" + status_.error + "); the previous checkpoint is kept";
        log("checkpoint " + c.key + " " + status_.last_checkpoint.error);
        break;
      }
      lock.unlock();
      std::string why;
      ErrorKind kind = ErrorKind::RunFailed;
      try {
        save_checkpoint(*method_, ctx_, c.key, options_.checkpoint_preset);
      } catch (const Error& e) {
        why = e.what();
        kind = e.kind();
      } catch (const std::exception& e) {
        why = e.what();
      }
      lock.lock();
      status_.last_checkpoint = {c.key, why, kind};
      log(why.empty() ? "checkpoint written: " + c.key : "checkpoint failed: " + why);
      break;
    }
    case K::ShowOnDevice: {
      options_.device_field = c.key;
      options_.device_component = c.count;
      if (status_.state == RunState::Running || !method_) break;  // the next publication shows it
      lock.unlock();
      const std::string why = publish_device_field();
      lock.lock();
      if (!why.empty()) log("device field failed: " + why);
      break;
    }
    case K::Stop:
      steps_left_ = 0;
      if (status_.state == RunState::Running) status_.state = RunState::Paused;
      publish(true);
      quit_ = true;
      break;
  }
}

void Runner::iterate(std::unique_lock<std::mutex>& lock) {
  if (method_->finished()) {
    status_.state = RunState::Finished;
    steps_left_ = 0;
    publish(true);
    return;
  }
  const Progress before = status_.progress;
  arm_interrupt();
  lock.unlock();
  const auto t0 = std::chrono::steady_clock::now();
  const Communicator::Traffic traffic0 = ranks_of(ctx_).traffic();
  std::string why;
  Progress after;
  bool pause = false;
  try {
    method_->advance();
    after = method_->progress();
    if (!std::isfinite(after.sim_time) || !std::isfinite(after.residual))
      throw run_failed("the state is no longer finite (NaN or Inf) at iteration " + std::to_string(after.iteration));
    if (options_.after_iteration) options_.after_iteration(*method_, ctx_);
    if (options_.pause_after_iteration) pause = options_.pause_after_iteration();
  } catch (const std::exception& e) {
    why = e.what();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Communicator::Traffic traffic1 = ranks_of(ctx_).traffic();
  lock.lock();
  // Stopped by a command (pause, reset, a live change, quit): that command comes next and publishes
  // what it needs; a snapshot here (the BGK cavity's moments: seconds on 2 cores) delayed it.
  const bool interrupted = ctx_.interrupt.requested();
  ctx_.interrupt.clear();
  if (!why.empty()) {
    fail(why);  // the last good snapshot stays published
    return;
  }
  status_.progress = after;
  status_.iteration_seconds += seconds;
  status_.iteration_traffic.seconds += traffic1.seconds - traffic0.seconds;
  status_.iteration_traffic.bytes += traffic1.bytes - traffic0.bytes;
  if (seconds > 0.0) {
    const double a = 0.3;  // exponential moving average over a few iterations
    const double ir = 1.0 / seconds, wr = (after.work_done - before.work_done) / seconds;
    status_.iterations_per_second = status_.iterations_per_second == 0.0 ? ir : (1 - a) * status_.iterations_per_second + a * ir;
    status_.work_per_second = status_.work_per_second == 0.0 ? wr : (1 - a) * status_.work_per_second + a * wr;
  }
  if (steps_left_ > 0 && --steps_left_ == 0 && status_.state != RunState::Running) status_.state = RunState::Paused;
  if (pause) {
    steps_left_ = 0;
    status_.state = RunState::Paused;
  }
  if (method_->finished()) {
    status_.state = RunState::Finished;
    steps_left_ = 0;
  }
  const bool ended = status_.state != RunState::Running && steps_left_ == 0;
  if (ended || !interrupted) publish(ended);  // forced where a run or its steps end
}

// Builds the snapshot with the lock released: readers keep the previous one meanwhile. Under MPI a
// snapshot may be a collective (Method::snapshot), so only the forced ones are taken: they follow the
// same commands and iterations on every rank.
void Runner::publish(bool force) {
  if (quit_) return;  // nobody reads it: the Runner is being destroyed
  const auto now = std::chrono::steady_clock::now();
  if (!force && (now - last_publish_ < options_.snapshot_interval || ranks_of(ctx_).size() > 1)) return;
  last_publish_ = now;
  std::unique_lock<std::mutex> lock(mutex_, std::adopt_lock);
  lock.unlock();
  std::shared_ptr<const Snapshot> snap, files;
  std::string why, device_why;
  try {
    snap = std::make_shared<const Snapshot>(method_->snapshot());
    std::optional<Snapshot> own = method_->file_snapshot();
    files = own ? std::make_shared<const Snapshot>(std::move(*own)) : snap;
    device_why = publish_device_field();
  } catch (const std::exception& e) {
    why = e.what();
  }
  lock.lock();
  lock.release();
  if (snap && files) {
    snapshot_ = std::move(snap);
    file_snapshot_ = std::move(files);
  } else {
    log("snapshot failed: " + why);
  }
  if (!device_why.empty()) log("device field failed: " + device_why);
}

// The method's device copy of the selected field for zero-copy views (after its snapshot).
std::string Runner::publish_device_field() {
#ifdef KS_HAVE_CUDA
  try {
    if (device_field_) device_field_->publish(*method_, options_.device_field, options_.device_component);
  } catch (const std::exception& e) {
    return e.what();
  }
#endif
  return {};
}

}  // namespace ks
