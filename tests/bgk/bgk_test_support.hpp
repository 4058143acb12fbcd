// Shared set-ups of the kinetic.bgk tests: small shocks and cavities through the Method, on a backend.
#pragma once

#include <map>
#include <string>

#include "core/backend.hpp"
#include "core/param.hpp"
#include "methods/bgk/bgk_method.hpp"

namespace ks::bgk::testing {

inline ExecutionContext cpu_context() {
  ExecutionContext ctx;
  ctx.device_name = "CPU";
  return ctx;
}

inline ExecutionContext cuda_context() {
  ExecutionContext ctx;
  ctx.backend = BackendKind::Cuda;
  ctx.cuda_device = 0;
  return ctx;
}

// Parameters of kinetic.bgk with `overrides` (text values, as on the command line) applied.
inline ParamSet params(const std::map<std::string, std::string>& overrides) {
  ParamSet p(BgkMethod::static_info().params);
  for (const auto& [key, text] : overrides) p.set(key, parse_value(p.spec(key), text, "test"));
  return p;
}

inline std::map<std::string, std::string> small_shock() {
  return {{"case", "shock"}, {"mach", "1.5"}, {"nx", "64"}, {"nv", "8"}, {"dt", "0.05"}};
}

inline std::map<std::string, std::string> small_cavity() {
  return {{"case", "cavity"}, {"delta", "1"}, {"nx", "12"}, {"ny", "10"}, {"nv", "8"}, {"vx_min", "-3"},
          {"vx_max", "3"},    {"vt_max", "3"}, {"dt", "0.01"}, {"lid_speed", "0.05"}};
}

}  // namespace ks::bgk::testing
