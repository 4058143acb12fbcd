// The field view's mapping of values to the colour map: linear or logarithmic, over the shown
// values' range (auto) or the user's, with the fallbacks that keep a uniform field or one with
// nothing positive on a log scale drawable. Pure data, no OpenGL: the shaders apply the mapping
// to each value, and the colour bar labels its ticks with it.
#pragma once

#include "packed_field.hpp"

namespace ks::gui {

// The values mapped to the colour map's ends.
struct ValueRange {
  double lo = 0.0;
  double hi = 1.0;
};

class ColourScale {
 public:
  void setLog(bool on) { log_ = on; }                          // values <= 0 take the low end
  void setAutoRange(bool on) { auto_range_ = on; }             // on: min/max of the shown values (default)
  void setRange(double lo, double hi) { manual_ = {lo, hi}; }  // used when auto range is off
  bool log() const { return log_; }

  // The values mapped to the colour map's ends when `data` is shown.
  ValueRange rangeFor(const PackedField& data) const;
  // The value at fraction t of `range` (0: lo, 1: hi), on this scale.
  double valueAt(double t, const ValueRange& range) const;

 private:
  bool log_ = false;
  bool auto_range_ = true;
  ValueRange manual_;
};

}  // namespace ks::gui
