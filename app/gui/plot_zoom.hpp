// The plot's zoom window along one axis, in the axis's own scale (log10 of the values on a log axis):
// the mouse wheel zooms about the cursor, a drag pans, a double click returns to the data's range.
#pragma once

namespace ks::gui {

struct AxisWindow {
  double lo = 0.0, hi = 1.0;  // unscaled values at the ends of the axis

  // Shrinks (factor < 1) or widens the window about the point at `fraction` (0 = lo, 1 = hi),
  // which stays where it is on screen.
  AxisWindow zoomed(double fraction, double factor, bool log) const;
  // Moves the window by `fraction` of its width (positive: towards higher values).
  AxisWindow panned(double fraction, bool log) const;
  // Whether the window can be shown on this scale (finite, ordered, positive on a log axis).
  bool valid(bool log) const;
};

}  // namespace ks::gui
