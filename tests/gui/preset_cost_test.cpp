// Cost before commitment (issue: heavy paper presets sat beside the teaching ones with no cost shown):
// a preset whose iteration takes over a minute on this machine asks before it starts; a cheap one
// opens at once; where the method's speed is unknown, a speed probe measures it first.
#include <gtest/gtest.h>

#include <QApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTextBrowser>
#include <functional>
#include <memory>

#include "core/registry.hpp"
#include "io/preset.hpp"
#include "iteration_time.hpp"
#include "main_window.hpp"
#include "preset_browser.hpp"
#include "preset_cost_gate.hpp"
#include "serve_events.hpp"
#include "settings_writer.hpp"

namespace {

const QString kPresets = QString(KS_SOURCE_DIR) + "/presets/";
const QString kDemo = kPresets + "coagulation/teaching-demo.json";
const QString kTeachingBed = kPresets + "lbm/teaching-packed-bed.json";
const QString kCoarseBed = kPresets + "lbm/packed-bed-coarse.json";

// Serves the event loop until `done` or `timeout_ms`; whether it is done.
bool served_until(const std::function<bool()>& done, qint64 timeout_ms) {
  ks::gui::testing::serve_until(done, timeout_ms);
  return done();
}

ks::Preset preset(const QString& path) { return ks::load_preset(path.toStdString(), ks::builtin_registry()); }

QMessageBox* question(const ks::gui::MainWindow& w) {
  for (QMessageBox* box : w.findChildren<QMessageBox*>())
    if (box->isVisible()) return box;
  return nullptr;
}

QPushButton* button(QMessageBox* box, const QString& text) {
  for (QAbstractButton* b : box->buttons())
    if (b->text().remove('&') == text) return qobject_cast<QPushButton*>(b);
  return nullptr;
}

class PresetCost : public ::testing::Test {
 protected:
  void SetUp() override {
    ks::gui::wait_for_settings_writes();  // an earlier window's timing written in the background
    QSettings().remove("iteration_time");
    ks::gui::AppOptions options;
    options.preset = kDemo;
    options.backend = "cpu";
    window_ = std::make_unique<ks::gui::MainWindow>(options);
    window_->show();
    ASSERT_TRUE(served_until([&] { return window_->runner()->wait_settled(std::chrono::milliseconds(0)); }, 60000));
  }
  void TearDown() override {
    window_.reset();
    ks::gui::wait_for_settings_writes();
    QSettings().remove("iteration_time");
  }
  // The lbm.binary rate on this machine as if its teaching bed had taken `seconds` an iteration.
  static void lbm_took(double seconds) {
    const ks::Preset bed = preset(kTeachingBed);
    ks::gui::record_iteration_time("", bed.method, bed.params, ks::gui::preset_context(bed), 1, seconds);
  }
  std::unique_ptr<ks::gui::MainWindow> window_;
};

}  // namespace

TEST_F(PresetCost, APresetOverAMinuteAnIterationAsksAndCancelOpensNothing) {
  lbm_took(20.0);  // the coarse bed does 32 times the teaching bed's lattice updates: about 10 minutes
  const ks::Preset coarse = preset(kCoarseBed);
  const ks::gui::IterationTime t = ks::gui::iteration_time(kCoarseBed, coarse.method, coarse.params, ks::gui::preset_context(coarse));
  ASSERT_GT(t.seconds, ks::gui::PresetCostGate::kAskAboveSeconds);
  EXPECT_FALSE(t.measured);
  EXPECT_NEAR(t.scale, 32.0, 0.1);

  window_->openPreset(kCoarseBed);
  QMessageBox* box = question(*window_);
  ASSERT_NE(box, nullptr) << "no question before a preset of " << t.seconds << " s an iteration";
  EXPECT_TRUE(box->text().contains("min an iteration")) << box->text().toStdString();
  EXPECT_TRUE(box->text().contains("CPU")) << box->text().toStdString();
  EXPECT_TRUE(box->text().contains("32 times smaller")) << box->text().toStdString();  // it says what the estimate rests on
  EXPECT_FALSE(window_->settingUp());
  ASSERT_NE(button(box, "Cancel"), nullptr);
  button(box, "Cancel")->click();
  served_until([&] { return question(*window_) == nullptr; }, 2000);
  EXPECT_FALSE(window_->settingUp());
  EXPECT_EQ(window_->runner()->info().id, "aerosol.coagulation");

  window_->openPreset(kCoarseBed);
  box = question(*window_);
  ASSERT_NE(box, nullptr);
  ASSERT_NE(button(box, "Start"), nullptr);
  button(box, "Start")->click();
  EXPECT_TRUE(served_until([&] { return window_->settingUp(); }, 2000));
}

TEST_F(PresetCost, APresetUnderAMinuteAnIterationOpensAtOnce) {
  lbm_took(0.01);
  window_->openPreset(kCoarseBed);
  EXPECT_EQ(question(*window_), nullptr);
  EXPECT_TRUE(window_->settingUp());
}

// Estimated from runs 32 times smaller, 20 s an iteration may well be a minute (the BGK delta-10
// cavity ran 4.4 times slower than its estimate from the teaching cavity): asked, saying why.
TEST_F(PresetCost, AnEstimateFromRunsOfAnotherSizeAsksFromAQuarterOfTheMinute) {
  lbm_took(20.0 / 32.0);
  const ks::Preset coarse = preset(kCoarseBed);
  const ks::gui::IterationTime t = ks::gui::iteration_time(kCoarseBed, coarse.method, coarse.params, ks::gui::preset_context(coarse));
  ASSERT_NEAR(t.seconds, 20.0, 0.5);
  window_->openPreset(kCoarseBed);
  QMessageBox* box = question(*window_);
  ASSERT_NE(box, nullptr) << "no question before a preset estimated at 20 s from runs 32 times smaller";
  EXPECT_TRUE(box->text().contains("32 times smaller here; larger runs are often slower")) << box->text().toStdString();
  button(box, "Cancel")->click();
  // Of the size of the runs it rests on, 20 s opens at once.
  QSettings().remove("iteration_time");
  lbm_took(20.0);
  window_->openPreset(kTeachingBed);
  EXPECT_EQ(question(*window_), nullptr);
}

TEST_F(PresetCost, AnUnknownSpeedIsMeasuredByAProbeOfTheTeachingPresetFirst) {
  const ks::Preset coarse = preset(kCoarseBed);
  const ks::ExecutionContext ctx = ks::gui::preset_context(coarse);
  ASSERT_EQ(ks::gui::iteration_time(kCoarseBed, coarse.method, coarse.params, ctx).seconds, 0.0);
  window_->openPreset(kCoarseBed);
  EXPECT_FALSE(window_->settingUp());  // not before the probe
  ASSERT_TRUE(served_until([&] { return window_->settingUp() || question(*window_) != nullptr; }, 60000))
      << "neither opened nor asked after the probe";
  // The probe measured the teaching bed's speed: the coarse bed's estimate is its cost over that rate.
  const ks::gui::IterationTime t = ks::gui::iteration_time(kCoarseBed, coarse.method, coarse.params, ctx);
  EXPECT_GT(t.seconds, 0.0);
  EXPECT_EQ(question(*window_) != nullptr, t.seconds > ks::gui::PresetCostGate::askAbove(t));
  if (QMessageBox* box = question(*window_)) button(box, "Cancel")->click();
}

// A run of the preset replaces the method's estimate by its own measured time, and the browser's
// cost line says so without the preset being selected again (it said "not measured yet" while runs
// were timed).
TEST_F(PresetCost, ARunOfThePresetTimesItsIterations) {
  const ks::Preset demo = preset(kDemo);
  const ks::ExecutionContext ctx = ks::gui::preset_context(demo);
  const QTextBrowser* description = window_->findChild<ks::gui::PresetBrowser*>()->findChild<QTextBrowser*>();
  ASSERT_NE(description, nullptr);
  EXPECT_TRUE(description->toPlainText().contains("not measured yet")) << description->toPlainText().toStdString();
  window_->runner()->start();
  ASSERT_TRUE(served_until([&] { return ks::gui::iteration_time(kDemo, demo.method, demo.params, ctx).measured; }, 60000))
      << "the shown run's iterations were not timed";
  EXPECT_GT(ks::gui::iteration_time(kDemo, demo.method, demo.params, ctx).seconds, 0.0);
  EXPECT_TRUE(served_until([&] { return description->toPlainText().contains("measured in runs of this preset here"); }, 10000))
      << description->toPlainText().toStdString();
}

// A lattice that fits in a cache runs faster: the fine bed's estimate takes the coarse bed's rate
// (an eighth of its cost) over the teaching bed's (a 256th).
TEST_F(PresetCost, AnEstimateTakesTheRateOfRunsOfTheNearestSize) {
  lbm_took(1.0);
  const ks::Preset coarse = preset(kCoarseBed), fine = preset(kPresets + "lbm/packed-bed-fine.json");
  const ks::ExecutionContext ctx = ks::gui::preset_context(fine);
  ks::gui::record_iteration_time(kCoarseBed, coarse.method, coarse.params, ctx, 1, 300.0);
  const ks::gui::IterationTime t = ks::gui::iteration_time(QString::fromStdString(fine.file), fine.method, fine.params, ctx);
  EXPECT_NEAR(t.scale, 8.0, 0.1);
  EXPECT_NEAR(t.seconds, 8 * 300.0, 30.0);
  EXPECT_TRUE(ks::gui::iteration_time(kCoarseBed, coarse.method, coarse.params, ctx).measured);
}

// A run of the preset with a parameter that makes it far smaller (--set n_s=...) does not time the
// preset as it is: its iterations' fixed costs would make the preset's estimate many times too long.
TEST_F(PresetCost, ARunOfAnotherSizeDoesNotTimeThePresetAsItIs) {
  lbm_took(1.0);
  const ks::Preset coarse = preset(kCoarseBed);
  const ks::ExecutionContext ctx = ks::gui::preset_context(coarse);
  ks::ParamSet small = coarse.params;
  small.set("nx", std::int64_t(32));
  small.set("ny", std::int64_t(32));
  small.set("nz", std::int64_t(64));
  ASSERT_GT(ks::builtin_registry().create(coarse.method)->iteration_cost(small), 0.0);  // a valid lattice, 64 times smaller
  ks::gui::record_iteration_time(kCoarseBed, coarse.method, small, ctx, 1, 5.0);
  const ks::gui::IterationTime t = ks::gui::iteration_time(kCoarseBed, coarse.method, coarse.params, ctx);
  EXPECT_FALSE(t.measured);
  ks::gui::record_iteration_time(kCoarseBed, coarse.method, coarse.params, ctx, 1, 40.0);
  const ks::gui::IterationTime same = ks::gui::iteration_time(kCoarseBed, coarse.method, coarse.params, ctx);
  EXPECT_TRUE(same.measured);
  EXPECT_NEAR(same.seconds, 40.0, 1e-9);
}
