// The field view's pure parts: labels in notation, round axis ticks, slices of a 3D field along
// each axis with solids masked, and the data fitted into the plot area with or without its aspect.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "colour_bar.hpp"
#include "colour_scale.hpp"
#include "field_axes.hpp"
#include "field_interaction.hpp"
#include "notation.hpp"
#include "packed_field.hpp"

namespace {

using ks::gui::rich_notation;
using ks::gui::unicode_notation;

TEST(Notation, GreekNamesSubscriptsSuperscriptsAndTheUpstreamMinus) {
  EXPECT_EQ(rich_notation("x (lambda-)"), QString("x (λ<sub>−</sub>)"));
  EXPECT_EQ(rich_notation("V / sqrt(2RT-)"), QString("V / √(2RT<sub>−</sub>)"));
  EXPECT_EQ(rich_notation("sigma_g"), QString("σ<sub>g</sub>"));
  EXPECT_EQ(rich_notation("t/tau_char"), QString("t/τ<sub>char</sub>"));
  EXPECT_EQ(rich_notation("kg/m^3"), QString("kg/m<sup>3</sup>"));
  EXPECT_EQ(rich_notation("T / T_inf"), QString("T / T<sub>∞</sub>"));
  // A minus inside a subscript group is a minus, not the upstream mark; words are whole.
  EXPECT_EQ(rich_notation("|c_t / c_(t-1) - 1|"), QString("|c<sub>t</sub> / c<sub>t−1</sub> - 1|"));
  EXPECT_EQ(rich_notation("pivot <a&b>"), QString("pivot &lt;a&amp;b&gt;"));
}

TEST(Notation, UnicodeScriptsOnlyWhatUnicodeHas) {
  EXPECT_EQ(unicode_notation("n / n-"), QString("n / n₋"));
  EXPECT_EQ(unicode_notation("m^3"), QString("m³"));
  EXPECT_EQ(unicode_notation("rho_O2"), QString("ρ_O2"));
  EXPECT_EQ(unicode_notation("dN/dlog10(d) / N"), QString("dN/dlog10(d) / N"));
  EXPECT_EQ(ks::gui::rich_axis_title("v_x", "v_ref"), QString("v<sub>x</sub> [v<sub>ref</sub>]"));
  EXPECT_EQ(ks::gui::rich_axis_title("solid", ""), QString("solid"));
}

TEST(FieldAxes, TicksAreRoundValuesInsideTheInterval) {
  const std::vector<double> unit = ks::gui::nice_ticks(0.0, 1.0, 5);
  ASSERT_EQ(unit.size(), 6u);
  for (std::size_t k = 0; k < unit.size(); ++k) EXPECT_NEAR(unit[k], 0.2 * double(k), 1e-12);
  EXPECT_EQ(ks::gui::nice_ticks(-35.0, 35.0, 7), (std::vector<double>{-30, -20, -10, 0, 10, 20, 30}));
  const std::vector<double> v = ks::gui::nice_ticks(-5.0, 7.0, 3);  // step 5
  EXPECT_EQ(v, (std::vector<double>{-5, 0, 5}));
  EXPECT_TRUE(ks::gui::nice_ticks(1.0, 1.0, 5).empty());
  EXPECT_TRUE(ks::gui::nice_ticks(0.0, NAN, 5).empty());
}

TEST(ColourBar, TickLabelsTakeTheDigitsThatTellNeighbouringTicksApart) {
  ks::gui::ColourScale linear;
  EXPECT_EQ(ks::gui::colour_bar_tick_labels(linear, {0.0, 1.0}), (QStringList{"0", "0.25", "0.5", "0.75", "1"}));
  // A field that varies little about 0.1: at 3 digits the upper ticks all read "0.1".
  EXPECT_EQ(ks::gui::colour_bar_tick_labels(linear, {0.0998, 0.1002}), (QStringList{"0.0998", "0.0999", "0.1", "0.1001", "0.1002"}));
  EXPECT_EQ(ks::gui::colour_bar_tick_labels(linear, {-0.10002, -0.09998}),
            (QStringList{"-0.10002", "-0.10001", "-0.1", "-0.09999", "-0.09998"}));
  // Narrower than 6 digits tell apart, and a flat field: the value to 3 digits.
  EXPECT_EQ(ks::gui::colour_bar_tick_labels(linear, {0.1, 0.1 + 1e-12}), (QStringList{"0.1", "0.1", "0.1", "0.1", "0.1"}));
  EXPECT_EQ(ks::gui::colour_bar_tick_labels(linear, {2.0, 2.0}), (QStringList{"2", "2", "2", "2", "2"}));
  ks::gui::ColourScale log;
  log.setLog(true);
  EXPECT_EQ(ks::gui::colour_bar_tick_labels(log, {1e-3, 1e3}), (QStringList{"0.001", "0.0316", "1", "31.6", "1e+03"}));
}

// A 3 x 4 x 5 grid whose value is the cell index.
ks::FieldData indexed_field() {
  ks::FieldData f;
  f.desc = {"index", "", 1, ""};
  f.grid.cells = {3, 4, 5};
  f.grid.origin = {1.0, 2.0, 3.0};
  f.grid.spacing = {0.5, 0.25, 2.0};
  f.grid.axes = ks::spatial_axes("dx");
  for (int k = 0; k < 60; ++k) f.values.push_back(k);
  return f;
}

TEST(PackedField, SliceNormalToEachAxisShowsTheOtherTwoInOrder) {
  const ks::FieldData f = indexed_field();
  const ks::gui::PackedField y = ks::gui::pack_field(f, {1, 2}, -1);
  ASSERT_EQ(y.kind, ks::gui::PackedField::Kind::Image);
  EXPECT_EQ(y.width, 3);
  EXPECT_EQ(y.height, 5);
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 3; ++i) EXPECT_EQ(y.data[j * 3 + i], float((j * 4 + 2) * 3 + i));
  EXPECT_EQ(y.across.name, "x");
  EXPECT_EQ(y.up.name, "z");
  EXPECT_EQ(y.up.unit, "dx");
  EXPECT_DOUBLE_EQ(y.x0, 1.0);
  EXPECT_DOUBLE_EQ(y.y0, 3.0);
  EXPECT_DOUBLE_EQ(y.w, 1.5);
  EXPECT_DOUBLE_EQ(y.h, 10.0);

  const ks::gui::PackedField x = ks::gui::pack_field(f, {0, 99}, -1);  // the index clamped to 2
  EXPECT_EQ(x.width, 4);
  EXPECT_EQ(x.height, 5);
  EXPECT_EQ(x.data[1 * 4 + 3], float((1 * 4 + 3) * 3 + 2));
  EXPECT_EQ(x.across.name, "y");
  EXPECT_DOUBLE_EQ(x.min, 2.0);
  EXPECT_DOUBLE_EQ(x.max, 59.0);

  const ks::gui::PackedField z = ks::gui::pack_field(f, {2, 0}, -1);
  EXPECT_EQ(z.width, 3);
  EXPECT_EQ(z.height, 4);
  EXPECT_EQ(z.data[11], 11.0f);
}

TEST(PackedField, MaskedCellsAreNotANumberAndLeaveTheRange) {
  const ks::FieldData f = indexed_field();
  ks::FieldData solid = f;
  solid.desc.name = "solid";
  for (double& v : solid.values) v = v >= 57.0 ? 1.0 : 0.0;  // the last three cells
  const ks::gui::PackedField top = ks::gui::pack_field(f, {2, 4}, -1, &solid);
  EXPECT_TRUE(top.masked);
  EXPECT_TRUE(std::isnan(top.data[9]) && std::isnan(top.data[10]) && std::isnan(top.data[11]));
  EXPECT_EQ(top.data[8], 56.0f);
  EXPECT_DOUBLE_EQ(top.max, 56.0);
  ks::FieldData other_grid = solid;
  other_grid.grid.cells = {3, 4, 4};
  EXPECT_FALSE(ks::gui::pack_field(f, {2, 4}, -1, &other_grid).masked);  // a mask on another grid is ignored
}

TEST(FieldInteraction, DataOfOneUnitKeepsItsAspectAPhaseSpaceFillsTheArea) {
  const ks::gui::FieldInteraction view;
  const QRectF area(10.0, 20.0, 200.0, 100.0);
  const QRectF phase = view.dataRect(area, QSizeF(70.0, 12.0), false);
  EXPECT_EQ(phase, area);
  const QRectF kept = view.dataRect(area, QSizeF(70.0, 12.0), true);
  EXPECT_DOUBLE_EQ(kept.width(), 200.0);
  EXPECT_NEAR(kept.height(), 200.0 * 12.0 / 70.0, 1e-9);
  EXPECT_EQ(kept.center(), area.center());
}

// The value under the cursor names a solid (masked) cell as such, not as "nan m/s".
TEST(FieldInteraction, HoverOverASolidCellSaysSolid) {
  ks::gui::PackedField data;
  data.kind = ks::gui::PackedField::Kind::Image;
  data.width = 2;
  data.height = 1;
  data.data = {std::nanf(""), 1.5f};
  data.masked = true;
  const QRectF rect(0, 0, 200, 100);
  const QString solid = ks::gui::hover_text(data, rect, {50, 50}, "|u|", "m/s");
  EXPECT_TRUE(solid.endsWith(": solid")) << solid.toStdString();
  const QString fluid = ks::gui::hover_text(data, rect, {150, 50}, "|u|", "m/s");
  EXPECT_TRUE(fluid.contains("|u| = 1.5 m/s")) << fluid.toStdString();
}

}  // namespace
