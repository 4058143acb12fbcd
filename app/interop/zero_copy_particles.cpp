#include "zero_copy_particles.hpp"

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>

namespace ks::interop {

namespace {

constexpr std::size_t kFloatsPerParticle = 4;  // x, y, z, value
constexpr std::size_t kParticleBytes = kFloatsPerParticle * sizeof(float);

}  // namespace

ZeroCopyParticles::ZeroCopyParticles(const ks::DeviceFieldPublisher& source) : data_(source) {
  glGenVertexArrays(1, &vao_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, data_.buffer());
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, kParticleBytes, nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, kParticleBytes, reinterpret_cast<void*>(3 * sizeof(float)));
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

ZeroCopyParticles::~ZeroCopyParticles() { glDeleteVertexArrays(1, &vao_); }

std::size_t ZeroCopyParticles::count() const { return data_.bytes() / kParticleBytes; }

}  // namespace ks::interop
