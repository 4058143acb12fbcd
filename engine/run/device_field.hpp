// Zero-copy views: after each published snapshot the worker has the method write the field
// (and component) the view shows into device memory. Two buffers: the worker fills the back one
// while views read the front one; the swap waits for a reader in progress. The worker does not
// wait for the GPU: each buffer carries a CUDA event recorded after its writer's kernels, on which
// a reader's copy waits on the GPU. A publication names its field, so a view can tell the data it
// wants from an older selection's, and tells when the method cannot write it (no data: the view
// uploads the host snapshot). CUDA builds only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/method.hpp"

struct CUevent_st;

namespace ks {

struct DeviceFieldView {
  const void* data = nullptr;  // device memory, layout as Method::write_display_field; null: none
  std::size_t bytes = 0;
  std::uint64_t version = 0;    // increases with every publication
  std::string field;            // what was asked for: field name ("" before the first publication)
  int component = -1;           // and component, as Method::write_display_field
  CUevent_st* ready = nullptr;  // recorded after the writes: copies from data wait on it
};

class DeviceFieldPublisher {
 public:
  explicit DeviceFieldPublisher(int cuda_device);
  ~DeviceFieldPublisher();
  // Worker thread: writes `name` (`component`) of `method` into the back buffer and makes it the
  // front one. False when the method cannot write it: the front then names it with no data.
  bool publish(const Method& method, const std::string& name, int component);
  // Views: calls `read` with the front buffer, which no publication replaces meanwhile; `read`
  // must finish its device work on the buffer (synchronise its stream) before it returns.
  void read(const std::function<void(const DeviceFieldView&)>& read) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ks
