#include "colour_scale.hpp"

#include <cmath>
#include <utility>

namespace ks::gui {

ValueRange ColourScale::rangeFor(const PackedField& data) const {
  ValueRange r = auto_range_ ? ValueRange{log_ ? data.min_positive : data.min, data.max} : manual_;
  if (r.hi < r.lo) std::swap(r.lo, r.hi);
  if (log_) {
    if (r.hi <= 0.0) return {1.0, 10.0};  // nothing positive to show: every value takes the low end
    if (r.lo <= 0.0) {
      const bool min_fits = data.min_positive > 0.0 && data.min_positive < r.hi;
      r.lo = min_fits ? data.min_positive : r.hi * 1e-6;
    }
    if (r.hi == r.lo) return {r.lo / 2.0, r.hi * 2.0};
    return r;
  }
  if (r.hi == r.lo) {  // a uniform field shows the middle colour
    const double pad = r.lo != 0.0 ? 0.5 * std::abs(r.lo) : 0.5;
    return {r.lo - pad, r.hi + pad};
  }
  return r;
}

double ColourScale::valueAt(double t, const ValueRange& range) const {
  return log_ ? range.lo * std::pow(range.hi / range.lo, t) : range.lo + t * (range.hi - range.lo);
}

}  // namespace ks::gui
