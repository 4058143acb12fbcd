// The Runner stops long work early for the commands a user waits on (core/interrupt.hpp): a test
// method whose set-up and iteration each take seconds, in 1 ms units of work that check the
// Runner's interrupt. Pause, reset, a live change and the destructor must answer within kAnswer,
// and what the work completed must count.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "core/interrupt.hpp"
#include "run/runner.hpp"

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr auto kAnswer = 500ms;  // the bound for pause, reset, switch and quit
constexpr auto kTimeout = 10s;

ks::ParamSpec spec(const std::string& key, ks::ParamValue def, bool live) {
  ks::ParamSpec s;
  s.key = s.label = key;
  s.type = ks::ParamType::Int;
  s.default_value = def;
  s.min = 0;
  s.max = 1e9;
  s.live = live;
  return s;
}

const ks::MethodInfo& long_info() {
  static const ks::MethodInfo info = [] {
    ks::MethodInfo i;
    i.id = "test.long";
    i.title = "Long set-up and iterations (test)";
    i.params = {spec("setup_units", std::int64_t{0}, false), spec("units", std::int64_t{10000}, true),
                spec("snapshot_ms", std::int64_t{0}, false)};
    i.fields = {{"done", "", 1, "units of work done"}};
    return i;
  }();
  return info;
}

std::atomic<int> g_setups_begun{0}, g_setups_done{0};

// Work comes in units of 1 ms: an iteration is `units` of them, a set-up `setup_units`; a snapshot
// takes `snapshot_ms` (the BGK cavity's moments take seconds on 2 cores). An iteration
// stopped on request keeps its completed units and ends there; a set-up stopped throws Interrupted
// and keeps the previous one (as MethodBase does).
class LongMethod final : public ks::Method {
 public:
  LongMethod() : params_(long_info().params) {}
  const ks::MethodInfo& info() const override { return long_info(); }
  ks::MemoryEstimate estimate_memory(const ks::ParamSet&, const ks::ExecutionContext&) const override { return {}; }
  void setup(const ks::ParamSet& params, const ks::ExecutionContext& ctx) override {
    ++g_setups_begun;
    const std::int64_t n = params.get_int("setup_units");
    for (std::int64_t u = 0; u < n; ++u) {
      ctx.interrupt.throw_if_requested();
      ctx.interrupt.report("setting up", double(u) / double(n));
      std::this_thread::sleep_for(1ms);
    }
    ctx_ = ctx;
    params_ = params;
    units_ = params.get_int("units");
    snapshot_ms_ = params.get_int("snapshot_ms");
    done_ = 0;
    iterations_ = 0;
    ++g_setups_done;
  }
  void advance() override {
    std::int64_t u = 0;
    for (; u < units_ && !ctx_.interrupt.requested(); ++u) {
      ctx_.interrupt.report("working", double(u) / double(units_));
      std::this_thread::sleep_for(1ms);
    }
    done_ += u;
    if (u == units_) ++iterations_;
  }
  bool finished() const override { return false; }
  void set_live(const std::string& key, const ks::ParamValue& value) override {
    units_ = std::get<std::int64_t>(value);
    params_.set(key, value);
  }
  ks::Progress progress() const override {
    ks::Progress p;
    p.iteration = iterations_;
    p.work_done = double(done_);
    p.work_unit = "units";
    return p;
  }
  ks::Snapshot snapshot() const override {
    std::this_thread::sleep_for(std::chrono::milliseconds(snapshot_ms_));
    ks::Snapshot s;
    s.progress = progress();
    return s;
  }
  const ks::ParamSet& params() const override { return params_; }
  void save_state(std::ostream&) const override {}
  void load_state(std::istream&) override {}

 private:
  ks::ParamSet params_;
  ks::ExecutionContext ctx_;
  std::int64_t units_ = 0, done_ = 0, iterations_ = 0, snapshot_ms_ = 0;
};

ks::ParamSet long_params(std::int64_t setup_units, std::int64_t units, std::int64_t snapshot_ms = 0) {
  ks::ParamSet p(long_info().params);
  p.set("setup_units", setup_units);
  p.set("units", units);
  p.set("snapshot_ms", snapshot_ms);
  return p;
}

std::unique_ptr<ks::Runner> make_runner(std::int64_t setup_units, std::int64_t units, std::int64_t snapshot_ms = 0) {
  return std::make_unique<ks::Runner>(std::make_unique<LongMethod>(), long_params(setup_units, units, snapshot_ms), ks::ExecutionContext{});
}

// Waits until the method says it is inside an iteration.
void wait_for_work(const ks::Runner& r) {
  const auto deadline = Clock::now() + kTimeout;
  while (r.work_stage().stage != "working" && Clock::now() < deadline) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(r.work_stage().stage, "working");
}

void pause_and_wait(ks::Runner& r) {
  r.pause();
  ASSERT_TRUE(r.wait_until([](ks::RunState s) { return s == ks::RunState::Paused; }, kTimeout));
}

TEST(Interrupt, ADefaultOneIsNeverRequestedAndReportsNowhere) {
  const ks::Interrupt none;
  none.request();
  none.report("stage", 0.5);
  EXPECT_FALSE(none.armed());
  EXPECT_FALSE(none.requested());
  EXPECT_NO_THROW(none.throw_if_requested());
  EXPECT_TRUE(none.stage().stage.empty());
  const ks::Interrupt held = ks::Interrupt::make(), copy = held;
  copy.request();
  EXPECT_TRUE(held.requested());
  EXPECT_THROW(held.throw_if_requested(), ks::Interrupted);
  held.clear();
  EXPECT_FALSE(copy.requested());
}

TEST(RunnerInterrupt, PauseEndsAHourLongIterationWithinHalfASecondKeepingItsWork) {
  auto r = make_runner(0, 3'600'000);  // an hour an iteration
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  wait_for_work(*r);
  const auto t0 = Clock::now();
  pause_and_wait(*r);
  EXPECT_LT(Clock::now() - t0, kAnswer);
  // The stopped iteration's units count, and the published snapshot is of that state.
  const double done = r->progress().work_done;
  EXPECT_GE(done, 1.0);
  EXPECT_EQ(r->progress().iteration, 0);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->snapshot()->progress.work_done, done);
  EXPECT_TRUE(r->work_stage().stage.empty());  // between iterations nothing is under way
  // Running on continues from there.
  r->start();
  wait_for_work(*r);
  pause_and_wait(*r);
  EXPECT_GT(r->progress().work_done, done);
}

// The iteration a pause stopped is not published on its own before the pause is answered: its
// snapshot (seconds for the BGK cavity) held the window at "running" for 7 s.
TEST(RunnerInterrupt, PauseIsAnsweredBeforeTheStoppedIterationsSlowSnapshot) {
  auto r = make_runner(0, 3'600'000, 3000);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  wait_for_work(*r);
  std::this_thread::sleep_for(300ms);  // past the snapshot interval since the set-up's
  const auto t0 = Clock::now();
  pause_and_wait(*r);
  EXPECT_LT(Clock::now() - t0, kAnswer);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_EQ(r->snapshot()->progress.work_done, r->progress().work_done);  // the paused state is what is shown
}

TEST(RunnerInterrupt, DestroyingTheRunnerMidIterationReturnsWithinHalfASecond) {
  auto r = make_runner(0, 3'600'000);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  wait_for_work(*r);
  const auto t0 = Clock::now();
  r.reset();
  EXPECT_LT(Clock::now() - t0, kAnswer);
}

TEST(RunnerInterrupt, ALiveChangeAppliesWithinHalfASecondOfALongIteration) {
  auto r = make_runner(0, 3'600'000);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  r->start();
  wait_for_work(*r);
  const auto t0 = Clock::now();
  ASSERT_EQ(r->set("units", std::int64_t{5}).status, ks::SetResult::Status::Applied);
  const auto deadline = Clock::now() + kTimeout;
  while (r->params().get_int("units") != 5 && Clock::now() < deadline) std::this_thread::sleep_for(1ms);
  EXPECT_LT(Clock::now() - t0, kAnswer);
  // Iterations of the new length then complete while running.
  while (r->progress().iteration < 3 && Clock::now() < deadline) std::this_thread::sleep_for(1ms);
  EXPECT_GE(r->progress().iteration, 3);
}

TEST(RunnerInterrupt, ResetCancelsALongSetUpAndSetsUpAgain) {
  const int begun = g_setups_begun, done = g_setups_done;
  auto r = make_runner(3'600'000, 10);  // an hour to set up
  while (g_setups_begun == begun) std::this_thread::sleep_for(1ms);
  // The set-up says where it is.
  const auto deadline = Clock::now() + kTimeout;
  while (r->work_stage().stage.empty() && Clock::now() < deadline) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(r->work_stage().stage, "setting up");
  EXPECT_TRUE(r->setting_up());
  const auto t0 = Clock::now();
  r->reset();
  while (g_setups_begun < begun + 2 && Clock::now() < deadline) std::this_thread::sleep_for(1ms);
  EXPECT_LT(Clock::now() - t0, kAnswer);
  EXPECT_EQ(g_setups_done, done);  // neither finished
  const auto t1 = Clock::now();
  r.reset();  // quitting during the second set-up
  EXPECT_LT(Clock::now() - t1, kAnswer);
  EXPECT_EQ(g_setups_done, done);
}

TEST(RunnerInterrupt, ChangingTheParameterThatMakesASetUpLongSetsUpAgainAtOnce) {
  auto r = make_runner(3'600'000, 10);
  while (!r->setting_up()) std::this_thread::sleep_for(1ms);
  // Before the first iteration a set-up parameter applies at once: the long set-up is cancelled and
  // the short one runs.
  const auto t0 = Clock::now();
  EXPECT_EQ(r->set("setup_units", std::int64_t{1}).status, ks::SetResult::Status::Applied);
  ASSERT_TRUE(r->wait_settled(kTimeout));
  EXPECT_LT(Clock::now() - t0, kAnswer);
  EXPECT_EQ(r->state(), ks::RunState::Idle) << r->error();
  EXPECT_EQ(r->params().get_int("setup_units"), 1);
}

}  // namespace
