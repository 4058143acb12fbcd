#include "shown_field.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace ks::gui {

namespace {

const std::string kMaskField = "solid";  // 1 on solid nodes (lbm.binary), 0 in the fluid

}  // namespace

void ShownField::setSnapshot(std::shared_ptr<const ks::Snapshot> snapshot) {
  snapshot_ = std::move(snapshot);
  stale_ = true;
}

void ShownField::setName(const QString& name) {
  wanted_name_ = name;
  stale_ = true;
}

void ShownField::setComponent(int c) {
  component_ = c;
  stale_ = true;
}

void ShownField::setSlice(SlicePlane plane) {
  slice_ = {std::clamp(plane.normal, 0, 2), std::max(plane.index, 0)};  // the upper clamp needs the field
  stale_ = true;
}

void ShownField::reset() {
  *this = ShownField();
  stale_ = true;  // the view drops the packed values it drew
}

QStringList ShownField::names() const {
  QStringList names;
  if (snapshot_) {
    for (const ks::FieldData& f : snapshot_->fields) names << QString::fromStdString(f.desc.name);
  }
  return names;
}

const ks::FieldData* ShownField::field() const {
  if (!snapshot_ || snapshot_->fields.empty()) return nullptr;
  const std::string wanted = wanted_name_.toStdString();
  for (const ks::FieldData& f : snapshot_->fields) {
    if (f.desc.name == wanted) return &f;
  }
  return &snapshot_->fields.front();
}

const ks::FieldData* ShownField::mask() const {
  if (!snapshot_) return nullptr;
  for (const ks::FieldData& f : snapshot_->fields)
    if (f.desc.name == kMaskField) return &f;
  return nullptr;
}

SlicePlane ShownField::slice() const {
  const ks::FieldData* f = field();
  return f && f->grid.cells[2] > 1 ? slice_ : SlicePlane{};
}

QString ShownField::displayName() const {
  const ks::FieldData* f = field();
  if (!f) return {};
  const QString name = QString::fromStdString(f->desc.name);
  if (f->desc.components == 1) return name;
  const int component = shown_component(*f, component_);
  return component >= 0 ? QString("%1[%2]").arg(name).arg(component) : QString("|%1|").arg(name);
}

QString ShownField::unit() const {
  const ks::FieldData* f = field();
  return f ? QString::fromStdString(f->desc.unit) : QString();
}

bool ShownField::repackIfStale() {
  if (!stale_) return false;
  const ks::FieldData* f = field();
  const ks::FieldData* m = mask();
  packed_ = f ? pack_field(*f, slice(), component_, m != f ? m : nullptr) : PackedField{};
  stale_ = false;
  return true;
}

}  // namespace ks::gui
