// The field view's layout and its colour bar's labels. The plot area takes the widget but for
// margins and a strip at the right; in the strip stands the colour bar (the colour map itself,
// drawn by FieldLayers::drawColourRamp) and, painted with QPainter over it, its frame, its title
// (field and unit), ticks labelled with their values, and "log" below on a log scale.
#pragma once

#include <QRectF>
#include <QSizeF>
#include <QString>

class QPainter;

namespace ks::gui {

class ColourScale;
struct ValueRange;

// In widget (logical) pixels, for a widget of `size`:
QRectF plot_area(QSizeF size);        // the widget minus margins and the colour bar's strip
QRectF colour_bar_rect(QSizeF size);  // the bar

// The bar's frame, its title above it ("<name> [<unit>]", or the name without a unit) and the
// values of `range` on `scale` at its ticks, with the painter's pen and font.
void paint_colour_bar_labels(QPainter& painter, QSizeF size, const ColourScale& scale, const ValueRange& range,
                             const QString& name, const QString& unit);

}  // namespace ks::gui
