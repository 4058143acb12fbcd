// The field view's data: one field of a snapshot packed into the scalars it shows (a slice of
// a 3D image, every particle), as uploaded to the GPU and read by auto range, the colour bar,
// the axes and the hover text. Pure data, no OpenGL.
#pragma once

#include <vector>

#include "core/field.hpp"

namespace ks::gui {

// The shown values of one field on the host, as uploaded to the GPU: what auto range, the
// overlay and the hover text read.
struct PackedField {
  enum class Kind { None, Image, Particles };
  Kind kind = Kind::None;
  int width = 0;   // Image: cells along x; Particles: particle count
  int height = 0;  // Image: cells along y; Particles: 1
  // Image: one scalar per cell, row-major from the lowest y.
  // Particles: (x, y, value) per particle, x and y in [0, 1] over the rectangle below.
  std::vector<float> data;
  // The data's rectangle in the axes' units, y up: lower corner (x0, y0), size w x h. It is the
  // unit square that the shaders place on screen.
  double x0 = 0.0, y0 = 0.0, w = 1.0, h = 1.0;
  // The grid's axes drawn across and up the screen: x and y, or the two in a slice's plane.
  ks::GridAxis across = {"x", "m"}, up = {"y", "m"};
  // Image: cells a mask covers (solid nodes) hold NaN; the view draws them in their own colour.
  bool masked = false;
  // Over the finite values: min, max and the smallest positive one (0 if none).
  double min = 0.0, max = 0.0, min_positive = 0.0;
};

// The component of field f a view shows for the choice `component`: that component of a vector
// field that has it, else -1 (a scalar field's value, a vector's magnitude), as
// Method::write_display_field and ks::display_value take it.
int shown_component(const ks::FieldData& f, int component);

// A plane of a 3D image: the cells at index `index` along axis `normal` (0 x, 1 y, 2 z). The
// plane's own axes, across and up the screen, are the other two in order: z-normal shows x, y;
// y-normal x, z; x-normal y, z.
struct SlicePlane {
  int normal = 2;
  int index = 0;
};

// Field f's shown values for the choice `component`: the slice `plane` of an image (index clamped
// to the grid), or every particle with a bounding box padded so that edge points stay whole. Where
// `mask` (an image field on f's grid, or null) is above 0.5 the cell packs as NaN. A field whose
// values, positions or spacing do not match its grid packs to Kind::None, with a warning.
PackedField pack_field(const ks::FieldData& f, SlicePlane plane, int component, const ks::FieldData* mask = nullptr);

}  // namespace ks::gui
