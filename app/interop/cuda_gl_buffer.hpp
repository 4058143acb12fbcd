// The zero-copy path of the field view: an OpenGL buffer registered with CUDA once;
// each frame a device array is copied device-to-device into it, ordered after the
// producer's CUDA event, and then drawn (or turned into a texture) by OpenGL. No byte
// crosses the host. Header free of CUDA and GL types so Qt code can include it.
#pragma once

#include <cstddef>

struct CUevent_st;
struct CUstream_st;
struct cudaGraphicsResource;

namespace ks::interop {

class CudaGlBuffer {
 public:
  // gl_buffer: a buffer object name of the OpenGL context current on this thread.
  explicit CudaGlBuffer(unsigned int gl_buffer);
  ~CudaGlBuffer();
  CudaGlBuffer(const CudaGlBuffer&) = delete;
  CudaGlBuffer& operator=(const CudaGlBuffer&) = delete;

  // Maps the buffer, waits on the GPU for `ready` (when given), copies `bytes` from the
  // device pointer `src`, unmaps, and returns when the copy is done. Afterwards OpenGL
  // commands see the new contents and `src` may change.
  // Throws ks::Error (RunFailed) naming the CUDA call, or bad input when bytes exceed the buffer.
  void copy_from_device(const void* src, std::size_t bytes, CUevent_st* ready = nullptr);
  std::size_t copies() const { return copies_; }

 private:
  cudaGraphicsResource* resource_ = nullptr;
  CUstream_st* stream_ = nullptr;
  std::size_t copies_ = 0;
};

}  // namespace ks::interop
