// Shared set-ups of the kinetic.dvm tests: small cavities, cubes and Couette gaps through the Method.
#pragma once

#include <map>
#include <string>

#include "core/backend.hpp"
#include "core/param.hpp"
#include "methods/dvm/dvm_method.hpp"

namespace ks::dvm::testing {

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

// Parameters of kinetic.dvm with `overrides` (text values, as on the command line) applied.
inline ParamSet params(const std::map<std::string, std::string>& overrides) {
  ParamSet p(DvmMethod::static_info().params);
  for (const auto& [key, text] : overrides) p.set(key, parse_value(p.spec(key), text, "test"));
  return p;
}

inline std::map<std::string, std::string> small_cavity() {
  return {{"case", "cavity"}, {"kn", "1"}, {"lid_speed", "0.1"}, {"nx", "10"}, {"ny", "9"}, {"nz", "8"}, {"nv", "10"}};
}

inline std::map<std::string, std::string> small_cube() {
  return {{"case", "cube"}, {"kn", "1"}, {"mach", "2"}, {"nx", "18"}, {"ny", "14"}, {"nz", "14"}, {"body_cells", "4"}, {"nv", "12"}};
}

// Runs `iterations` iterations (or to convergence) of a set-up on a backend.
inline void run(DvmMethod& m, const std::map<std::string, std::string>& overrides, const ExecutionContext& ctx, int iterations) {
  m.setup(params(overrides), ctx);
  for (int i = 0; i < iterations && !m.finished(); ++i) m.advance();
}

}  // namespace ks::dvm::testing
