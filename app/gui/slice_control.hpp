// The slice control of 3D image fields: which plane (x-y, x-z or y-z, by the axis normal to it),
// a slider over the slices along that axis and a label naming the slice and where it lies
// ("y slice 20 of 40, y = 20.5 dx"). A field the control has not shown before starts at its
// method's view normal (FieldDesc::view_normal: the LBM slices along its flow) and the middle slice.
#pragma once

#include <QWidget>

#include "core/field.hpp"
#include "packed_field.hpp"

class QComboBox;
class QLabel;
class QSlider;

namespace ks::gui {

class SliceControl : public QWidget {
  Q_OBJECT
 public:
  explicit SliceControl(QWidget* parent = nullptr);

  // Follows the shown field (null: none). False when it is not a 3D image: nothing to slice.
  bool follow(const ks::FieldData* field);
  // For another preset: the next field followed starts afresh at its view normal and middle
  // slice, and announces them (planeChanged), whatever its name and grid.
  void resetForPreset();
  SlicePlane plane() const;
  QString text() const;  // the label's text

 signals:
  void planeChanged(ks::gui::SlicePlane plane);

 private:
  void showSliceCount();  // the slider's range for the chosen normal, the middle slice
  void announce();        // label and signal

  QComboBox* normal_;
  QSlider* slider_;
  QLabel* label_;
  ks::Grid grid_;      // of the field followed
  std::string field_;  // its name: a new one starts at its view normal
};

}  // namespace ks::gui
