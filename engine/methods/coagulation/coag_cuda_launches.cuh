// What the GPU loops with samplers rebuilt between launches (selection = majorant and stepped) share
// on the host: a run's flag after a launch, and the launches until no run stops for a rebuild.
#pragma once

#include <cstdint>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/device_buffer.hpp"
#include "core/errors.hpp"

namespace ks::coag::gpu {

// A run's flag when a launch ends: it reached its target or max_events, its samplers need a rebuild
// (a value above a window, or refresh_every events), or no trial was accepted.
constexpr int kKeepGoing = 0, kRebuild = 1, kFailed = 2;

// launch() every run and rebuild() the flagged runs' samplers until no run stops for a rebuild; returns
// the events the runs did (`done`, zeroed first) and sets all_reached when no run stopped on max_events.
// A failed run throws RunFailed with failure(run, its event count).
template <typename Launch, typename Rebuild, typename Failure>
std::uint64_t launch_until_settled(int n_runs, DeviceBuffer<int>& flag, const unsigned long long* events, unsigned long long* done,
                                   std::uint64_t max_events, bool& all_reached, Launch&& launch, Rebuild&& rebuild, Failure&& failure) {
  KS_CUDA_CHECK(cudaMemset(done, 0, sizeof(unsigned long long) * n_runs));
  std::vector<int> flags(n_runs);
  while (true) {
    launch();
    KS_CUDA_CHECK_LAUNCH();
    flag.download(flags.data(), n_runs);  // synchronises; execution errors surface here
    bool again = false;
    for (int r = 0; r < n_runs; ++r) {
      if (flags[r] == kFailed) {
        std::vector<unsigned long long> counts(n_runs);
        KS_CUDA_CHECK(cudaMemcpy(counts.data(), events, sizeof(unsigned long long) * n_runs, cudaMemcpyDeviceToHost));
        throw run_failed(failure(r, counts[r]));
      }
      again = again || flags[r] == kRebuild;
    }
    if (!again) break;
    rebuild();
  }
  std::vector<unsigned long long> counts(n_runs);
  KS_CUDA_CHECK(cudaMemcpy(counts.data(), done, sizeof(unsigned long long) * n_runs, cudaMemcpyDeviceToHost));
  std::uint64_t total = 0;
  all_reached = true;
  for (int r = 0; r < n_runs; ++r) {
    total += counts[r];
    all_reached = all_reached && counts[r] < max_events;
  }
  return total;
}

}  // namespace ks::coag::gpu
