#include "field_axes.hpp"

#include <QFontMetricsF>
#include <QPainter>
#include <QStaticText>
#include <algorithm>
#include <cmath>

#include "notation.hpp"
#include "packed_field.hpp"

namespace ks::gui {

namespace {

constexpr double kTickLength = 4.0;
constexpr double kGap = 3.0;             // between a tick, its label and the title
constexpr double kPixelsPerTick = 70.0;  // about one tick this many pixels apart

QString tickLabel(double v, double step) {
  if (std::abs(v) < 1e-9 * step) v = 0.0;  // no "-1.2e-17" for zero
  return QString::number(v, 'g', 5);
}

}  // namespace

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return {};
  const double raw = (hi - lo) / std::max(target, 1);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10.0 * decade;
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * decade >= raw) {
      step = m * decade;
      break;
    }
  }
  std::vector<double> ticks;
  const double slack = 1e-9 * step;
  for (double k = std::ceil((lo - slack) / step); k * step <= hi + slack; k += 1.0) ticks.push_back(k * step);
  return ticks;
}

void paint_field_axes(QPainter& painter, const QRectF& data_rect, const QRectF& area, const PackedField& data) {
  const QRectF shown = data_rect.intersected(area);
  if (shown.isEmpty() || data_rect.width() <= 0.0 || data_rect.height() <= 0.0) return;
  const auto xAt = [&](double px) { return data.x0 + data.w * (px - data_rect.left()) / data_rect.width(); };
  const auto yAt = [&](double py) { return data.y0 + data.h * (data_rect.bottom() - py) / data_rect.height(); };
  const auto pxAt = [&](double x) { return data_rect.left() + (x - data.x0) / data.w * data_rect.width(); };
  const auto pyAt = [&](double y) { return data_rect.bottom() - (y - data.y0) / data.h * data_rect.height(); };
  const QFontMetricsF metrics(painter.font());

  // Along the bottom: x ticks, labels centred under them, the title below.
  const double base = shown.bottom() + 1.0;
  painter.drawLine(QPointF(shown.left(), base), QPointF(shown.right(), base));
  const std::vector<double> xs = nice_ticks(xAt(shown.left()), xAt(shown.right()), int(shown.width() / kPixelsPerTick) + 1);
  for (double x : xs) {
    const double px = pxAt(x);
    painter.drawLine(QPointF(px, base), QPointF(px, base + kTickLength));
    const QString label = tickLabel(x, xs.size() > 1 ? xs[1] - xs[0] : 1.0);
    painter.drawText(QPointF(px - 0.5 * metrics.horizontalAdvance(label), base + kTickLength + kGap + metrics.ascent()), label);
  }
  const QStaticText x_title = rich_axis_title_text(data.across.name, data.across.unit);
  painter.drawStaticText(QPointF(shown.center().x() - 0.5 * x_title.size().width(), base + kTickLength + 2.0 * kGap + metrics.height()),
                         x_title);

  // Along the left: y ticks, labels right-aligned before them, the title turned upright.
  const double side = shown.left() - 1.0;
  painter.drawLine(QPointF(side, shown.top()), QPointF(side, shown.bottom()));
  const std::vector<double> ys = nice_ticks(yAt(shown.bottom()), yAt(shown.top()), int(shown.height() / kPixelsPerTick) + 1);
  double widest = 0.0;
  for (double y : ys) {
    const double py = pyAt(y);
    painter.drawLine(QPointF(side - kTickLength, py), QPointF(side, py));
    const QString label = tickLabel(y, ys.size() > 1 ? ys[1] - ys[0] : 1.0);
    const double width = metrics.horizontalAdvance(label);
    widest = std::max(widest, width);
    painter.drawText(QPointF(side - kTickLength - kGap - width, py + 0.5 * (metrics.ascent() - metrics.descent())), label);
  }
  const QStaticText y_title = rich_axis_title_text(data.up.name, data.up.unit);
  painter.save();
  painter.translate(side - kTickLength - 2.0 * kGap - widest - y_title.size().height(), shown.center().y() + 0.5 * y_title.size().width());
  painter.rotate(-90.0);
  painter.drawStaticText(QPointF(0.0, 0.0), y_title);
  painter.restore();
}

}  // namespace ks::gui
