#include "coag_selection.hpp"

#include <iterator>

#include "coag_majorant_cpu.hpp"
#include "coag_rates_cpu.hpp"
#include "coag_rejection.hpp"
#include "coag_stepped_cpu.hpp"

namespace ks::coag {
namespace {

bool any_kernel(KernelKind) { return true; }

// The majorant's samplers: a place in each sampler's order and its inverse (coag_majorant.hpp); the
// stepped trials' trees: a uint64 node per particle and sampler, and the step that last took a particle
// (coag_stepped.hpp). Both keep each
// sampler's classes (and two more values) and a base a run.
constexpr std::int64_t kMajorantPerParticle = 2 * kMaxSamplers * std::int64_t(sizeof(int));
constexpr std::int64_t kSteppedPerParticle = (kMaxSamplers + 1) * std::int64_t(sizeof(std::uint64_t));
constexpr std::int64_t kSamplersPerRun = (kMaxSamplers * (kClasses + 2) + 1) * 4;

// In the order of Selection.
constexpr SelectionStrategy kStrategies[] = {
    {"prefix", true, any_kernel, 0, 0, advance_run_prefix_cpu},
    {"rejection", true, rejection_supported, 0, 0, advance_run_rejection_cpu},
    {"majorant", false, majorant_supported, kMajorantPerParticle, kSamplersPerRun, advance_run_majorant_cpu},
    {"stepped", false, majorant_supported, kSteppedPerParticle, kSamplersPerRun, advance_run_stepped_cpu},
};
static_assert(std::size(kStrategies) == std::size_t(Selection::Stepped) + 1);

}  // namespace

const SelectionStrategy& strategy(Selection s) { return kStrategies[int(s)]; }

std::vector<Selection> all_selections() {
  std::vector<Selection> all;
  for (std::size_t s = 0; s < std::size(kStrategies); ++s) all.push_back(Selection(s));
  return all;
}

std::vector<std::string> selection_names() {
  std::vector<std::string> names;
  for (const SelectionStrategy& s : kStrategies) names.push_back(s.name);
  return names;
}

}  // namespace ks::coag
