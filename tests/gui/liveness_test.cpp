// The window stays live whatever runs (issue: the app froze for minutes on a preset switch during a
// heavy run): the packed beds on the CPU set up, run, pause, show the 3D scene, reset, switch and
// quit while a timer on the GUI thread measures its longest stall. Each command answers within kAnswerMs;
// the stall's own work stays under kLongestWorkMs and the whole stall under kLongestGapMs. The numbers
// are printed for the record.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCloseEvent>
#include <QSettings>
#include <QElapsedTimer>
#include <QTabWidget>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <atomic>
#include <string>

#include "event_loop_gap.hpp"
#include "freed_elsewhere.hpp"
#include "main_window.hpp"
#include "serve_events.hpp"
#include "settings_writer.hpp"

namespace {

constexpr qint64 kAnswerMs = 500;  // pause, reset, switch, quit
// The GUI thread's longest stall (EventLoopGap::Stall). Its own CPU time in it stays under the issue's
// 100 ms: work on the GUI thread (the hidden 3D scene's conversion took 200 ms, the 3D scene drawn on
// it 137-150, a bed's snapshot freed on it 36, a view's first frame 30-70) shows there. The whole
// stall stays under kLongestGapMs: a wait for the engine (a join took minutes) shows there. Measured
// 47-69 ms in all on 2 cores under Xvfb, where a frame of the software renderer (llvmpipe) composing
// the window takes 25-45 ms beside a solver on both cores; on another 2-core machine (AMD EPYC,
// 2026-12-01) 72-147 ms, the longest at the switch to the coagulation demo: Qt's flush of the whole
// window through its OpenGL compositor (QPlatformBackingStore::rhiFlush, QImage::copy; perf), 25-70
// ms of the GUI thread's CPU, the rest a wait for a core and for the X server. On a third (2-core AMD
// EPYC, 2026-12-02) 94-115 ms, the longest at the coarse bed's adoption: the new parameter editors
// each asking the X server for the pointer when shown (~20 ms), the repaint (~20 ms) and the flush
// through llvmpipe (~40 ms, QRhi::endFrame and XSync); 80-101 ms once the parameter panel is
// rebuilt hidden and shown once (ParameterPanel::setParameters).
constexpr double kLongestWorkMs = 100;
constexpr double kLongestGapMs = 200;
constexpr qint64 kSetUpMs = 600000;  // the coarse bed's set-up on a loaded 2-core machine

const QString kPresets = QString(KS_SOURCE_DIR) + "/presets/";
const QString kDemo = kPresets + "coagulation/teaching-demo.json";
const QString kFineBed = kPresets + "lbm/packed-bed-fine.json";
const QString kCoarseBed = kPresets + "lbm/packed-bed-coarse.json";

using ks::gui::testing::serve_for;
using ks::gui::testing::serve_until;

std::unique_ptr<ks::gui::MainWindow> cpu_window(const QString& preset) {
  ks::gui::AppOptions options;
  options.preset = preset;
  options.backend = "cpu";
  auto window = std::make_unique<ks::gui::MainWindow>(options);
  window->resize(1366, 768);
  window->show();
  return window;
}

bool paused(const ks::gui::MainWindow& w) { return w.runner()->state() == ks::RunState::Paused; }

TEST(GuiLiveness, PackedBedsSetUpRunPauseResetSwitchAndQuitWithoutStallingTheWindow) {
  auto window = cpu_window(kDemo);
  ASSERT_LT(serve_until([&] { return window->runner()->wait_settled(std::chrono::milliseconds(0)); }, 60000), 60000);
  window->restartEventLoopGap();

  // The fine bed starts setting up (minutes here); choosing the coarse one instead gives it up at once.
  QElapsedTimer t;
  t.start();
  ASSERT_TRUE(window->loadPreset(kFineBed));
  EXPECT_LT(t.elapsed(), kAnswerMs);
  serve_for(1500);
  EXPECT_TRUE(window->settingUp());
  t.restart();
  ASSERT_TRUE(window->loadPreset(kCoarseBed));
  const qint64 switch_ms = t.elapsed();
  EXPECT_LT(switch_ms, kAnswerMs);
  const qint64 setup_ms = serve_until([&] { return !window->settingUp(); }, kSetUpMs);
  ASSERT_LT(setup_ms, kSetUpMs) << "the coarse bed did not set up";
  ASSERT_EQ(window->runner()->info().id, "lbm.binary");
  ASSERT_NE(window->runner()->state(), ks::RunState::Failed) << window->runner()->error();
  // The fine bed's set-up ended on its own thread meanwhile.
  EXPECT_LT(serve_until([&] { return window->runnersEnding() == 0; }, kAnswerMs), kAnswerMs);

  // Pause within an iteration of 200 steps (tens of seconds here): the steps done count.
  window->runner()->start();
  serve_for(3000);
  t.restart();
  window->runner()->pause();
  const qint64 pause_ms = serve_until([&] { return paused(*window); }, 10000);
  EXPECT_LT(pause_ms, kAnswerMs);
  EXPECT_GT(window->runner()->progress().sim_time, 0.0) << "no step completed in 3 s";

  // The 3D scene's first frames (the bed's slices and 12753 spheres) while the bed runs.
  window->runner()->start();
  auto* views = window->findChild<QTabWidget*>();
  ASSERT_NE(views, nullptr);
  const int field_tab = views->currentIndex();
  for (int i = 0; i < views->count(); ++i)
    if (views->tabText(i) == "Scene") views->setCurrentIndex(i);
  serve_for(2000);
  views->setCurrentIndex(field_tab);

  // Reset while running: the run stops and the set-up begins at once.
  serve_for(1000);
  t.restart();
  window->runner()->reset();
  const qint64 reset_ms = serve_until([&] { return window->runner()->setting_up(); }, 10000);
  EXPECT_LT(reset_ms, kAnswerMs);

  // Switch to the demo during that set-up; then quit during the fine bed's set-up.
  ASSERT_TRUE(window->loadPreset(kDemo));
  ASSERT_LT(serve_until([&] { return !window->settingUp(); }, 60000), 60000);
  EXPECT_EQ(window->runner()->info().id, "aerosol.coagulation");
  EXPECT_LT(serve_until([&] { return window->runnersEnding() == 0; }, kAnswerMs), kAnswerMs);
  ASSERT_TRUE(window->loadPreset(kFineBed));
  serve_for(1000);
  t.restart();
  window->close();
  const qint64 close_ms = t.elapsed();
  EXPECT_LT(close_ms, kAnswerMs);
  const qint64 ended_ms = serve_until([&] { return window->runnersEnding() == 0; }, 10000);
  EXPECT_LT(ended_ms, kAnswerMs);

  const ks::gui::EventLoopGap::Stall stall = window->longestEventLoopStall();
  const double gap = stall.ms;
  std::printf(
      "liveness: switch %lld ms, coarse bed set-up %lld ms, pause %lld ms, reset %lld ms, close %lld ms, runs ended %lld ms "
      "after; longest event-loop gap %.1f ms\n",
      (long long)switch_ms, (long long)setup_ms, (long long)pause_ms, (long long)reset_ms, (long long)close_ms, (long long)ended_ms, gap);
  std::printf("liveness: the longest stall's own CPU time %.1f ms, waiting for a core %.1f ms\n", stall.gui_cpu_ms, stall.runqueue_ms);
  EXPECT_LT(stall.gui_cpu_ms, kLongestWorkMs);
  EXPECT_LT(gap, kLongestGapMs);
  const auto t_destroy = std::chrono::steady_clock::now();
  window.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - t_destroy, std::chrono::milliseconds(kAnswerMs));
}

// What the window shows is freed on a pool thread when its last reference goes (a bed's snapshot
// took 36 ms to free on the GUI thread), and only then.
TEST(GuiLiveness, ShownSnapshotsAreFreedOffTheGuiThread) {
  struct Big {
    explicit Big(std::atomic<QThread*>* on) : freed_on(on) {}
    ~Big() { *freed_on = QThread::currentThread(); }
    std::atomic<QThread*>* freed_on;
  };
  std::atomic<QThread*> freed_on{nullptr};
  auto engine_copy = std::make_shared<const Big>(&freed_on);
  auto shown = ks::gui::freed_elsewhere(engine_copy);
  auto view_copy = shown;
  shown.reset();
  engine_copy.reset();  // the engine has moved on: the views hold the last references
  QThreadPool::globalInstance()->waitForDone();
  EXPECT_EQ(freed_on.load(), nullptr) << "freed while a view still held it";
  view_copy.reset();
  QThreadPool::globalInstance()->waitForDone();
  ASSERT_NE(freed_on.load(), nullptr);
  EXPECT_NE(freed_on.load(), QThread::currentThread());
}

// A stall says where its time went: 150 ms of work on the GUI thread shows as the thread's CPU time
// (or its wait for a core, on a loaded machine), 150 ms asleep shows as neither.
TEST(GuiLiveness, AStallSaysWhetherTheGuiThreadWorkedOrSlept) {
  ks::gui::EventLoopGap gap;
  const auto stall = [&gap](const std::function<void()>& on_gui_thread) {
    gap.start();
    serve_for(50);
    QTimer::singleShot(0, on_gui_thread);
    serve_for(400);
    return gap.longest();
  };
  const ks::gui::EventLoopGap::Stall worked = stall([] {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(150);
    while (std::chrono::steady_clock::now() < end) {
    }
  });
  EXPECT_GT(worked.ms, 120.0);
  EXPECT_GT(worked.gui_cpu_ms + std::max(worked.runqueue_ms, 0.0), 0.8 * worked.ms)
      << "CPU " << worked.gui_cpu_ms << " ms, core wait " << worked.runqueue_ms << " ms of a " << worked.ms << " ms stall";
  const ks::gui::EventLoopGap::Stall slept = stall([] { QThread::msleep(150); });
  EXPECT_GT(slept.ms, 120.0);
  EXPECT_LT(slept.gui_cpu_ms, 0.2 * slept.ms) << "CPU " << slept.gui_cpu_ms << " ms of a " << slept.ms << " ms sleep";
}

// Settings are written off the GUI thread (a QSettings syncs its file as it goes), in the order
// asked, and all of them by wait_for_settings_writes.
TEST(GuiLiveness, SettingsAreWrittenOffTheGuiThreadInOrder) {
  std::atomic<QThread*> written_on{nullptr};
  for (int i = 0; i < 50; ++i)
    ks::gui::write_settings_later([i, &written_on](QSettings& settings) {
      settings.setValue("test/order", i);
      written_on = QThread::currentThread();
    });
  ks::gui::wait_for_settings_writes();
  EXPECT_EQ(QSettings().value("test/order").toInt(), 49);
  ASSERT_NE(written_on.load(), nullptr);
  EXPECT_NE(written_on.load(), QThread::currentThread());
  QSettings().remove("test/order");
}

}  // namespace
