#include "plot_zoom.hpp"

#include <cmath>

namespace ks::gui {

namespace {

double to_scale(double v, bool log) { return log ? std::log10(v) : v; }
double from_scale(double s, bool log) { return log ? std::pow(10.0, s) : s; }

}  // namespace

AxisWindow AxisWindow::zoomed(double fraction, double factor, bool log) const {
  const double a = to_scale(lo, log), b = to_scale(hi, log);
  const double centre = a + fraction * (b - a);
  return {from_scale(centre - (centre - a) * factor, log), from_scale(centre + (b - centre) * factor, log)};
}

AxisWindow AxisWindow::panned(double fraction, bool log) const {
  const double a = to_scale(lo, log), b = to_scale(hi, log), shift = fraction * (b - a);
  return {from_scale(a + shift, log), from_scale(b + shift, log)};
}

bool AxisWindow::valid(bool log) const { return std::isfinite(lo) && std::isfinite(hi) && lo < hi && (!log || lo > 0.0); }

}  // namespace ks::gui
