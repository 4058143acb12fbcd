// Owned, typed device and page-locked host allocations for the CUDA paths (include from .cu files
// only). Every runtime call is checked; the memory is freed with the buffer.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <utility>
#include <vector>

#include "cuda_check.hpp"
#include "memory.hpp"

namespace ks {

// What device_buffer_bytes() reads (memory.cpp).
std::atomic<std::uint64_t>& device_buffer_byte_count();

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;

  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }

  // Keeps the allocation when the size is unchanged; the contents are undefined otherwise.
  void resize(std::size_t n) {
    if (n == count) return;
    release();
    if (n) KS_CUDA_CHECK(cudaMalloc(&ptr, n * sizeof(T)));
    count = n;
    device_buffer_byte_count() += n * sizeof(T);
  }
  void release() {
    if (ptr) cudaFree(ptr);
    device_buffer_byte_count() -= count * sizeof(T);
    ptr = nullptr;
    count = 0;
  }
  void upload(const T* src, std::size_t n) {
    resize(n);
    if (n) KS_CUDA_CHECK(cudaMemcpy(ptr, src, n * sizeof(T), cudaMemcpyHostToDevice));
  }
  template <class Allocator>
  void upload(const std::vector<T, Allocator>& v) {
    upload(v.data(), v.size());
  }
  void download(T* dst, std::size_t n) const {
    if (n) KS_CUDA_CHECK(cudaMemcpy(dst, ptr, n * sizeof(T), cudaMemcpyDeviceToHost));
  }
  std::vector<T> to_host() const {
    std::vector<T> v(count);
    download(v.data(), count);
    return v;
  }
  void swap(DeviceBuffer& other) {
    std::swap(ptr, other.ptr);
    std::swap(count, other.count);
  }
};

// Page-locked host memory: asynchronous copies to and from the device (the staging of halo exchanges).
template <class T>
struct PinnedBuffer {
  T* ptr = nullptr;
  std::size_t count = 0;

  PinnedBuffer() = default;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  ~PinnedBuffer() { release(); }
  void resize(std::size_t n) {
    if (n == count) return;
    release();
    if (n) KS_CUDA_CHECK(cudaMallocHost(&ptr, n * sizeof(T)));
    count = n;
  }
  void release() {
    if (ptr) cudaFreeHost(ptr);
    ptr = nullptr;
    count = 0;
  }
};

}  // namespace ks
