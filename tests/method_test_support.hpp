// Shared by the per-method test set-ups: the execution contexts and parameter sets built through a
// method's declarations, as the CLI builds them.
#pragma once

#include <map>
#include <string>

#include "core/backend.hpp"
#include "core/param.hpp"

namespace ks::test_support {

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

// Parameters of method M with `overrides` (text values, as on the command line) applied.
template <class M>
ParamSet method_params(const std::map<std::string, std::string>& overrides) {
  ParamSet p(M::static_info().params);
  for (const auto& [key, text] : overrides) p.set(key, parse_value(p.spec(key), text, "test"));
  return p;
}

}  // namespace ks::test_support
