// What a field view shows of a field's components at one cell or particle: the scalar, a
// vector's magnitude (component -1) or one component. The host views and the methods' device
// writers of zero-copy views (Method::write_display_field) use this one definition.
#pragma once

#include <cmath>

#include "core/host_device.hpp"

namespace ks {

KS_HD double display_value(const double* v, int components, int component) {
  if (component >= 0) return v[component];
  if (components == 1) return v[0];
  double s = 0.0;
  for (int a = 0; a < components; ++a) s += v[a] * v[a];
  return sqrt(s);
}

}  // namespace ks
