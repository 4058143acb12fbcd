// The field view's zero-copy particles (CUDA builds): a GL vertex buffer registered with
// CUDA once, into which each new publication of the Runner's device field
// (run/device_field.hpp) is copied device-to-device, and the vertex array that draws it.
// No particle crosses the host. Layout as Method::write_display_field: float4 (x, y, z,
// value) per particle, positions in metres.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace ks {
class DeviceFieldPublisher;
}
namespace ks::interop {
class CudaGlBuffer;
}

namespace ks::gui {

class ZeroCopyParticles {
 public:
  // The constructor, the destructor and refresh() need the view's GL context current.
  explicit ZeroCopyParticles(const ks::DeviceFieldPublisher& source);
  ~ZeroCopyParticles();
  ZeroCopyParticles(const ZeroCopyParticles&) = delete;
  ZeroCopyParticles& operator=(const ZeroCopyParticles&) = delete;

  // Copies the latest publication when it is newer than the buffer's; true when it did.
  // Throws ks::Error (RunFailed) naming the CUDA call when CUDA refuses the GL buffer (a
  // context on another GPU, say).
  bool refresh();
  std::size_t count() const { return count_; }  // particles in the buffer; 0 before the first copy
  // Attribute 0: position (x, y) in metres; attribute 1: the value.
  unsigned int vertexArray() const { return vao_; }

 private:
  void allocate(std::size_t bytes);  // (re)sizes the GL buffer and registers it with CUDA

  const ks::DeviceFieldPublisher& source_;
  unsigned int vao_ = 0, vbo_ = 0;
  std::size_t capacity_ = 0;  // bytes of the GL buffer
  std::size_t count_ = 0;     // particles it holds
  std::uint64_t version_ = 0;  // of the publication it holds; 0: none
  std::unique_ptr<ks::interop::CudaGlBuffer> link_;
};

}  // namespace ks::gui
