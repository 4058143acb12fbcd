// The quick sliders under the field view change a parameter only on purpose: a press beside the
// handle does nothing, a drag of the handle sends one value on release, a typed value is sent on
// Enter or refused with the parameter's rule; wide ranges move logarithmically.
#include <gtest/gtest.h>

#include <QApplication>
#include <QLineEdit>
#include <QMouseEvent>
#include <QSlider>
#include <cmath>
#include <vector>

#include "quick_sliders.hpp"

namespace {

ks::ParamSpec real_spec(const std::string& key, double lo, double hi, double def) {
  ks::ParamSpec s;
  s.key = key;
  s.label = "Knudsen number";
  s.type = ks::ParamType::Real;
  s.default_value = def;
  s.min = lo;
  s.max = hi;
  s.live = true;
  s.quick = true;
  return s;
}

void mouse(QWidget* w, QEvent::Type type, QPoint at, Qt::MouseButtons held) {
  QMouseEvent e(type, QPointF(at), w->mapToGlobal(QPointF(at)), Qt::LeftButton, held, Qt::NoModifier);
  QApplication::sendEvent(w, &e);
}

struct Sent {
  std::vector<std::pair<QString, ks::ParamValue>> changes;
  int refused = 0;
};

TEST(QuickSliders, OnlyADragOfTheHandleOrATypedValueChangesTheParameter) {
  const std::vector<ks::ParamSpec> specs{real_spec("kn", 0.001, 10.0, 0.001)};
  ks::ParamSet values(specs);
  ks::gui::QuickSliders strip;
  strip.setParameters(specs, values);
  ASSERT_EQ(strip.count(), 1);
  Sent sent;
  QObject::connect(&strip, &ks::gui::QuickSliders::parameterChanged,
                   [&](const QString& key, const ks::ParamValue& v) { sent.changes.emplace_back(key, v); });
  QObject::connect(&strip, &ks::gui::QuickSliders::parameterRefused,
                   [&](const QString&, const QString&, const QString&) { ++sent.refused; });
  strip.resize(600, 80);
  strip.show();
  QApplication::processEvents();
  auto* slider = strip.findChild<QSlider*>();
  auto* entry = strip.findChild<QLineEdit*>();
  ASSERT_NE(slider, nullptr);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(slider->value(), 0);  // at the minimum: the handle at the left end

  // A press and release at the far end, beside the handle: nothing moves, nothing is sent.
  const int y = slider->height() / 2;
  mouse(slider, QEvent::MouseButtonPress, {slider->width() - 3, y}, Qt::LeftButton);
  mouse(slider, QEvent::MouseButtonRelease, {slider->width() - 3, y}, Qt::NoButton);
  EXPECT_EQ(slider->value(), 0);
  EXPECT_TRUE(sent.changes.empty());

  // The handle dragged to the right end: one value, on release, the maximum.
  mouse(slider, QEvent::MouseButtonPress, {4, y}, Qt::LeftButton);
  mouse(slider, QEvent::MouseMove, {slider->width() / 2, y}, Qt::LeftButton);
  EXPECT_TRUE(sent.changes.empty()) << "sent while dragging";
  mouse(slider, QEvent::MouseMove, {slider->width() + 20, y}, Qt::LeftButton);
  mouse(slider, QEvent::MouseButtonRelease, {slider->width() + 20, y}, Qt::NoButton);
  ASSERT_EQ(sent.changes.size(), 1u);
  EXPECT_EQ(sent.changes[0].first, "kn");
  EXPECT_NEAR(std::get<double>(sent.changes[0].second), 10.0, 1e-9);

  // A typed value, on Enter; one out of range is refused and the box shows the last value again.
  entry->setText("0.5");
  QKeyEvent enter(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier);
  QApplication::sendEvent(entry, &enter);
  ASSERT_EQ(sent.changes.size(), 2u);
  EXPECT_EQ(std::get<double>(sent.changes[1].second), 0.5);
  entry->setText("50");
  QApplication::sendEvent(entry, &enter);
  EXPECT_EQ(sent.changes.size(), 2u);
  EXPECT_EQ(sent.refused, 1);
  EXPECT_EQ(entry->text(), "0.5");
}

TEST(QuickSliders, WideRangesMoveLogarithmicallyAndRoundTrip) {
  const ks::ParamSpec kn = real_spec("kn", 0.001, 10.0, 0.1);
  EXPECT_EQ(ks::gui::slider_position(kn, 0.1), ks::gui::kSliderSteps / 2);  // 1e-3 .. 1e1: 1e-1 in the middle
  for (double v : {0.001, 0.0137, 0.42, 7.0}) {
    const double back = std::get<double>(ks::gui::slider_value(kn, ks::gui::slider_position(kn, v)));
    EXPECT_NEAR(std::log(back / v), 0.0, 0.5 * std::log(1e4) / ks::gui::kSliderSteps + 1e-12) << v;
  }
  ks::ParamSpec count = real_spec("n", 1, 100, 10);
  count.type = ks::ParamType::Int;
  EXPECT_EQ(ks::gui::slider_position(count, std::int64_t{1}), 0);
  EXPECT_EQ(std::get<std::int64_t>(ks::gui::slider_value(count, ks::gui::kSliderSteps)), 100);
  EXPECT_EQ(std::get<std::int64_t>(ks::gui::slider_value(count, ks::gui::kSliderSteps / 2)), 51);  // linear: 1 + 99 / 2 = 50.5, rounded
}

}  // namespace
