#include "zero_copy_particles.hpp"

#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>

#include "cuda_gl_buffer.hpp"
#include "run/device_field.hpp"

namespace ks::gui {

namespace {

constexpr std::size_t kFloatsPerParticle = 4;  // x, y, z, value
constexpr std::size_t kParticleBytes = kFloatsPerParticle * sizeof(float);

QOpenGLExtraFunctions& gl() { return *QOpenGLContext::currentContext()->extraFunctions(); }

}  // namespace

ZeroCopyParticles::ZeroCopyParticles(const ks::DeviceFieldPublisher& source) : source_(source) {
  QOpenGLExtraFunctions& f = gl();
  f.glGenVertexArrays(1, &vao_);
  f.glGenBuffers(1, &vbo_);
  f.glBindVertexArray(vao_);
  f.glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  f.glEnableVertexAttribArray(0);
  f.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, kParticleBytes, nullptr);
  f.glEnableVertexAttribArray(1);
  f.glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, kParticleBytes, reinterpret_cast<void*>(3 * sizeof(float)));
  f.glBindVertexArray(0);
  f.glBindBuffer(GL_ARRAY_BUFFER, 0);
}

ZeroCopyParticles::~ZeroCopyParticles() {
  link_.reset();  // unregisters the buffer before it is deleted
  gl().glDeleteVertexArrays(1, &vao_);
  gl().glDeleteBuffers(1, &vbo_);
}

bool ZeroCopyParticles::refresh() {
  bool copied = false;
  source_.read([&](const ks::DeviceFieldView& view) {
    if (!view.data || view.version == version_) return;
    if (view.bytes > capacity_) allocate(view.bytes);
    link_->copy_from_device(view.data, view.bytes);  // synchronous: done before the publisher may swap
    count_ = view.bytes / kParticleBytes;
    version_ = view.version;
    copied = true;
  });
  return copied;
}

// A new size needs new storage, which CUDA must register again.
void ZeroCopyParticles::allocate(std::size_t bytes) {
  link_.reset();
  gl().glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  gl().glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(bytes), nullptr, GL_DYNAMIC_DRAW);
  gl().glBindBuffer(GL_ARRAY_BUFFER, 0);
  link_ = std::make_unique<ks::interop::CudaGlBuffer>(vbo_);
  capacity_ = bytes;
}

}  // namespace ks::gui
