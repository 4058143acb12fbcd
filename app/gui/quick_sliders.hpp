// The method's quick parameters (live, Int or Real, marked quick) as a row of labelled sliders under
// the field view: outside the picture, they cover no axis title, colour bar or legend; Qt widgets, a
// press lands whatever the view's frame rate. A value changes only on purpose: by dragging a
// slider's handle (sent on release; a click beside the handle does nothing) or by typing it into the
// box beside it (sent on Enter, checked by the parameter's rules).
#pragma once

#include <QString>
#include <QWidget>
#include <vector>

#include "core/param.hpp"

class QHBoxLayout;
class QLineEdit;
class QSlider;

namespace ks::gui {

class QuickSliders : public QWidget {
  Q_OBJECT
 public:
  explicit QuickSliders(QWidget* parent = nullptr);

  // One slider per spec that is quick, live, numeric and acts with the chosen case, at its value in
  // `values`; hidden when there is none.
  void setParameters(const std::vector<ParamSpec>& specs, const ParamSet& values);
  void clear();  // none, as for a new preset
  // The values the simulation runs with (a slider being dragged keeps the user's).
  void showValues(const ParamSet& values);
  int count() const { return int(quick_.size()); }

 signals:
  void parameterChanged(const QString& key, const ks::ParamValue& value);
  // A value was typed and refused: why, for the log.
  void parameterRefused(const QString& key, const QString& text, const QString& reason);
  void editingDone();  // Enter in a value box: the window gives the keys back to its view

 private:
  struct Quick {
    ParamSpec spec;
    QSlider* slider = nullptr;
    QLineEdit* entry = nullptr;
    ParamValue shown;  // the simulation's, or the last sent
  };
  void add(const ParamSpec& spec, const ParamValue& value);
  void display(Quick& q, const ParamValue& value);
  void send(Quick& q, const ParamValue& value);

  QHBoxLayout* row_;
  std::vector<Quick> quick_;
};

// A slider position in [0, kSliderSteps] for `value` of `spec` and back: linear, or logarithmic over
// ranges of three decades or more (an end time in [1e-3, 1e6] would otherwise lose its low decades).
inline constexpr int kSliderSteps = 1000;
int slider_position(const ParamSpec& spec, const ParamValue& value);
ParamValue slider_value(const ParamSpec& spec, int position);

}  // namespace ks::gui
