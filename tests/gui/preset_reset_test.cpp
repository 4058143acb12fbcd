// What one preset's views leave behind must not change how the next one is drawn (issue 48): a 3D
// field's slice plane, a log axis's limits, a zoom, a wished-for series or field.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "plot_view.hpp"
#include "shown_field.hpp"
#include "slice_control.hpp"
#include "temp_dir.hpp"

namespace {

// An image field of `cells` whose value is the cell index.
ks::FieldData image_field(const std::string& name, std::array<int, 3> cells) {
  ks::FieldData f;
  f.desc = {name, "", 1, ""};
  f.grid.cells = cells;
  f.grid.axes = ks::spatial_axes("dx");
  for (std::int64_t k = 0; k < f.grid.count(); ++k) f.values.push_back(double(k));
  return f;
}

std::shared_ptr<const ks::Snapshot> series_snapshot(const std::string& name, std::vector<double> x, std::vector<double> y, bool log_axes) {
  auto snap = std::make_shared<ks::Snapshot>();
  ks::Series s{name, "x", "y", std::move(x), std::move(y)};
  s.log_x = s.log_y = log_axes;
  snap->series.push_back(s);
  return snap;
}

// Draws the newest snapshot (the view's throttle would hold it back) and renders a frame.
void render(ks::gui::PlotView& view) {
  QApplication::processEvents();
  ASSERT_TRUE(view.saveScreenshot(QString::fromStdString(ks::test::temp_dir("reset") + "/plot.png")));
}

// The LBM's y-normal plane made the BGK's f(x, v_x) a one-row strip.
TEST(PresetReset, TwoDimensionalFieldIsShownWholeWhateverPlaneA3DOneHad) {
  auto snap = std::make_shared<ks::Snapshot>();
  snap->fields = {image_field("rho", {4, 4, 4}), image_field("f(x, vx)", {8, 6, 1})};
  ks::gui::ShownField shown;
  shown.setSnapshot(snap);
  shown.setSlice({1, 2});
  shown.setName("f(x, vx)");
  shown.repackIfStale();
  EXPECT_EQ(shown.packed().width, 8);
  EXPECT_EQ(shown.packed().height, 6);
}

TEST(PresetReset, ShownFieldForgetsTheWishComponentAndPlane) {
  auto snap = std::make_shared<ks::Snapshot>();
  snap->fields = {image_field("a", {4, 4, 4}), image_field("b", {4, 4, 4})};
  ks::gui::ShownField shown;
  shown.setSnapshot(snap);
  shown.setName("b");
  shown.setComponent(1);
  shown.setSlice({0, 3});
  shown.reset();
  EXPECT_EQ(shown.field(), nullptr);
  shown.setSnapshot(snap);
  ASSERT_NE(shown.field(), nullptr);
  EXPECT_EQ(shown.field()->desc.name, "a");
  EXPECT_EQ(shown.component(), -1);
  EXPECT_EQ(shown.slice().normal, 2);
  EXPECT_EQ(shown.slice().index, 0);
}

// The field view starts the next preset at the default plane: the control must announce its own
// even for a field of the same name and grid as the last one it followed.
TEST(PresetReset, SliceControlAnnouncesTheNextPresetsFieldAtItsViewPlane) {
  ks::gui::SliceControl control;
  std::vector<ks::gui::SlicePlane> announced;
  QObject::connect(&control, &ks::gui::SliceControl::planeChanged, [&](ks::gui::SlicePlane p) { announced.push_back(p); });
  ks::FieldData t = image_field("T", {10, 10, 10});
  t.desc.view_normal = 1;
  ASSERT_TRUE(control.follow(&t));
  control.findChild<QComboBox*>()->setCurrentIndex(0);  // the user's x-normal plane
  announced.clear();
  control.resetForPreset();
  ASSERT_TRUE(control.follow(&t));
  ASSERT_EQ(announced.size(), 1u);
  EXPECT_EQ(announced[0].normal, 1);
  EXPECT_EQ(announced[0].index, 5);
}

// VTK 9.1 kept 0 as the lower limit of an axis that had been logarithmic.
TEST(PresetReset, LinearPlotAfterALogOneReachesBelowZero) {
  ks::gui::PlotView view;
  view.resize(800, 500);
  view.show();
  view.showSnapshot(series_snapshot("N/N0", {1.0, 10.0, 100.0}, {1.0, 0.1, 0.01}, true));
  render(view);
  view.showSnapshot(series_snapshot("u", {0.0, 1.0, 2.0}, {-1.0, 0.0, 1.0}, false));
  render(view);
  const auto ranges = view.axisRanges();
  EXPECT_LE(ranges[2], -1.0);
  EXPECT_GE(ranges[3], 1.0);
}

TEST(PresetReset, PlotForgetsTheWishedSeriesAndTheZoom) {
  ks::gui::PlotView view;
  view.resize(800, 500);
  view.show();
  view.setSeries("b");
  view.showSnapshot(series_snapshot("b", {0.0, 1.0, 2.0}, {0.0, 1.0, 2.0}, false));
  render(view);
  view.zoomAt(0.5, 0.5, 0.5);
  ASSERT_TRUE(view.zoomed());
  view.resetForPreset();
  EXPECT_FALSE(view.zoomed());
  EXPECT_EQ(view.series(), QString());
  auto next = std::make_shared<ks::Snapshot>(*series_snapshot("a", {0.0, 1.0}, {0.0, 1.0}, false));
  next->series.push_back(series_snapshot("b", {0.0, 1.0}, {0.0, 1.0}, false)->series[0]);
  view.showSnapshot(next);
  render(view);
  EXPECT_EQ(view.series(), QString("a"));  // the next preset's first series, not the last one's wish
}

}  // namespace
