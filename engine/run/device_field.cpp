#include "device_field.hpp"

#include <cuda_runtime.h>

#include <mutex>

#include "core/cuda_check.hpp"

namespace ks {

struct DeviceFieldPublisher::Impl {
  int device = 0;
  void* buffer[2] = {nullptr, nullptr};
  std::size_t capacity[2] = {0, 0};
  std::size_t bytes[2] = {0, 0};
  cudaEvent_t written[2] = {nullptr, nullptr};  // recorded after each buffer's last writes
  int front = 0;
  std::uint64_t version = 0;
  std::string field;  // of the front buffer
  int component = -1;
  mutable std::mutex mutex;  // held by a reader, and by the swap
};

DeviceFieldPublisher::DeviceFieldPublisher(int cuda_device) : impl_(std::make_unique<Impl>()) {
  impl_->device = cuda_device;
  KS_CUDA_CHECK(cudaSetDevice(cuda_device));
  for (cudaEvent_t& e : impl_->written) KS_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
}

DeviceFieldPublisher::~DeviceFieldPublisher() {
  for (void* b : impl_->buffer)
    if (b) cudaFree(b);
  for (cudaEvent_t e : impl_->written) cudaEventDestroy(e);
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
  // The methods write on the default stream; readers' copies wait for this event on the GPU.
  KS_CUDA_CHECK(cudaEventRecord(d.written[back], nullptr));
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
  read(DeviceFieldView{has_data ? d.buffer[d.front] : nullptr, d.bytes[d.front], d.version, d.field, d.component, d.written[d.front]});
}

}  // namespace ks
