// Shared by the per-method test set-ups: the execution contexts and parameter sets built through a
// method's declarations, as the CLI builds them, and the measure of CPU-GPU agreement.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "core/backend.hpp"
#include "core/param.hpp"

namespace ks::test_support {

// A saved state with `value` written over its bytes at `offset`: a crafted checkpoint state.
template <class T>
std::string patched(std::string state, std::size_t offset, T value) {
  std::memcpy(state.data() + offset, &value, sizeof value);
  return state;
}

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

// "cpu" or "cuda": the context a test parametrised over both backends runs on.
inline ExecutionContext context_named(const std::string& backend) { return backend == "cuda" ? cuda_context() : cpu_context(); }

// One advance() of `m` (set up on `ctx`, which holds a Runner-style interrupt) that a user stops
// after `delay`, as a pause in the app would.
template <class M>
void advance_stopped_after(M& m, const ExecutionContext& ctx, std::chrono::milliseconds delay) {
  std::thread user([&] {
    std::this_thread::sleep_for(delay);
    ctx.interrupt.request();
  });
  m.advance();
  user.join();
}

// advance_stopped_after until `under_way()` says a step was completed before the stop: where none was
// (a loaded machine, ctest -j16 with every test's OpenMP threads on 16 cores), again with the stop
// 3x later, three times at most. A stopped iteration that completed no step leaves the state as it was.
template <class M, class UnderWay>
void advance_stopped_under_way(M& m, const ExecutionContext& ctx, std::chrono::milliseconds delay, UnderWay under_way) {
  for (int attempt = 0; attempt < 3; ++attempt, delay *= 3) {
    if (attempt > 0) ctx.interrupt.clear();
    advance_stopped_after(m, ctx, delay);
    if (under_way()) return;
  }
}

// Parameters of method M with `overrides` (text values, as on the command line) applied.
template <class M>
ParamSet method_params(const std::map<std::string, std::string>& overrides) {
  ParamSet p(M::static_info().params);
  for (const auto& [key, text] : overrides) p.set(key, parse_value(p.spec(key), text, "test"));
  return p;
}

// Method M set up from `overrides` on the CPU (cpu) and with CUDA (gpu), both advanced `iterations` times.
template <class M>
void advance_on_cpu_and_cuda(M& cpu, M& gpu, const std::map<std::string, std::string>& overrides, int iterations) {
  cpu.setup(method_params<M>(overrides), cpu_context());
  gpu.setup(method_params<M>(overrides), cuda_context());
  for (int k = 0; k < iterations; ++k) {
    cpu.advance();
    gpu.advance();
  }
}

// How far two backends' state vectors (of equal size) differ: max |a - b| over max |a|.
inline double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double amax = 0.0, err = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    amax = std::max(amax, std::fabs(a[k]));
    err = std::max(err, std::fabs(a[k] - b[k]));
  }
  return err / amax;
}

}  // namespace ks::test_support
