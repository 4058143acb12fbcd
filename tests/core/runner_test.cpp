// The Runner with a small test-only method: exponential decay y' = -k y by
// explicit Euler. k is live, y0 and n are not, poison_at (live) makes advance()
// produce NaN at that iteration, and sleep_us (live) slows iterations down for
// tests that need a run in progress.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/checked.hpp"
#include "core/errors.hpp"
#include "core/vector_state.hpp"
#include "dirty_vector_state.hpp"
#include "io/binary_io.hpp"
#include "io/checkpoint.hpp"
#include "run/runner.hpp"

namespace {

using namespace std::chrono_literals;

constexpr double kDt = 0.1;
constexpr auto kTimeout = std::chrono::milliseconds(10000);

ks::ParamSpec spec(const std::string& key, ks::ParamType type, ks::ParamValue def, double lo, double hi, bool live) {
  ks::ParamSpec s;
  s.key = key;
  s.label = key;
  s.type = type;
  s.default_value = def;
  s.min = lo;
  s.max = hi;
  s.live = live;
  return s;
}

const ks::MethodInfo& decay_info() {
  static const ks::MethodInfo info = [] {
    ks::MethodInfo i;
    i.id = "test.decay";
    i.title = "Exponential decay (test)";
    i.params = {spec("k", ks::ParamType::Real, 0.1, 0.0, 10.0, true), spec("y0", ks::ParamType::Real, 1.0, 0.0, 100.0, false),
                spec("n", ks::ParamType::Int, std::int64_t{10}, 1, 1e15, false),
                spec("poison_at", ks::ParamType::Int, std::int64_t{0}, 0, 1e9, true),
                spec("sleep_us", ks::ParamType::Int, std::int64_t{0}, 0, 100000, true)};
    i.fields = {{"y", "", 1, "the decaying value"}};
    i.series = {"y", "k"};
    return i;
  }();
  return info;
}

std::atomic<int> g_decay_setups{0};  // how often DecayMethod::setup ran

class DecayMethod final : public ks::Method {
 public:
  DecayMethod() : params_(decay_info().params) {}
  const ks::MethodInfo& info() const override { return decay_info(); }

  // The two histories grow to n doubles each.
  ks::MemoryEstimate estimate_memory(const ks::ParamSet& params, const ks::ExecutionContext&) const override {
    const std::int64_t n = params.get_int("n");
    return {std::uint64_t(ks::checked_product({n, 2, 8}, "n")), 0, "n = " + std::to_string(n) + " x 2 histories x 8 B"};
  }
  void setup(const ks::ParamSet& params, const ks::ExecutionContext&) override {
    ++g_decay_setups;
    params_ = params;
    k_ = params.get_real("k");
    y0_ = params.get_real("y0");
    n_ = params.get_int("n");
    poison_at_ = params.get_int("poison_at");
    sleep_us_ = params.get_int("sleep_us");
    y_ = y0_;
    iter_ = 0;
    ys_.clear();
    ks_.clear();
  }
  void advance() override {
    if (sleep_us_ > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us_));
    ++iter_;
    y_ = (poison_at_ > 0 && iter_ == poison_at_) ? std::numeric_limits<double>::quiet_NaN() : y_ - kDt * k_ * y_;
    ys_.push_back(y_);
    ks_.push_back(k_);
  }
  bool finished() const override { return iter_ >= n_; }
  void set_live(const std::string& key, const ks::ParamValue& value) override {
    if (key == "k") k_ = std::get<double>(value);
    else if (key == "poison_at") poison_at_ = std::get<std::int64_t>(value);
    else if (key == "sleep_us") sleep_us_ = std::get<std::int64_t>(value);
    else throw ks::bad_input(key, "not live");
    params_.set(key, value);
  }
  ks::Progress progress() const override {
    ks::Progress p;
    p.iteration = iter_;
    p.sim_time = iter_ * kDt;
    p.time_unit = "s";
    p.residual = std::abs(y_);
    p.fraction_done = double(iter_) / double(n_);
    p.work_done = double(iter_);
    p.work_unit = "steps";
    return p;
  }
  ks::Snapshot snapshot() const override {
    ks::Snapshot s;
    s.progress = progress();
    ks::FieldData f;
    f.desc = decay_info().fields[0];
    f.values = {y_};
    s.fields = {f};
    ks::Series y{"y", "iteration", "y"}, k{"k", "iteration", "k"};
    for (std::size_t i = 0; i < ys_.size(); ++i) {
      y.x.push_back(double(i + 1));
      y.y.push_back(ys_[i]);
      k.x.push_back(double(i + 1));
      k.y.push_back(ks_[i]);
    }
    s.series = {y, k};
    s.diagnostics = {{"k", k_}, {"y0", y0_}, {"n", n_}};
    return s;
  }
  const ks::ParamSet& params() const override { return params_; }
  void save_state(std::ostream& out) const override {
    ks::bin::write_tag(out, "test.decay", 1);
    ks::bin::write(out, iter_);
    ks::bin::write(out, y_);
    ks::bin::write(out, k_);
    ks::bin::write_vector(out, ys_);
    ks::bin::write_vector(out, ks_);
  }
  void load_state(std::istream& in) override {
    ks::bin::expect_tag(in, "test.decay", 1);
    const auto iter = ks::bin::read<std::int64_t>(in);
    const auto y = ks::bin::read<double>(in), k = ks::bin::read<double>(in);
    auto ys = ks::bin::read_vector<double>(in, std::uint64_t(n_)), kk = ks::bin::read_vector<double>(in, std::uint64_t(n_));
    if (iter < 0 || iter > n_ || ys.size() != std::size_t(iter) || kk.size() != ys.size())
      throw ks::bad_input("checkpoint", "test.decay state of " + std::to_string(iter) + " iterations is inconsistent");
    iter_ = iter, y_ = y, k_ = k, ys_ = std::move(ys), ks_ = std::move(kk);
  }

 private:
  ks::ParamSet params_;
  double k_ = 0.0, y0_ = 0.0, y_ = 0.0;
  std::int64_t n_ = 0, poison_at_ = 0, sleep_us_ = 0, iter_ = 0;
  std::vector<double> ys_, ks_;
};

ks::ParamSet decay_params(std::int64_t n, std::int64_t sleep_us = 0, std::int64_t poison_at = 0) {
  ks::ParamSet p(decay_info().params);
  p.set("n", n);
  p.set("sleep_us", sleep_us);
  p.set("poison_at", poison_at);
  return p;
}

std::unique_ptr<ks::Runner> make_runner(const ks::ParamSet& params, ks::RunnerOptions opt = {}) {
  return std::make_unique<ks::Runner>(std::make_unique<DecayMethod>(), params, ks::ExecutionContext{}, std::move(opt));
}

ks::RunnerOptions every_snapshot() { return ks::RunnerOptions{std::chrono::milliseconds(0)}; }

// Waits (polling with a deadline) until the runner has completed at least `n` iterations.
bool wait_for_iteration(const ks::Runner& r, std::int64_t n, std::chrono::milliseconds timeout = kTimeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (r.progress().iteration < n) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

const ks::Series& series(const ks::Snapshot& s, const std::string& name) {
  for (const auto& x : s.series)
    if (x.name == name) return x;
  throw std::runtime_error("no series " + name);
}

// y_i = y_{i-1} - dt k_i y_{i-1}, exactly as the method computes it, with the k it recorded.
void expect_exact_euler_history(const ks::Snapshot& s, double y0) {
  const ks::Series& y = series(s, "y");
  const ks::Series& k = series(s, "k");
  ASSERT_EQ(y.y.size(), std::size_t(s.progress.iteration)) << "one recorded value per iteration";
  ASSERT_EQ(k.y.size(), y.y.size());
  double expect = y0;
  for (std::size_t i = 0; i < y.y.size(); ++i) {
    expect = expect - kDt * k.y[i] * expect;
    ASSERT_EQ(y.y[i], expect) << "iteration " << i + 1;
  }
}

bool has_message_containing(const std::vector<std::string>& messages, const std::string& part) {
  for (const auto& m : messages)
    if (m.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(Runner, SetupReachesIdleWithInitialSnapshot) {
  auto r = make_runner(decay_params(10));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Idle);
  EXPECT_EQ(r->progress().iteration, 0);
  EXPECT_EQ(r->info().id, "test.decay");
  const auto snap = r->snapshot();
  ASSERT_TRUE(snap);
  EXPECT_EQ(snap->progress.iteration, 0);
  ASSERT_EQ(snap->fields.size(), 1u);
  EXPECT_EQ(snap->fields[0].values.at(0), 1.0);
  EXPECT_EQ(r->file_snapshot(), snap);  // no file snapshot of its own: files take the same object
  EXPECT_TRUE(r->error().empty());
}

TEST(Runner, StepDoesExactlyNIterationsThenPauses) {
  auto r = make_runner(decay_params(100), every_snapshot());
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->step(7);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Paused);
  EXPECT_EQ(r->progress().iteration, 7);
  auto snap = r->snapshot();
  ASSERT_TRUE(snap);
  EXPECT_EQ(snap->progress.iteration, 7);
  expect_exact_euler_history(*snap, 1.0);

  r->step(3);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Paused);
  EXPECT_EQ(r->progress().iteration, 10);
  snap = r->snapshot();
  EXPECT_EQ(snap->progress.iteration, 10);
  expect_exact_euler_history(*snap, 1.0);
}

TEST(Runner, StepPastTheEndStopsAtFinished) {
  auto r = make_runner(decay_params(5));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->step(8);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Finished);
  EXPECT_EQ(r->progress().iteration, 5);
  EXPECT_EQ(r->snapshot()->progress.iteration, 5);
}

TEST(Runner, StartPauseAndStartAgainContinueWithoutLosingIterations) {
  const std::int64_t n = 5000;  // ~5 s at 1 ms per iteration: the pause comes long before the end
  auto r = make_runner(decay_params(n, 1000), every_snapshot());
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  ASSERT_TRUE(wait_for_iteration(*r, 5));
  r->pause();
  ASSERT_TRUE(r->wait_settled(kTimeout));
  ASSERT_EQ(r->state(), ks::RunState::Paused);
  const std::int64_t paused_at = r->progress().iteration;
  EXPECT_GE(paused_at, 5);
  EXPECT_LT(paused_at, n);
  auto snap = r->snapshot();
  EXPECT_EQ(snap->progress.iteration, paused_at);
  expect_exact_euler_history(*snap, 1.0);

  // Paused means paused: nothing moves while we wait for commands.
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->progress().iteration, paused_at);

  ASSERT_EQ(r->set("sleep_us", std::int64_t{0}).status, ks::SetResult::Status::Applied);  // finish quickly
  r->start();                                                                             // resume
  ASSERT_TRUE(r->wait_until([](ks::RunState s) { return s == ks::RunState::Finished; }, kTimeout));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->progress().iteration, n);
  snap = r->snapshot();
  EXPECT_EQ(snap->progress.iteration, n);
  expect_exact_euler_history(*snap, 1.0);
  // Start after the end is a no-op with a message.
  r->take_messages();
  r->start();
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Finished);
  EXPECT_TRUE(has_message_containing(r->take_messages(), "already finished"));
}

TEST(Runner, AfterIterationCallbackRunsOncePerIteration) {
  auto calls = std::make_shared<std::atomic<int>>(0);
  ks::RunnerOptions opt;
  opt.after_iteration = [calls](const ks::Method&, const ks::ExecutionContext&) { ++*calls; };
  auto r = make_runner(decay_params(12), opt);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  ASSERT_TRUE(r->wait_until([](ks::RunState s) { return s == ks::RunState::Finished; }, kTimeout));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(calls->load(), 12);
}

// Created by a thread whose upper vector state is in use (the app's GUI thread after its GL driver),
// the solver thread does not keep it: legacy-SSE code (glibc's log) ran 30x slower with it (issue 49).
TEST(Runner, TheSolverThreadDoesNotKeepItsCreatorsUpperVectorState) {
  if (!ks::upper_vector_state_observable()) GTEST_SKIP() << "this CPU does not report XINUSE (or has no AVX)";
  auto in_use = std::make_shared<std::atomic<int>>(-1);
  ks::RunnerOptions opt;
  opt.after_iteration = [in_use](const ks::Method&, const ks::ExecutionContext&) { *in_use = ks::upper_vector_state_in_use(); };
  leave_upper_vector_state_in_use();
  auto r = make_runner(decay_params(1), opt);
  ks::clear_inherited_vector_state();  // this test's thread, for the tests after it
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  ASSERT_TRUE(r->wait_until([](ks::RunState s) { return s == ks::RunState::Finished; }, kTimeout));
  EXPECT_EQ(in_use->load(), 0);
}

TEST(Runner, LiveChangeWhilePausedAppliesAtTheNextIteration) {
  auto r = make_runner(decay_params(100), every_snapshot());
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->step(5);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  const ks::SetResult res = r->set("k", 0.5);
  EXPECT_EQ(res.status, ks::SetResult::Status::Applied) << res.message;
  EXPECT_NE(res.message.find("next iteration"), std::string::npos) << res.message;
  r->step(5);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Paused);
  EXPECT_DOUBLE_EQ(r->params().get_real("k"), 0.5);
  const auto snap = r->snapshot();
  ASSERT_EQ(snap->progress.iteration, 10);
  const ks::Series& k = series(*snap, "k");
  const std::vector<double> expected = {0.1, 0.1, 0.1, 0.1, 0.1, 0.5, 0.5, 0.5, 0.5, 0.5};
  EXPECT_EQ(k.y, expected);
  expect_exact_euler_history(*snap, 1.0);
}

TEST(Runner, LiveChangeMidRunIsAppliedAndTheRunGoesOn) {
  auto r = make_runner(decay_params(1000000, 200), every_snapshot());
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  ASSERT_TRUE(wait_for_iteration(*r, 3));
  const std::int64_t at_set = r->progress().iteration;
  const ks::SetResult res = r->set("k", 0.5);
  EXPECT_EQ(res.status, ks::SetResult::Status::Applied) << res.message;
  // The run keeps going and reaches iterations that use the new value.
  ASSERT_TRUE(wait_for_iteration(*r, at_set + 20));
  EXPECT_EQ(r->state(), ks::RunState::Running);
  r->pause();
  ASSERT_TRUE(r->wait_settled(kTimeout));
  const auto snap = r->snapshot();
  const ks::Series& k = series(*snap, "k");
  ASSERT_EQ(k.y.size(), std::size_t(snap->progress.iteration));
  // k switches from 0.1 to 0.5 exactly once, no earlier than the iteration after the set.
  std::size_t first_new = k.y.size();
  for (std::size_t i = 0; i < k.y.size(); ++i)
    if (k.y[i] == 0.5) {
      first_new = i;
      break;
    }
  ASSERT_LT(first_new, k.y.size()) << "the new k was never used";
  EXPECT_GE(first_new, std::size_t(at_set)) << "applied before it was set";
  for (std::size_t i = 0; i < k.y.size(); ++i) EXPECT_EQ(k.y[i], i < first_new ? 0.1 : 0.5) << "iteration " << i + 1;
  EXPECT_DOUBLE_EQ(snap->diagnostics["k"].get<double>(), 0.5);
  expect_exact_euler_history(*snap, 1.0);
  r->stop();
}

TEST(Runner, NonLiveChangeWhileIdleBeforeTheFirstIterationAppliesAtOnce) {
  auto r = make_runner(decay_params(10));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  const ks::SetResult res = r->set("y0", 4.0);
  EXPECT_EQ(res.status, ks::SetResult::Status::Applied) << res.message;
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Idle);
  EXPECT_DOUBLE_EQ(r->params().get_real("y0"), 4.0);
  EXPECT_EQ(r->snapshot()->fields[0].values.at(0), 4.0);
}

TEST(Runner, NonLiveChangeWhileRunningIsDeferredUntilReset) {
  auto r = make_runner(decay_params(1000000, 200), every_snapshot());
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  ASSERT_TRUE(wait_for_iteration(*r, 2));
  const ks::SetResult res = r->set("y0", 5.0);
  EXPECT_EQ(res.status, ks::SetResult::Status::Deferred) << res.message;
  EXPECT_NE(res.message.find("y0"), std::string::npos) << res.message;
  EXPECT_NE(res.message.find("applies on Reset"), std::string::npos) << res.message;
  // Not applied: the run goes on with the old value.
  EXPECT_DOUBLE_EQ(r->params().get_real("y0"), 1.0);
  const std::int64_t at_set = r->progress().iteration;
  ASSERT_TRUE(wait_for_iteration(*r, at_set + 5));
  r->pause();
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Paused);
  auto snap = r->snapshot();
  EXPECT_DOUBLE_EQ(snap->diagnostics["y0"].get<double>(), 1.0);
  expect_exact_euler_history(*snap, 1.0);
  EXPECT_DOUBLE_EQ(r->params().get_real("y0"), 1.0);

  r->reset();
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Idle);
  EXPECT_EQ(r->progress().iteration, 0);
  EXPECT_DOUBLE_EQ(r->params().get_real("y0"), 5.0);
  snap = r->snapshot();
  EXPECT_EQ(snap->progress.iteration, 0);
  EXPECT_EQ(snap->fields[0].values.at(0), 5.0);
  r->step(3);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  expect_exact_euler_history(*r->snapshot(), 5.0);
}

TEST(Runner, UnknownKeyOrOutOfRangeOrWrongTypeIsRefused) {
  auto r = make_runner(decay_params(10));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  const ks::SetResult unknown = r->set("q", 1.0);
  EXPECT_EQ(unknown.status, ks::SetResult::Status::Refused);
  EXPECT_NE(unknown.message.find("unknown parameter 'q'"), std::string::npos) << unknown.message;
  EXPECT_NE(unknown.message.find("k, y0, n"), std::string::npos) << unknown.message;

  const ks::SetResult range = r->set("k", 11.0);
  EXPECT_EQ(range.status, ks::SetResult::Status::Refused);
  EXPECT_NE(range.message.find("out of range"), std::string::npos) << range.message;
  EXPECT_NE(range.message.find("[0, 10]"), std::string::npos) << range.message;

  const ks::SetResult type = r->set("n", std::string("many"));
  EXPECT_EQ(type.status, ks::SetResult::Status::Refused);
  EXPECT_NE(type.message.find("wrong type"), std::string::npos) << type.message;

  // Nothing changed, nothing was queued.
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_DOUBLE_EQ(r->params().get_real("k"), 0.1);
  EXPECT_EQ(r->params().get_int("n"), 10);
  r->step(2);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(series(*r->snapshot(), "k").y, (std::vector<double>{0.1, 0.1}));
  r->reset();  // a refused value is not pending either
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_DOUBLE_EQ(r->params().get_real("k"), 0.1);
}

// The Runner is the last gate: a value of another alternative that validates (an integer for a
// real, an integral real for an int) must reach the method with the declared type.
TEST(Runner, SetStoresTheValidatedValueWithTheDeclaredType) {
  auto r = make_runner(decay_params(10), every_snapshot());
  ASSERT_TRUE(r->wait_settled(kTimeout));
  const ks::SetResult n = r->set("n", 20.0);  // Int parameter given a real
  ASSERT_EQ(n.status, ks::SetResult::Status::Applied) << n.message;
  ASSERT_TRUE(r->wait_settled(kTimeout));
  ASSERT_NE(r->state(), ks::RunState::Failed) << r->error();
  EXPECT_EQ(r->params().get_int("n"), 20);

  const ks::SetResult k = r->set("k", std::int64_t{1});  // live Real parameter given an integer
  ASSERT_EQ(k.status, ks::SetResult::Status::Applied) << k.message;
  r->step(2);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_DOUBLE_EQ(r->params().get_real("k"), 1.0);
  EXPECT_EQ(series(*r->snapshot(), "k").y, (std::vector<double>{1.0, 1.0}));
}

TEST(Runner, StopDuringALongRunReturnsPromptlyAndKeepsTheLastSnapshot) {
  auto r = make_runner(decay_params(1000000000, 200));  // ~2e5 s of iterations
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  ASSERT_TRUE(wait_for_iteration(*r, 10));
  const auto t0 = std::chrono::steady_clock::now();
  r->stop();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 2.0);
  EXPECT_NE(r->state(), ks::RunState::Running);
  EXPECT_NE(r->state(), ks::RunState::Failed);
  EXPECT_TRUE(r->wait_settled(kTimeout));  // a stopped runner counts as settled
  const auto snap = r->snapshot();
  ASSERT_TRUE(snap);
  // The snapshot published at stop is the state the worker stopped in.
  EXPECT_EQ(snap->progress.iteration, r->progress().iteration);
  EXPECT_GE(snap->progress.iteration, 10);
  expect_exact_euler_history(*snap, 1.0);
}

TEST(Runner, DestroyingARunningRunnerReturnsPromptly) {
  const auto t0 = std::chrono::steady_clock::now();
  {
    auto r = make_runner(decay_params(1000000000, 200));
    ASSERT_TRUE(r->wait_settled(kTimeout));
    r->start();
    ASSERT_TRUE(wait_for_iteration(*r, 3));
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0);
}

TEST(Runner, NaNMovesToFailedAndKeepsTheLastGoodSnapshot) {
  auto r = make_runner(decay_params(100, 0, 6), every_snapshot());
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  ASSERT_TRUE(r->wait_until([](ks::RunState s) { return s == ks::RunState::Failed; }, kTimeout));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Failed);
  EXPECT_EQ(r->error_kind(), ks::ErrorKind::RunFailed);
  const std::string err = r->error();
  EXPECT_NE(err.find("NaN"), std::string::npos) << err;
  EXPECT_NE(err.find("iteration 6"), std::string::npos) << err;
  EXPECT_TRUE(has_message_containing(r->take_messages(), "run failed"));

  const auto snap = r->snapshot();
  ASSERT_TRUE(snap);
  EXPECT_EQ(snap->progress.iteration, 5);
  EXPECT_TRUE(std::isfinite(snap->progress.residual));
  EXPECT_TRUE(std::isfinite(snap->fields[0].values.at(0)));
  for (double y : series(*snap, "y").y) EXPECT_TRUE(std::isfinite(y));
  expect_exact_euler_history(*snap, 1.0);

  // Neither start nor step revives a failed run.
  r->start();
  r->step(2);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Failed);
  EXPECT_EQ(r->snapshot()->progress.iteration, 5);
  EXPECT_TRUE(has_message_containing(r->take_messages(), "Reset to start again"));
}

TEST(Runner, ResetAfterFailureRunsAgainToTheEnd) {
  auto r = make_runner(decay_params(20, 0, 4), every_snapshot());
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  ASSERT_TRUE(r->wait_until([](ks::RunState s) { return s == ks::RunState::Failed; }, kTimeout));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->set("poison_at", std::int64_t{0}).status, ks::SetResult::Status::Applied);
  r->reset();
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Idle);
  EXPECT_TRUE(r->error().empty()) << r->error();
  EXPECT_EQ(r->progress().iteration, 0);
  r->start();
  ASSERT_TRUE(r->wait_until([](ks::RunState s) { return s == ks::RunState::Finished; }, kTimeout));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  const auto snap = r->snapshot();
  EXPECT_EQ(snap->progress.iteration, 20);
  expect_exact_euler_history(*snap, 1.0);
}

TEST(Runner, CheckpointCommandAndRestartContinueExactly) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / ("ks_runner_test_" + std::to_string(::getpid()) + ".ckpt")).string();
  std::filesystem::remove(path);
  auto a = make_runner(decay_params(10), every_snapshot());
  ASSERT_TRUE(a->wait_settled(kTimeout));
  a->step(4);
  ASSERT_TRUE(a->wait_settled(kTimeout));  // commands are handled before pending step iterations
  ASSERT_EQ(a->set("k", 0.3).status, ks::SetResult::Status::Applied);
  a->checkpoint(path);
  ASSERT_TRUE(a->wait_settled(kTimeout));
  EXPECT_TRUE(has_message_containing(a->take_messages(), "checkpoint written"));
  a->start();
  ASSERT_TRUE(a->wait_until([](ks::RunState s) { return s == ks::RunState::Finished; }, kTimeout));
  ASSERT_TRUE(a->wait_settled(kTimeout));
  const auto straight = a->snapshot();

  ks::RunnerOptions opt = every_snapshot();
  opt.restart_from = path;
  ks::ParamSet params = decay_params(10);
  params.apply_json(ks::read_checkpoint_header(path).params, path);
  auto b = make_runner(params, opt);
  ASSERT_TRUE(b->wait_settled(kTimeout));
  ASSERT_NE(b->state(), ks::RunState::Failed) << b->error();
  EXPECT_EQ(b->progress().iteration, 4);
  EXPECT_TRUE(has_message_containing(b->take_messages(), "restarted from"));
  b->start();
  ASSERT_TRUE(b->wait_until([](ks::RunState s) { return s == ks::RunState::Finished; }, kTimeout));
  ASSERT_TRUE(b->wait_settled(kTimeout));
  const auto restarted = b->snapshot();
  EXPECT_EQ(series(*restarted, "y").y, series(*straight, "y").y);
  EXPECT_EQ(series(*restarted, "k").y, series(*straight, "k").y);
  std::filesystem::remove(path);
}

TEST(Runner, RestartFromAMissingCheckpointFailsAsBadInput) {
  ks::RunnerOptions opt;
  opt.restart_from = (std::filesystem::path(::testing::TempDir()) / "ks_runner_test_missing.ckpt").string();
  auto r = make_runner(decay_params(10), opt);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Failed);
  EXPECT_EQ(r->error_kind(), ks::ErrorKind::BadInput);
  EXPECT_NE(r->error().find("ks_runner_test_missing.ckpt"), std::string::npos) << r->error();
}

TEST(Runner, SetUpWhoseMemoryEstimateExceedsTheMachineIsRefusedBeforeSetup) {
  const int setups = g_decay_setups;
  // 1e15 iterations of history: 16 PB, more than any machine running this test has.
  auto r = make_runner(decay_params(1'000'000'000'000'000));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->state(), ks::RunState::Failed);
  EXPECT_EQ(r->error_kind(), ks::ErrorKind::BadInput);
  EXPECT_NE(r->error().find("16 PB of host memory"), std::string::npos) << r->error();
  EXPECT_NE(r->error().find("n = 1000000000000000"), std::string::npos) << r->error();
  EXPECT_EQ(g_decay_setups, setups) << "setup must not run (nor allocate) when the estimate does not fit";
  EXPECT_EQ(r->memory_estimate().host_bytes, 16'000'000'000'000'000ull);
}

TEST(Runner, StepCountBeyondTheIntRangeRunsToTheEndInsteadOfWrapping) {
  // 2^32 + 1 wrapped to 1 in a 32-bit count: the run would stop after one iteration.
  auto r = make_runner(decay_params(12));
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->step((std::int64_t{1} << 32) + 1);
  ASSERT_TRUE(r->wait_until([](ks::RunState s) { return s == ks::RunState::Finished; }, kTimeout));
  EXPECT_EQ(r->progress().iteration, 12);
}

TEST(Runner, AFailedRunNeverOverwritesTheLastGoodCheckpoint) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / ("ks_runner_good_" + std::to_string(::getpid()) + ".ckpt")).string();
  auto r = make_runner(decay_params(100, 0, 6), every_snapshot());
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->step(3);
  ASSERT_TRUE(r->wait_settled(kTimeout));  // commands are handled before pending step iterations
  r->checkpoint(path);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  ASSERT_TRUE(r->last_checkpoint().error.empty()) << r->last_checkpoint().error;
  const std::string good = [&] {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  r->start();  // NaN at iteration 6
  ASSERT_TRUE(r->wait_until([](ks::RunState s) { return s == ks::RunState::Failed; }, kTimeout));
  r->checkpoint(path);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_NE(r->last_checkpoint().error.find("previous checkpoint is kept"), std::string::npos) << r->last_checkpoint().error;
  std::ifstream in(path, std::ios::binary);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), good);
  EXPECT_EQ(ks::read_checkpoint_header(path).iteration, 3);
  std::filesystem::remove(path);
}

TEST(Runner, AStateHoldingNaNIsNeverWrittenAsACheckpoint) {
  const std::string path =
      (std::filesystem::path(::testing::TempDir()) / ("ks_runner_nan_" + std::to_string(::getpid()) + ".ckpt")).string();
  std::filesystem::remove(path);
  DecayMethod m;
  m.setup(decay_params(10, 0, 1), {});
  m.advance();  // y = NaN, outside any Runner (so nothing has marked the run failed)
  try {
    ks::save_checkpoint(m, {}, path);
    ADD_FAILURE() << "a NaN state was written";
  } catch (const ks::Error& e) {
    EXPECT_EQ(e.kind(), ks::ErrorKind::RunFailed);
    EXPECT_NE(std::string(e.what()).find("NaN"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}
