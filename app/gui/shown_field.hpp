// What the field view shows of the latest snapshot: the field (the one asked for, else the
// first), its component and slice plane, and their values packed for drawing (packed_field.hpp),
// packed again only after a change. Image cells where the snapshot's "solid" field (on the same
// grid) is set are masked. Pure data, no OpenGL.
#pragma once

#include <QString>
#include <QStringList>
#include <memory>

#include "core/method.hpp"
#include "packed_field.hpp"

namespace ks::gui {

class ShownField {
 public:
  // Each of these makes the packed values stale.
  void setSnapshot(std::shared_ptr<const ks::Snapshot> snapshot);
  // A field of the snapshot. A name the snapshot lacks is kept as the wish, and the first
  // field is shown meanwhile.
  void setName(const QString& name);
  void setComponent(int c);         // vector fields: -1 = magnitude (default), else that component
  void setSlice(SlicePlane plane);  // 3D image fields (the index clamped to the field when packing)
  // For another preset: no snapshot, no wished-for field, the magnitude, the default plane.
  void reset();

  QStringList names() const;           // the snapshot's fields
  const ks::FieldData* field() const;  // the field shown; null without one
  int component() const { return component_; }
  // The plane shown: the one set for a 3D image field; a 2D one is shown whole (SlicePlane{}).
  SlicePlane slice() const;
  QString displayName() const;  // the field's name with the component: "u", "u[0]", "|u|"
  QString unit() const;         // the field's unit; empty without one

  // Packs the shown values when they changed since they were last packed; true when it did.
  bool repackIfStale();
  const PackedField& packed() const { return packed_; }

 private:
  const ks::FieldData* mask() const;  // the snapshot's solid mask; null without one

  std::shared_ptr<const ks::Snapshot> snapshot_;
  QString wanted_name_;
  int component_ = -1;
  SlicePlane slice_;
  PackedField packed_;
  bool stale_ = false;  // the shown values changed: repack
};

}  // namespace ks::gui
