#include "bench_json.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <thread>

#include "core/errors.hpp"

namespace ks::bench {

nlohmann::json machine_description(const ExecutionContext& cpu, const CudaAvailability& cuda) {
  return {{"cpu", cpu.device_name},
          {"cpu_threads", cpu.cpu_threads},
          {"hardware_threads", std::thread::hardware_concurrency()},
          {"gpu", cuda.usable ? cuda.device_name : std::string("none (") + cuda.reason + ")"}};
}

double power_law_exponent(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = std::min(x.size(), y.size());
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

void write_json(const nlohmann::json& j, const std::string& path) {
  std::ofstream out(path);
  out << j.dump(2) << '\n';
  if (!out) throw bad_input(path, "cannot write the benchmark result");
}

}  // namespace ks::bench
