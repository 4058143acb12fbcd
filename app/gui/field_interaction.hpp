// The field view's interaction: the view transform (the data fitted into the plot area, zoomed
// about its centre and panned), changed by the mouse (a left drag pans, the wheel zooms about the
// cursor, a double click fits the data again), and the value under the cursor as hover text.
#pragma once

#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <optional>

class QMouseEvent;
class QWheelEvent;

namespace ks::gui {

struct PackedField;

class FieldInteraction {
 public:
  // Where the data's unit square lies, in widget pixels: a rectangle of `data_size` (in its axes'
  // units) fitted into `area` with its aspect kept (`keep_aspect`: both axes measure the same
  // quantity) or filling it (a phase space: x against v_x), scaled by the zoom about its centre,
  // moved by the pan.
  QRectF dataRect(const QRectF& area, QSizeF data_size, bool keep_aspect) const;
  // The cursor in widget pixels; none outside the widget.
  const std::optional<QPointF>& cursor() const { return cursor_; }

  void press(const QMouseEvent& event);                     // a left press starts a drag
  void release(const QMouseEvent& event);                   // and its release ends it
  bool move(const QMouseEvent& event);                      // moves the cursor; true when the drag panned the view
  void zoom(const QWheelEvent& event, const QRectF& area);  // about the cursor: the point under it stays
  void reset();                                             // the data fitted into the plot area again
  void leave();                                             // the cursor left the widget

 private:
  double zoom_ = 1.0;
  QPointF pan_;  // widget pixels
  std::optional<QPointF> drag_from_;
  std::optional<QPointF> cursor_;
};

// "x = … <unit>, y = … <unit>: <name> = <value> <unit>" (the data's axes) at `pos` (widget pixels) for `data` drawn over
// `data_rect`: the cell under it, or the particle nearest within a few pixels; empty for none.
QString hover_text(const PackedField& data, const QRectF& data_rect, QPointF pos, const QString& name, const QString& unit);

}  // namespace ks::gui
