#include "device_field.hpp"

#include <mutex>

#include "core/cuda_check.hpp"

namespace ks {

struct DeviceFieldPublisher::Impl {
  int device = 0;
  void* buffer[2] = {nullptr, nullptr};
  std::size_t capacity[2] = {0, 0};
  std::size_t bytes[2] = {0, 0};
  int front = 0;
  std::uint64_t version = 0;
  std::string field;  // of the front buffer
  int component = -1;
  mutable std::mutex mutex;  // held by a reader, and by the swap
};

DeviceFieldPublisher::DeviceFieldPublisher(int cuda_device) : impl_(std::make_unique<Impl>()) {
  impl_->device = cuda_device;
}

DeviceFieldPublisher::~DeviceFieldPublisher() {
  for (void* b : impl_->buffer)
    if (b) cudaFree(b);
}

bool DeviceFieldPublisher::publish(const Method& method, const std::string& name, int component) {
  Impl& d = *impl_;
  KS_CUDA_CHECK(cudaSetDevice(d.device));
  const std::size_t needed = method.write_display_field(name, component, nullptr, 0);
  if (needed == 0) {
    std::lock_guard lock(d.mutex);
    d.bytes[d.front] = 0;  // the front keeps its memory but shows nothing
    d.field = name;
    d.component = component;
    ++d.version;
    return false;
  }
  const int back = 1 - d.front;  // readers only touch the front buffer
  if (d.capacity[back] < needed) {
    if (d.buffer[back]) KS_CUDA_CHECK(cudaFree(d.buffer[back]));
    d.buffer[back] = nullptr;
    KS_CUDA_CHECK(cudaMalloc(&d.buffer[back], needed));
    d.capacity[back] = needed;
  }
  d.bytes[back] = method.write_display_field(name, component, d.buffer[back], d.capacity[back]);
  KS_CUDA_CHECK(cudaDeviceSynchronize());  // the back buffer is complete before it becomes the front one
  std::lock_guard lock(d.mutex);
  d.front = back;
  d.field = name;
  d.component = component;
  ++d.version;
  return d.bytes[back] > 0;
}

void DeviceFieldPublisher::read(const std::function<void(const DeviceFieldView&)>& read) const {
  const Impl& d = *impl_;
  std::lock_guard lock(d.mutex);
  const bool has_data = d.bytes[d.front] > 0;
  read(DeviceFieldView{has_data ? d.buffer[d.front] : nullptr, d.bytes[d.front], d.version, d.field, d.component});
}

}  // namespace ks
