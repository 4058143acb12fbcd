// The field view's zero-copy feed (CUDA builds): the field the Runner keeps in device memory
// (run/device_field.hpp) copied device-to-device into GL buffers at each paint
// (app/interop/zero_copy_buffer.hpp): particles into a vertex buffer, images through a pixel
// buffer into the field texture; no host upload. When the shown field or component is not the
// one published, the feed asks for it (selectionWanted) and the view keeps its picture until the
// Runner publishes it; where the method cannot write a selection, or CUDA refuses the GL buffers,
// the view uploads the host snapshot instead. Builds without CUDA compile the feed with nothing to
// copy.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <exception>
#include <memory>

#include "core/field.hpp"
#include "field_layers.hpp"
#include "packed_field.hpp"

namespace ks {
class DeviceFieldPublisher;
}
namespace ks::interop {
class ZeroCopyBuffer;
class ZeroCopyParticles;
}  // namespace ks::interop

namespace ks::gui {

class DeviceFieldFeed : public QObject {
  Q_OBJECT
 public:
  // `source`: the Runner's device_field(), which must outlive this use or be replaced first; null:
  // none. Forgets the selection last asked for; release the buffers first.
  void setSource(const ks::DeviceFieldPublisher* source);
  bool holdsBuffers() const { return particles_ || image_; }
  void releaseBuffers();  // with the view's context current: their GL objects go with it

  // With the view's context current, once a paint, for the shown field `shown` (may be null) and
  // the view's choice of `component`:
  // The shown particles copied into the vertex buffer, and how many to draw from it (the previous
  // selection's while the Runner has not published this one); count 0 to draw the host upload
  // instead: no device copy, the method cannot write this field, or the feed was turned off.
  DevicePoints copyParticles(const ks::FieldData* shown, int component);
  // The shown image's z layer `plane.index` copied into the field texture of `layers`. While the
  // Runner has not published the shown selection yet, the texture keeps the previous picture. False
  // to upload the host snapshot instead: no device copy, a plane not normal to z, the method cannot
  // write this selection, nothing drawn yet, or the feed was turned off.
  bool copyImage(const ks::FieldData* shown, int component, SlicePlane plane, FieldLayers& layers);
  int copies() const { return copies_; }  // device-to-device copies of field data so far

 signals:
  // The Runner should publish this field and component (Runner::show_on_device).
  void selectionWanted(const QString& field, int component);
  // Paint again: the Runner may have published the selection asked for meanwhile.
  void repaintWanted();

 private:
  const ks::FieldData* fieldOnDevice(const ks::FieldData* shown, ks::Grid::Kind kind) const;
  bool awaitSelection(const QString& field, int component);
  void turnOff(const std::exception& e);

  const ks::DeviceFieldPublisher* source_ = nullptr;
  QString requested_field_;  // the selection last asked of the Runner, and when
  int requested_component_ = -1;
  QElapsedTimer requested_at_;
  // shared_ptr: destructible where ZeroCopyParticles' implementation is absent (CPU-only builds)
  std::shared_ptr<ks::interop::ZeroCopyParticles> particles_;
  std::shared_ptr<ks::interop::ZeroCopyBuffer> image_;  // the pixel buffer of the image path
  int copies_ = 0;
};

}  // namespace ks::gui
