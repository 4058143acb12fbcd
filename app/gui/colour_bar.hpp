// The field view's layout and its colour bar's labels. The plot area takes the widget but for
// margins: a strip at the top for the overlay's status, room at the left and the bottom for the
// axes (field_axes.hpp) and a strip at the right; in it stands the colour bar (the colour map itself,
// drawn by FieldLayers::drawColourRamp) and, painted with QPainter over it, its frame, its title
// (field and unit), ticks labelled with their values, and "log" below on a log scale.
#pragma once

#include <QColor>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <optional>

class QPainter;

namespace ks::gui {

class ColourScale;
struct ValueRange;

inline constexpr double kViewMargin = 12.0;  // logical pixels from the view's edges to what it draws

// In widget (logical) pixels, for a widget of `size`:
QRectF plot_area(QSizeF size);              // the widget minus margins and the colour bar's strip
double colour_bar_strip_left(QSizeF size);  // where the strip at the right begins (bar, ticks, title)
QRectF colour_bar_rect(QSizeF size);        // the bar

// The colour of masked cells (solid nodes): shaders/image.frag's kNanColour.
inline const QColor kMaskColour(199, 199, 199);

// The values of `range` on `scale` at the bar's ticks, bottom to top, with the fewest significant
// digits (3 to 6) that tell neighbouring ticks apart: a field that varies little about its mean
// (the Couette flow's temperature) does not label every tick alike.
QStringList colour_bar_tick_labels(const ColourScale& scale, const ValueRange& range);

// The bar's frame, its title above it ("<name> [<unit>]" in notation, or the name without a
// unit) and the values of `range` on `scale` at its ticks, with the painter's pen and font;
// with `masked_label`, a swatch of the mask colour below the bar named by it.
void paint_colour_bar_labels(QPainter& painter, QSizeF size, const ColourScale& scale, const ValueRange& range, const QString& name,
                             const QString& unit, const std::optional<QString>& masked_label = std::nullopt);

}  // namespace ks::gui
