// The field view's zero-copy data (CUDA builds): a GL buffer object registered with CUDA once
// per size, into which each new publication of the Runner's device field
// (run/device_field.hpp) is copied device-to-device. No value crosses the host. The particle
// view draws it as vertices (zero_copy_particles.hpp); the image view unpacks a layer of it
// into the field texture as a pixel buffer (unpack_layer). Plain OpenGL through libglvnd, so
// the app (in Qt's context) and the headless EGL tests run the same code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace ks {
class DeviceFieldPublisher;
}

namespace ks::interop {

class CudaGlBuffer;

class ZeroCopyBuffer {
 public:
  // The constructor, the destructor and every call need the view's GL context current.
  explicit ZeroCopyBuffer(const ks::DeviceFieldPublisher& source);
  ~ZeroCopyBuffer();
  ZeroCopyBuffer(const ZeroCopyBuffer&) = delete;
  ZeroCopyBuffer& operator=(const ZeroCopyBuffer&) = delete;

  // Copies the latest publication when it is newer than the buffer's and has data; true when it
  // did. Throws ks::Error (RunFailed) naming the CUDA call when CUDA refuses the GL buffer (a
  // context on another GPU, say).
  bool refresh();
  // What the latest publication seen by refresh() says about field `field`, `component`:
  enum class Selection {
    Held,     // the buffer holds it
    Refused,  // the method cannot write it (the view uploads the host snapshot)
    Pending,  // another selection: the Runner has not published this one yet
  };
  Selection selection(const std::string& field, int component) const;
  unsigned int buffer() const { return buffer_; }  // the GL buffer object's name
  std::size_t bytes() const { return bytes_; }     // of the publication it holds; 0 before the first
  std::size_t copies() const;                      // device-to-device copies into the current storage

  // For an image of nx x ny x nz floats (x fastest): binds the buffer as GL_PIXEL_UNPACK_BUFFER
  // and calls upload(offset) with the byte offset of layer z, so that a glTex(Sub)Image2D made
  // there reads the layer on the GPU. False, without calling upload, when the buffer does not
  // hold such an image (another field, nothing published yet) or z is outside [0, nz).
  bool unpack_layer(int nx, int ny, int nz, int z, const std::function<void(const void* offset)>& upload) const;

 private:
  void allocate(std::size_t bytes);  // (re)sizes the GL buffer and registers it with CUDA

  const ks::DeviceFieldPublisher& source_;
  unsigned int buffer_ = 0;
  std::size_t capacity_ = 0;   // bytes of the GL buffer
  std::size_t bytes_ = 0;      // bytes of the publication it holds
  std::uint64_t version_ = 0;  // of the latest publication seen; 0: none
  std::string field_;          // and its selection
  int component_ = -1;
  std::unique_ptr<CudaGlBuffer> link_;
};

}  // namespace ks::interop
