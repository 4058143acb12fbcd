// Memory a set-up will need, estimated from the parameters before anything is allocated, and
// the check against what the machine has. A method's estimate counts its large arrays (the
// distribution functions, particle lists, grids); small tables are left out.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "backend.hpp"

namespace ks {

struct MemoryEstimate {
  std::uint64_t host_bytes = 0;
  std::uint64_t device_bytes = 0;  // 0 on the CPU backend
  // What dominates, in the parameters' terms: "n_s x n_runs = 1.2e9 particles x 16 B".
  std::string detail;
};

// Bytes the OS can still give this process (MemAvailable of /proc/meminfo); 0 when unknown.
std::uint64_t available_host_memory();
// Free memory of CUDA device `device`; 0 when unknown or without CUDA.
std::uint64_t free_device_memory(int device);
// Device memory this process holds in DeviceBuffers (core/device_buffer.hpp), as allocated: unlike
// free_device_memory, not moved by other processes on the same GPU (tests under ctest -j).
std::uint64_t device_buffer_bytes();

// "1.23 GB"
std::string format_bytes(std::uint64_t bytes);
nlohmann::json to_json(const MemoryEstimate& m);

// Refuses (bad input, exit 2) an estimate above what the machine has, naming the method, the
// estimate, its detail and what is free. A limit of 0 (unknown) is not checked.
void check_memory(const std::string& method_id, const MemoryEstimate& need, const ExecutionContext& ctx);

}  // namespace ks
