// The field view's axes: ticks at round values along the bottom and the left of the data's
// visible part, labelled with their values, and axis titles with the grid's names and units in
// proper notation ("x [λ_ref]", "v_x [v_ref]").
#pragma once

#include <QRectF>
#include <vector>

class QPainter;

namespace ks::gui {

struct PackedField;

// Round tick values in [lo, hi], 1, 2 or 5 times a power of ten apart, about `target` of them
// (at least two where the interval allows). Empty for an empty or non-finite interval.
std::vector<double> nice_ticks(double lo, double hi, int target);

// The axes of `data` drawn over `data_rect` (widget pixels), of which the part inside `area`
// is visible; ticks and titles go in the margins left of and below `area`.
void paint_field_axes(QPainter& painter, const QRectF& data_rect, const QRectF& area, const PackedField& data);

}  // namespace ks::gui
