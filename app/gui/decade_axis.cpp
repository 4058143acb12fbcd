#include "decade_axis.hpp"

#include <algorithm>
#include <cmath>

#include <vtkDoubleArray.h>
#include <vtkObjectFactory.h>
#include <vtkStringArray.h>

#include "field_axes.hpp"

namespace ks::gui {

namespace {
// Pixels a tick label takes along the axis: "0.0215" across, one text line up.
constexpr double kPixelsPerLabelAcross = 90.0;
constexpr double kPixelsPerLabelUp = 40.0;
}  // namespace

vtkStandardNewMacro(DecadeAxis);

void DecadeAxis::GenerateLogSpacedLinearTicks(int, double, double) {
  // The axis's own ends (log10), not VTK's rounded ones, so that every label is on the axis.
  const double lo = std::pow(10.0, std::min(Minimum, Maximum)), hi = std::pow(10.0, std::max(Minimum, Maximum));
  const float* p1 = GetPoint1();
  const float* p2 = GetPoint2();
  const bool up = GetPosition() == vtkAxis::LEFT || GetPosition() == vtkAxis::RIGHT;
  const double pixels = std::hypot(double(p2[0] - p1[0]), double(p2[1] - p1[1]));
  const int labels = std::max(2, int(pixels / (up ? kPixelsPerLabelUp : kPixelsPerLabelAcross)));
  for (const double v : nice_ticks(lo, hi, labels)) {
    TickPositions->InsertNextValue(std::log10(v));
    TickLabels->InsertNextValue(GenerateSimpleLabel(v));
  }
}

}  // namespace ks::gui
