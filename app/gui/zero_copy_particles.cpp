#include "zero_copy_particles.hpp"

#include <QOpenGLContext>
#include <QOpenGLExtraFunctions>

namespace ks::gui {

namespace {

constexpr std::size_t kFloatsPerParticle = 4;  // x, y, z, value
constexpr std::size_t kParticleBytes = kFloatsPerParticle * sizeof(float);

QOpenGLExtraFunctions& gl() { return *QOpenGLContext::currentContext()->extraFunctions(); }

}  // namespace

ZeroCopyParticles::ZeroCopyParticles(const ks::DeviceFieldPublisher& source) : data_(source) {
  QOpenGLExtraFunctions& f = gl();
  f.glGenVertexArrays(1, &vao_);
  f.glBindVertexArray(vao_);
  f.glBindBuffer(GL_ARRAY_BUFFER, data_.buffer());
  f.glEnableVertexAttribArray(0);
  f.glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, kParticleBytes, nullptr);
  f.glEnableVertexAttribArray(1);
  f.glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, kParticleBytes, reinterpret_cast<void*>(3 * sizeof(float)));
  f.glBindVertexArray(0);
  f.glBindBuffer(GL_ARRAY_BUFFER, 0);
}

ZeroCopyParticles::~ZeroCopyParticles() { gl().glDeleteVertexArrays(1, &vao_); }

std::size_t ZeroCopyParticles::count() const { return data_.bytes() / kParticleBytes; }

}  // namespace ks::gui
