// The field view's zero-copy particles (CUDA builds): the Runner's device field in a
// ZeroCopyBuffer and the vertex array that draws it. Layout as Method::write_display_field:
// float4 (x, y, z, value) per particle, positions in metres.
#pragma once

#include <cstddef>

#include "zero_copy_buffer.hpp"

namespace ks::interop {

class ZeroCopyParticles {
 public:
  // The constructor, the destructor and refresh() need the view's GL context current.
  explicit ZeroCopyParticles(const ks::DeviceFieldPublisher& source);
  ~ZeroCopyParticles();
  ZeroCopyParticles(const ZeroCopyParticles&) = delete;
  ZeroCopyParticles& operator=(const ZeroCopyParticles&) = delete;

  // As ZeroCopyBuffer::refresh.
  bool refresh() { return data_.refresh(); }
  const ZeroCopyBuffer& data() const { return data_; }
  std::size_t count() const;  // particles in the buffer; 0 before the first copy
  // Attribute 0: position (x, y) in metres; attribute 1: the value.
  unsigned int vertexArray() const { return vao_; }

 private:
  ZeroCopyBuffer data_;
  unsigned int vao_ = 0;
};

}  // namespace ks::interop
