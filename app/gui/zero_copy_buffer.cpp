#include "zero_copy_buffer.hpp"

#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>

#include "cuda_gl_buffer.hpp"
#include "run/device_field.hpp"

namespace ks::gui {

namespace {

QOpenGLExtraFunctions& gl() { return *QOpenGLContext::currentContext()->extraFunctions(); }

}  // namespace

ZeroCopyBuffer::ZeroCopyBuffer(const ks::DeviceFieldPublisher& source) : source_(source) { gl().glGenBuffers(1, &buffer_); }

ZeroCopyBuffer::~ZeroCopyBuffer() {
  link_.reset();  // unregisters the buffer before it is deleted
  gl().glDeleteBuffers(1, &buffer_);
}

bool ZeroCopyBuffer::refresh() {
  bool copied = false;
  source_.read([&](const ks::DeviceFieldView& view) {
    if (!view.data || view.version == version_) return;
    if (view.bytes > capacity_) allocate(view.bytes);
    link_->copy_from_device(view.data, view.bytes);  // synchronous: done before the publisher may swap
    bytes_ = view.bytes;
    version_ = view.version;
    copied = true;
  });
  return copied;
}

// A new size needs new storage, which CUDA must register again.
void ZeroCopyBuffer::allocate(std::size_t bytes) {
  link_.reset();
  gl().glBindBuffer(GL_ARRAY_BUFFER, buffer_);
  gl().glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(bytes), nullptr, GL_DYNAMIC_DRAW);
  gl().glBindBuffer(GL_ARRAY_BUFFER, 0);
  link_ = std::make_unique<ks::interop::CudaGlBuffer>(buffer_);
  capacity_ = bytes;
}

}  // namespace ks::gui
