#include "colour_bar.hpp"

#include <QFontMetricsF>
#include <QObject>
#include <QPainter>
#include <QStaticText>
#include <algorithm>

#include "colour_scale.hpp"
#include "notation.hpp"

namespace ks::gui {

namespace {

// Layout of the view, in widget (logical) pixels.
constexpr double kMargin = kViewMargin;  // around the plot area
constexpr double kStatusStrip = 40.0;    // above the plot area: the overlay's status lines
constexpr double kAxisLeft = 64.0;       // left of the plot area: y ticks, labels and title
constexpr double kAxisBottom = 40.0;     // below the plot area: x ticks, labels and title
constexpr double kBarAreaWidth = 100.0;  // at the right: colour bar, ticks and labels
constexpr double kBarWidth = 18.0;
constexpr double kBarTop = 44.0;     // above the bar: its title
constexpr double kBarBottom = 72.0;  // below the bar: "log", the mask's swatch, the folded sliders
constexpr double kTickLength = 5.0;
constexpr int kTickCount = 5;
constexpr int kMinTickDigits = 3;
constexpr int kMaxTickDigits = 6;  // "-0.100001" fits the strip beside the bar

}  // namespace

QRectF plot_area(QSizeF size) {
  return QRectF(QPointF(0.0, 0.0), size).adjusted(kMargin + kAxisLeft, kMargin + kStatusStrip, -kBarAreaWidth, -kMargin - kAxisBottom);
}

double colour_bar_strip_left(QSizeF size) { return size.width() - kBarAreaWidth; }

QRectF colour_bar_rect(QSizeF size) {
  const double left = colour_bar_strip_left(size) + kMargin;
  return QRectF(left, kBarTop, kBarWidth, std::max(size.height() - kBarTop - kBarBottom, 1.0));
}

QStringList colour_bar_tick_labels(const ColourScale& scale, const ValueRange& range) {
  const auto labels_at = [&](int digits) {
    QStringList labels;
    for (int k = 0; k < kTickCount; ++k) labels << QString::number(scale.valueAt(double(k) / (kTickCount - 1), range), 'g', digits);
    return labels;
  };
  for (int digits = kMinTickDigits; digits <= kMaxTickDigits; ++digits) {
    const QStringList labels = labels_at(digits);
    if (std::adjacent_find(labels.begin(), labels.end()) == labels.end()) return labels;
  }
  return labels_at(kMinTickDigits);  // a range too narrow to tell apart: its value to 3 digits
}

void paint_colour_bar_labels(QPainter& painter, QSizeF size, const ColourScale& scale, const ValueRange& range, const QString& name,
                             const QString& unit, const std::optional<QString>& masked_label) {
  const QRectF bar = colour_bar_rect(size);
  painter.drawRect(bar);

  const QStaticText title = rich_axis_title_text(name.toStdString(), unit.toStdString());
  painter.drawStaticText(QPointF(size.width() - kMargin - title.size().width(), kBarTop - 6.0 - title.size().height()), title);

  const QFontMetricsF metrics(painter.font());
  const QStringList labels = colour_bar_tick_labels(scale, range);
  for (int k = 0; k < kTickCount; ++k) {
    const double t = double(k) / (kTickCount - 1);
    const double y = bar.bottom() - t * bar.height();
    painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + kTickLength, y));
    const QPointF baseline(bar.right() + kTickLength + 3.0, y + 0.5 * (metrics.ascent() - metrics.descent()));
    painter.drawText(baseline, labels[k]);
  }
  if (masked_label) {  // the colour of masked cells, a swatch with its meaning
    const QRectF swatch(bar.left(), bar.bottom() + 24.0, bar.width(), 12.0);
    painter.fillRect(swatch, kMaskColour);
    painter.drawRect(swatch);
    painter.drawText(QPointF(swatch.right() + 4.0, swatch.bottom()), *masked_label);
  }
  if (scale.log()) {
    painter.drawText(QRectF(bar.left() - 20.0, bar.bottom() + 4.0, bar.width() + 40.0, kBarBottom), Qt::AlignHCenter | Qt::AlignTop,
                     QObject::tr("log"));
  }
}

}  // namespace ks::gui
