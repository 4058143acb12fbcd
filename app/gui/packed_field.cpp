#include "packed_field.hpp"

#include <QString>
#include <QtDebug>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <utility>

#include "core/display_value.hpp"

namespace ks::gui {

namespace {

constexpr double kParticleMargin = 0.03;  // of the bounding box, each side: edge points stay whole

// Running min, max and smallest positive value over the finite values.
struct Extremes {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double min_positive = std::numeric_limits<double>::infinity();

  void add(double v) {
    if (!std::isfinite(v)) return;
    min = std::min(min, v);
    max = std::max(max, v);
    if (v > 0.0) min_positive = std::min(min_positive, v);
  }
  void storeIn(PackedField& p) const {
    const bool any = min <= max;
    p.min = any ? min : 0.0;
    p.max = any ? max : 0.0;
    p.min_positive = std::isfinite(min_positive) ? min_positive : 0.0;
  }
};

// The scalar shown for element `index`, the same value a zero-copy view writes on the device.
double scalarAt(const ks::FieldData& f, std::int64_t index, int component) {
  const int n = f.desc.components;
  return ks::display_value(f.values.data() + index * n, n, shown_component(f, component));
}

bool isWellFormed(const ks::FieldData& f) {
  const std::int64_t count = f.grid.count();
  if (count <= 0 || f.desc.components < 1) return false;
  if (std::int64_t(f.values.size()) < count * f.desc.components) return false;
  if (f.grid.kind == ks::Grid::Kind::Particles) return std::int64_t(f.positions.size()) >= count;
  return f.grid.spacing[0] > 0.0 && f.grid.spacing[1] > 0.0 && (f.grid.cells[2] == 1 || f.grid.spacing[2] > 0.0);
}

bool masks(const ks::FieldData* mask, const ks::FieldData& f) {
  return mask && mask->grid.kind == ks::Grid::Kind::Image && mask->grid.cells == f.grid.cells &&
         std::int64_t(mask->values.size()) >= f.grid.count();
}

PackedField packImageSlice(const ks::FieldData& f, SlicePlane plane, int component, const ks::FieldData* mask) {
  const ks::Grid& g = f.grid;
  const int normal = std::clamp(plane.normal, 0, 2);
  const int a = normal == 0 ? 1 : 0, b = normal == 2 ? 1 : 2;  // the plane's axes, across and up
  const int index = std::clamp(plane.index, 0, g.cells[normal] - 1);
  const std::int64_t stride[3] = {1, g.cells[0], std::int64_t(g.cells[0]) * g.cells[1]};
  PackedField p;
  p.kind = PackedField::Kind::Image;
  p.width = g.cells[a];
  p.height = g.cells[b];
  p.masked = masks(mask, f);
  p.data.resize(std::size_t(p.width) * p.height);
  Extremes extremes;
  for (int j = 0; j < p.height; ++j) {
    for (int i = 0; i < p.width; ++i) {
      const std::int64_t cell = index * stride[normal] + i * stride[a] + j * stride[b];
      const double v = p.masked && mask->values[cell] > 0.5 ? std::numeric_limits<double>::quiet_NaN() : scalarAt(f, cell, component);
      p.data[std::size_t(j) * p.width + i] = float(v);
      extremes.add(v);
    }
  }
  extremes.storeIn(p);
  p.x0 = g.origin[a];
  p.y0 = g.origin[b];
  p.w = p.width * g.spacing[a];
  p.h = p.height * g.spacing[b];
  p.across = g.axes[a];
  p.up = g.axes[b];
  return p;
}

// An interval holding [lo, hi] with a margin; a point gets `fallback_size`, centred on it.
std::pair<double, double> paddedInterval(double lo, double hi, double fallback_size) {
  const double size = (hi > lo ? hi - lo : fallback_size) * (1.0 + 2.0 * kParticleMargin);
  const double centre = 0.5 * (lo + hi);
  return {centre - 0.5 * size, size};
}

PackedField packParticles(const ks::FieldData& f, int component) {
  const std::int64_t count = f.grid.count();
  double x_lo = f.positions[0][0], x_hi = x_lo, y_lo = f.positions[0][1], y_hi = y_lo;
  for (std::int64_t k = 0; k < count; ++k) {
    x_lo = std::min(x_lo, f.positions[k][0]);
    x_hi = std::max(x_hi, f.positions[k][0]);
    y_lo = std::min(y_lo, f.positions[k][1]);
    y_hi = std::max(y_hi, f.positions[k][1]);
  }
  // A flat cloud (all on one line) borrows the other axis's extent; a single point gets 1 unit.
  const double x_size = x_hi - x_lo, y_size = y_hi - y_lo;
  const double fallback = std::max(x_size, y_size) > 0.0 ? std::max(x_size, y_size) : 1.0;

  PackedField p;
  p.kind = PackedField::Kind::Particles;
  p.width = int(count);
  p.height = 1;
  std::tie(p.x0, p.w) = paddedInterval(x_lo, x_hi, fallback);
  std::tie(p.y0, p.h) = paddedInterval(y_lo, y_hi, fallback);
  p.across = f.grid.axes[0];
  p.up = f.grid.axes[1];
  p.data.resize(std::size_t(count) * 3);
  Extremes extremes;
  for (std::int64_t k = 0; k < count; ++k) {
    const double v = scalarAt(f, k, component);
    p.data[3 * k + 0] = float((f.positions[k][0] - p.x0) / p.w);
    p.data[3 * k + 1] = float((f.positions[k][1] - p.y0) / p.h);
    p.data[3 * k + 2] = float(v);
    extremes.add(v);
  }
  extremes.storeIn(p);
  return p;
}

}  // namespace

int shown_component(const ks::FieldData& f, int component) {
  return f.desc.components > 1 && component >= 0 && component < f.desc.components ? component : -1;
}

PackedField pack_field(const ks::FieldData& f, SlicePlane plane, int component, const ks::FieldData* mask) {
  if (!isWellFormed(f)) {
    qWarning().noquote() << "FieldView: field" << QString::fromStdString(f.desc.name)
                         << "does not match its grid (values, positions or spacing): not shown";
    return {};
  }
  return f.grid.kind == ks::Grid::Kind::Image ? packImageSlice(f, plane, component, mask) : packParticles(f, component);
}

}  // namespace ks::gui
