// The plot view's axes (vtkChartXY). On a log scale whose range lies within one decade VTK 9.1
// labels up to 20 values, and they overlap ("0.020.0210.022" on a time axis from 0.01 to 0.025):
// this axis labels round values there, about one per label's width. Wider log ranges and linear
// axes keep VTK's ticks.
#pragma once

#include <vtkAxis.h>

namespace ks::gui {

class DecadeAxis : public vtkAxis {
 public:
  static DecadeAxis* New();
  vtkTypeMacro(DecadeAxis, vtkAxis);

 protected:
  DecadeAxis() = default;
  // VTK calls this when both ends of a log axis lie in one decade.
  void GenerateLogSpacedLinearTicks(int order, double min, double max) override;
};

}  // namespace ks::gui
