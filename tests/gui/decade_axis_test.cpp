// The plot view's axis on a log scale within one decade: a few round, readable labels where VTK's
// own axis labels up to 20 values that overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <vtkNew.h>
#include <vtkStringArray.h>

#include "decade_axis.hpp"

namespace {

std::vector<std::string> labels_of(ks::gui::DecadeAxis* axis, double lo, double hi, float pixels) {
  axis->SetPosition(vtkAxis::BOTTOM);
  axis->SetPoint1(0.0f, 0.0f);
  axis->SetPoint2(pixels, 0.0f);
  axis->SetLogScale(true);
  axis->SetUnscaledRange(lo, hi);
  axis->Update();
  std::vector<std::string> out;
  vtkStringArray* labels = axis->GetTickLabels();
  for (vtkIdType k = 0; k < labels->GetNumberOfValues(); ++k) out.push_back(labels->GetValue(k));
  return out;
}

TEST(DecadeAxis, ALogRangeWithinOneDecadeGetsAFewRoundLabels) {
  vtkNew<ks::gui::DecadeAxis> axis;
  // 540 pixels hold six labels across: steps of 0.005 from 0.01 to 0.025 (t / tau_char early on).
  EXPECT_EQ(labels_of(axis, 0.01, 0.025, 540.0f), (std::vector<std::string>{"0.01", "0.015", "0.02", "0.025"}));
  // A narrow axis keeps at least two labels.
  EXPECT_EQ(labels_of(axis, 0.01, 0.025, 100.0f), (std::vector<std::string>{"0.01", "0.02"}));
  // Ranges over more than a decade keep VTK's ticks: every 1..9 times a power of ten, the decades
  // (and 2 and 5 times them) labelled, the others not.
  std::vector<std::string> labelled;
  for (const std::string& l : labels_of(axis, 1.0, 1000.0, 540.0f))
    if (!l.empty()) labelled.push_back(l);
  for (const char* decade : {"1", "10", "100"}) EXPECT_NE(std::find(labelled.begin(), labelled.end(), decade), labelled.end()) << decade;
}

}  // namespace
