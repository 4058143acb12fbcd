// The field view's zero-copy data (CUDA builds): a GL buffer object registered with CUDA once
// per size, into which each new publication of the Runner's device field
// (run/device_field.hpp) is copied device-to-device. No value crosses the host. The particle
// view draws it as vertices (zero_copy_particles.hpp); the image view unpacks it into the
// field texture as a pixel buffer.
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

class ZeroCopyBuffer {
 public:
  // The constructor, the destructor and refresh() need the view's GL context current.
  explicit ZeroCopyBuffer(const ks::DeviceFieldPublisher& source);
  ~ZeroCopyBuffer();
  ZeroCopyBuffer(const ZeroCopyBuffer&) = delete;
  ZeroCopyBuffer& operator=(const ZeroCopyBuffer&) = delete;

  // Copies the latest publication when it is newer than the buffer's; true when it did.
  // Throws ks::Error (RunFailed) naming the CUDA call when CUDA refuses the GL buffer (a
  // context on another GPU, say).
  bool refresh();
  unsigned int buffer() const { return buffer_; }  // the GL buffer object's name
  std::size_t bytes() const { return bytes_; }      // of the publication it holds; 0 before the first

 private:
  void allocate(std::size_t bytes);  // (re)sizes the GL buffer and registers it with CUDA

  const ks::DeviceFieldPublisher& source_;
  unsigned int buffer_ = 0;
  std::size_t capacity_ = 0;   // bytes of the GL buffer
  std::size_t bytes_ = 0;      // bytes of the publication it holds
  std::uint64_t version_ = 0;  // of that publication; 0: none
  std::unique_ptr<ks::interop::CudaGlBuffer> link_;
};

}  // namespace ks::gui
