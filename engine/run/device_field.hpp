// Zero-copy views: after each published snapshot the worker has the method write one
// field into device memory. Two buffers: the worker fills the back one while views read
// the front one; the swap waits for a reader in progress. CUDA builds only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/method.hpp"

namespace ks {

struct DeviceFieldView {
  const void* data = nullptr;  // device memory, layout as Method::write_display_field
  std::size_t bytes = 0;
  std::uint64_t version = 0;   // increases with every publication
};

class DeviceFieldPublisher {
 public:
  explicit DeviceFieldPublisher(int cuda_device);
  ~DeviceFieldPublisher();
  // Worker thread: writes `name` of `method` into the back buffer and makes it the front one.
  // False when the method cannot write that field.
  bool publish(const Method& method, const std::string& name);
  // Views: calls `read` with the front buffer, which no publication replaces meanwhile; `read`
  // must finish its device work on the buffer (synchronise its stream) before it returns.
  void read(const std::function<void(const DeviceFieldView&)>& read) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ks
