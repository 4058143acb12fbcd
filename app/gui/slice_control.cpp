#include "slice_control.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <algorithm>

#include "notation.hpp"

namespace ks::gui {

SliceControl::SliceControl(QWidget* parent)
    : QWidget(parent), normal_(new QComboBox(this)), slider_(new QSlider(Qt::Horizontal, this)), label_(new QLabel(this)) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  // Items in axis order: index = the axis normal to the plane.
  normal_->addItems({"y-z plane", "x-z plane", "x-y plane"});
  normal_->setToolTip("The plane of a 3D field shown (normal to x, y or z)");
  slider_->setFixedWidth(140);
  slider_->setToolTip("Which slice of a 3D field");
  label_->setObjectName("sliceLabel");
  layout->addWidget(normal_);
  layout->addWidget(label_);
  layout->addWidget(slider_);
  connect(normal_, &QComboBox::currentIndexChanged, this, [this] {
    showSliceCount();
    announce();
  });
  connect(slider_, &QSlider::valueChanged, this, &SliceControl::announce);
}

bool SliceControl::follow(const ks::FieldData* field) {
  const bool sliced = field && field->grid.kind == ks::Grid::Kind::Image && field->grid.cells[2] > 1;
  if (!sliced) return false;
  const bool new_field = field->desc.name != field_;
  const bool new_grid = field->grid.cells != grid_.cells;
  field_ = field->desc.name;
  grid_ = field->grid;
  if (new_field) {
    const QSignalBlocker block(normal_);
    normal_->setCurrentIndex(std::clamp(field->desc.view_normal, 0, 2));
  }
  if (new_field || new_grid) {
    showSliceCount();
    announce();
  }
  return true;
}

void SliceControl::resetForPreset() {
  field_.clear();
  grid_ = ks::Grid();
}

SlicePlane SliceControl::plane() const { return {normal_->currentIndex(), slider_->value()}; }

QString SliceControl::text() const { return label_->text(); }

void SliceControl::showSliceCount() {
  const int cells = grid_.cells[std::clamp(normal_->currentIndex(), 0, 2)];
  const QSignalBlocker block(slider_);
  slider_->setRange(0, cells - 1);
  slider_->setValue(cells / 2);
}

void SliceControl::announce() {
  const int a = std::clamp(normal_->currentIndex(), 0, 2), k = slider_->value();
  const ks::GridAxis& axis = grid_.axes[a];
  const QString name = unicode_notation(axis.name);
  label_->setText(QString(" %1 slice %2 of %3, %1 = %4 %5 ")
                      .arg(name)
                      .arg(k)
                      .arg(slider_->maximum() + 1)
                      .arg(grid_.origin[a] + (k + 0.5) * grid_.spacing[a], 0, 'g', 4)
                      .arg(unicode_notation(axis.unit)));
  emit planeChanged(plane());
}

}  // namespace ks::gui
