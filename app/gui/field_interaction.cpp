#include "field_interaction.hpp"

#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "notation.hpp"
#include "packed_field.hpp"

namespace ks::gui {

namespace {

constexpr double kHoverRadiusPx = 6.0;  // how near the cursor a particle must be to be named
constexpr double kMinZoom = 1.0 / 16.0;
constexpr double kMaxZoom = 4096.0;
constexpr double kWheelStepsPerDoubling = 4.0;  // wheel notches (120 units each) that double the zoom

// A point of the data's unit square and the value shown there.
struct Sample {
  double u = 0.0, v = 0.0;
  double value = 0.0;
};

std::optional<Sample> cellAt(const PackedField& p, double u, double v) {
  if (u < 0.0 || u >= 1.0 || v < 0.0 || v >= 1.0) return std::nullopt;
  const int i = std::min(int(u * p.width), p.width - 1);
  const int j = std::min(int(v * p.height), p.height - 1);
  return Sample{u, v, p.data[std::size_t(j) * p.width + i]};
}

// The particle nearest to (u, v) within `radius_px`; `unit_px` is the unit square's size on screen.
std::optional<Sample> particleNear(const PackedField& p, double u, double v, QSizeF unit_px, double radius_px) {
  std::optional<Sample> nearest;
  double best = radius_px * radius_px;
  for (std::size_t k = 0; k < std::size_t(p.width); ++k) {
    const double dx = (p.data[3 * k] - u) * unit_px.width();
    const double dy = (p.data[3 * k + 1] - v) * unit_px.height();
    const double d2 = dx * dx + dy * dy;
    if (d2 <= best) {
      best = d2;
      nearest = Sample{p.data[3 * k], p.data[3 * k + 1], p.data[3 * k + 2]};
    }
  }
  return nearest;
}

QString number(double v) { return QString::number(v, 'g', 4); }

}  // namespace

QRectF FieldInteraction::dataRect(const QRectF& area, QSizeF data_size, bool keep_aspect) const {
  const double across = area.width() / data_size.width(), up = area.height() / data_size.height();
  const double fit = std::min(across, up);
  const QSizeF size(data_size.width() * (keep_aspect ? fit : across) * zoom_, data_size.height() * (keep_aspect ? fit : up) * zoom_);
  const QPointF centre = area.center() + pan_;
  return QRectF(centre - QPointF(0.5 * size.width(), 0.5 * size.height()), size);
}

void FieldInteraction::press(const QMouseEvent& event) {
  if (event.button() == Qt::LeftButton) drag_from_ = event.position();
}

void FieldInteraction::release(const QMouseEvent& event) {
  if (event.button() == Qt::LeftButton) drag_from_.reset();
}

bool FieldInteraction::move(const QMouseEvent& event) {
  cursor_ = event.position();
  if (!drag_from_ || !(event.buttons() & Qt::LeftButton)) return false;
  pan_ += event.position() - *drag_from_;
  drag_from_ = event.position();
  return true;
}

void FieldInteraction::zoom(const QWheelEvent& event, const QRectF& area) {
  const double steps = event.angleDelta().y() / 120.0;
  const double zoom = std::clamp(zoom_ * std::pow(2.0, steps / kWheelStepsPerDoubling), kMinZoom, kMaxZoom);
  const QPointF cursor = event.position();
  const QPointF centre = area.center() + pan_;
  const QPointF new_centre = cursor - (cursor - centre) * (zoom / zoom_);
  pan_ = new_centre - area.center();
  zoom_ = zoom;
  cursor_ = cursor;
}

void FieldInteraction::reset() {
  zoom_ = 1.0;
  pan_ = {};
}

void FieldInteraction::leave() { cursor_.reset(); }

QString hover_text(const PackedField& data, const QRectF& data_rect, QPointF pos, const QString& name, const QString& unit) {
  if (data_rect.isEmpty()) return {};
  const double u = (pos.x() - data_rect.left()) / data_rect.width();
  const double v = (data_rect.bottom() - pos.y()) / data_rect.height();
  const std::optional<Sample> s =
      data.kind == PackedField::Kind::Image ? cellAt(data, u, v) : particleNear(data, u, v, data_rect.size(), kHoverRadiusPx);
  if (!s) return {};
  const auto coordinate = [](const ks::GridAxis& axis, double value) {
    return QString("%1 = %2 %3").arg(unicode_notation(axis.name), number(value), unicode_notation(axis.unit));
  };
  const QString where = coordinate(data.across, data.x0 + s->u * data.w) + ", " + coordinate(data.up, data.y0 + s->v * data.h);
  if (data.masked && std::isnan(s->value)) return where + ": solid";  // a masked cell has no value
  return QString("%1: %2 = %3%4")
      .arg(where, name, number(s->value), unit.isEmpty() ? QString() : " " + unicode_notation(unit.toStdString()));
}

}  // namespace ks::gui
