#include "device_field_feed.hpp"

#include <QTimer>
#include <QtDebug>
#include <algorithm>

#include "packed_field.hpp"
#include "zero_copy_buffer.hpp"  // app/interop: declared in every build, defined in CUDA builds
#include "zero_copy_particles.hpp"

namespace ks::gui {

void DeviceFieldFeed::setSource(const ks::DeviceFieldPublisher* source) {
  source_ = source;
  requested_field_.clear();
}

void DeviceFieldFeed::releaseBuffers() {
  particles_.reset();
  image_.reset();
}

// The shown field when it is of `kind` and the Runner publishes fields in device memory; else null.
const ks::FieldData* DeviceFieldFeed::fieldOnDevice(const ks::FieldData* shown, ks::Grid::Kind kind) const {
  return source_ && shown && shown->grid.kind == kind ? shown : nullptr;
}

// The device buffer holds another selection: ask the Runner (once) and look again shortly. True
// while waiting; false once the Runner has not answered for kDeviceAnswerMs (a run whose set-up
// failed publishes nothing), so that the host snapshot is drawn instead.
bool DeviceFieldFeed::awaitSelection(const QString& field, int component) {
  constexpr int kDeviceAnswerMs = 2000;
  if (field != requested_field_ || component != requested_component_) {
    requested_field_ = field;
    requested_component_ = component;
    requested_at_.start();
    emit selectionWanted(field, component);
  }
  if (requested_at_.elapsed() > kDeviceAnswerMs) return false;
  QTimer::singleShot(30, this, [this] { emit repaintWanted(); });
  return true;
}

// CUDA refused a GL buffer (a context on another GPU, say): the zero-copy path is turned off with
// a warning, and host snapshots are uploaded from now on.
void DeviceFieldFeed::turnOff(const std::exception& e) {
  qWarning().noquote() << "FieldView: zero-copy view turned off, uploading host snapshots instead:" << e.what();
  releaseBuffers();
  source_ = nullptr;
}

DevicePoints DeviceFieldFeed::copyParticles([[maybe_unused]] const ks::FieldData* shown, [[maybe_unused]] int component) {
#ifdef KS_ZERO_COPY_VIEW
  using Selection = ks::interop::ZeroCopyBuffer::Selection;
  const ks::FieldData* f = fieldOnDevice(shown, ks::Grid::Kind::Particles);
  if (!f) return {};
  try {
    if (!particles_) particles_ = std::make_shared<ks::interop::ZeroCopyParticles>(*source_);
    if (particles_->refresh()) ++copies_;
    const int c = shown_component(*f, component);
    const Selection s = particles_->data().selection(f->desc.name, c);
    if (s == Selection::Pending && !awaitSelection(QString::fromStdString(f->desc.name), c)) return {};
    if (s == Selection::Refused) return {};
    return {particles_->vertexArray(), particles_->count()};
  } catch (const std::exception& e) {
    turnOff(e);
  }
#endif
  return {};
}

bool DeviceFieldFeed::copyImage([[maybe_unused]] const ks::FieldData* shown, [[maybe_unused]] int component,
                                [[maybe_unused]] SlicePlane plane, [[maybe_unused]] FieldLayers& layers) {
#ifdef KS_ZERO_COPY_VIEW
  using Selection = ks::interop::ZeroCopyBuffer::Selection;
  const ks::FieldData* f = fieldOnDevice(shown, ks::Grid::Kind::Image);
  if (!f || plane.normal != 2) return false;  // the device publishes z layers
  try {
    if (!image_) image_ = std::make_shared<ks::interop::ZeroCopyBuffer>(*source_);
    if (image_->refresh()) ++copies_;
    const int c = shown_component(*f, component);
    const Selection s = image_->selection(f->desc.name, c);
    if (s == Selection::Pending) return awaitSelection(QString::fromStdString(f->desc.name), c) && layers.fieldTextureAllocated();
    const auto [nx, ny, nz] = f->grid.cells;
    const int z = std::clamp(plane.index, 0, nz - 1);
    return s == Selection::Held && image_->unpack_layer(nx, ny, nz, z, [&](const void* offset) { layers.setFieldTexture(nx, ny, offset); });
  } catch (const std::exception& e) {
    turnOff(e);
  }
#endif
  return false;
}

}  // namespace ks::gui
