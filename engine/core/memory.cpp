#include "memory.hpp"

#include <atomic>
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "errors.hpp"

#ifdef KS_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace ks {

std::uint64_t available_host_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return kb * 1024;
  return 0;
}

std::atomic<std::uint64_t>& device_buffer_byte_count() {
  static std::atomic<std::uint64_t> bytes{0};
  return bytes;
}

std::uint64_t device_buffer_bytes() { return device_buffer_byte_count().load(); }

std::uint64_t free_device_memory(int device) {
#ifdef KS_HAVE_CUDA
  int current = -1;
  if (device < 0 || cudaGetDevice(&current) != cudaSuccess) return 0;
  if (current != device && cudaSetDevice(device) != cudaSuccess) return 0;
  std::size_t free = 0, total = 0;
  const bool ok = cudaMemGetInfo(&free, &total) == cudaSuccess;
  if (current != device) cudaSetDevice(current);
  cudaGetLastError();
  return ok ? free : 0;
#else
  (void)device;
  return 0;
#endif
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1000.0 && u < 6) v /= 1000.0, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", v, units[u]);
  return buf;
}

nlohmann::json to_json(const MemoryEstimate& m) {
  return {{"host_bytes", m.host_bytes}, {"device_bytes", m.device_bytes}, {"detail", m.detail}};
}

void check_memory(const std::string& method_id, const MemoryEstimate& need, const ExecutionContext& ctx) {
  auto refuse = [&](const char* where, std::uint64_t bytes, std::uint64_t free) {
    throw bad_input(method_id,
                    std::string("the set-up needs about ") + format_bytes(bytes) + " of " + where + " memory (" + need.detail + ") but " +
                        format_bytes(free) + " is free",
                    "smaller values of the parameters named, or another backend");
  };
  const std::uint64_t host = available_host_memory();
  if (host > 0 && need.host_bytes > host) refuse("host", need.host_bytes, host);
  if (ctx.backend == BackendKind::Cuda && need.device_bytes > 0) {
    const std::uint64_t dev = free_device_memory(ctx.cuda_device);
    if (dev > 0 && need.device_bytes > dev) refuse("device", need.device_bytes, dev);
  }
}

}  // namespace ks
