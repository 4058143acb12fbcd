#include "zero_copy_buffer.hpp"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>

#include "cuda_gl_buffer.hpp"
#include "run/device_field.hpp"

namespace ks::interop {

ZeroCopyBuffer::ZeroCopyBuffer(const ks::DeviceFieldPublisher& source) : source_(source) { glGenBuffers(1, &buffer_); }

ZeroCopyBuffer::~ZeroCopyBuffer() {
  link_.reset();  // unregisters the buffer before it is deleted
  glDeleteBuffers(1, &buffer_);
}

bool ZeroCopyBuffer::refresh() {
  bool copied = false;
  source_.read([&](const ks::DeviceFieldView& view) {
    if (view.version == version_) return;
    version_ = view.version;
    field_ = view.field;
    component_ = view.component;
    bytes_ = 0;
    if (!view.data) return;
    if (view.bytes > capacity_) allocate(view.bytes);
    link_->copy_from_device(view.data, view.bytes, view.ready);  // after the writes; done before the publisher may swap
    bytes_ = view.bytes;
    copied = true;
  });
  return copied;
}

ZeroCopyBuffer::Selection ZeroCopyBuffer::selection(const std::string& field, int component) const {
  if (version_ == 0 || field != field_ || component != component_) return Selection::Pending;
  return bytes_ > 0 ? Selection::Held : Selection::Refused;
}

std::size_t ZeroCopyBuffer::copies() const { return link_ ? link_->copies() : 0; }

bool ZeroCopyBuffer::unpack_layer(int nx, int ny, int nz, int z, const std::function<void(const void*)>& upload) const {
  const std::size_t layer = std::size_t(nx) * std::size_t(ny) * sizeof(float);
  if (nx < 1 || ny < 1 || nz < 1 || z < 0 || z >= nz || bytes_ != layer * std::size_t(nz)) return false;
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer_);
  upload(reinterpret_cast<const void*>(std::size_t(z) * layer));  // an offset into the bound pixel buffer
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  return true;
}

// A new size needs new storage, which CUDA must register again.
void ZeroCopyBuffer::allocate(std::size_t bytes) {
  link_.reset();
  glBindBuffer(GL_ARRAY_BUFFER, buffer_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(bytes), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  link_ = std::make_unique<CudaGlBuffer>(buffer_);
  capacity_ = bytes;
}

}  // namespace ks::interop
