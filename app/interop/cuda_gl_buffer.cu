#include "cuda_gl_buffer.hpp"

// cuda_gl_interop.h needs the GL types: the system GL header first.
#include <GL/gl.h>
#include <cuda_gl_interop.h>

#include <string>

#include "core/cuda_check.hpp"

namespace ks::interop {

CudaGlBuffer::CudaGlBuffer(unsigned int gl_buffer) {
  KS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  // Write-discard: CUDA overwrites the whole buffer each frame, OpenGL only reads it.
  KS_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&resource_, gl_buffer, cudaGraphicsRegisterFlagsWriteDiscard));
}

CudaGlBuffer::~CudaGlBuffer() {
  if (resource_) cudaGraphicsUnregisterResource(resource_);
  if (stream_) cudaStreamDestroy(stream_);
}

void CudaGlBuffer::copy_from_device(const void* src, std::size_t bytes, CUevent_st* ready) {
  if (ready) KS_CUDA_CHECK(cudaStreamWaitEvent(stream_, ready, 0));
  KS_CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, stream_));
  void* dst = nullptr;
  std::size_t size = 0;
  KS_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&dst, &size, resource_));
  if (bytes > size) {
    cudaGraphicsUnmapResources(1, &resource_, stream_);
    throw bad_input("CudaGlBuffer", "copy of " + std::to_string(bytes) + " bytes into a GL buffer of " + std::to_string(size) + " bytes",
                    "at most the buffer size");
  }
  KS_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream_));
  // Unmapping orders the copy before any OpenGL command issued afterwards; waiting for it
  // here lets the producer reuse `src` as soon as this returns.
  KS_CUDA_CHECK(cudaGraphicsUnmapResources(1, &resource_, stream_));
  KS_CUDA_CHECK(cudaStreamSynchronize(stream_));
  ++copies_;
}

}  // namespace ks::interop
