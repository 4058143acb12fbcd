// Zero-copy views' data (CUDA builds): what Method::write_display_field puts in device memory, one
// float per cell, against the host snapshot's field as the field view shows it (the scalar, a
// vector's magnitude, or one component).
#pragma once

#ifdef KS_HAVE_CUDA
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "core/display_value.hpp"
#include "core/method.hpp"

namespace ks::test_support {

// The largest difference over the cells between the device's floats and the snapshot's selection,
// relative to the selection's largest magnitude (float rounding: < 6e-8); fails the test where the
// method writes nothing or the sizes do not fit.
inline double largest_display_difference(const Method& m, const FieldData& f, int component) {
  const std::string name = f.desc.name + "[" + std::to_string(component) + "]";
  const std::size_t cells = std::size_t(f.grid.count()), bytes = cells * sizeof(float);
  EXPECT_EQ(m.write_display_field(f.desc.name, component, nullptr, 0), bytes) << name;
  void* device = nullptr;
  if (cudaMalloc(&device, bytes) != cudaSuccess) {
    ADD_FAILURE() << "cudaMalloc";
    return 1.0;
  }
  EXPECT_EQ(m.write_display_field(f.desc.name, component, device, bytes - 1), 0u) << name << ": a short buffer is refused";
  EXPECT_EQ(m.write_display_field(f.desc.name, component, device, bytes), bytes) << name;
  std::vector<float> shown(cells);
  EXPECT_EQ(cudaMemcpy(shown.data(), device, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(device);
  const int n = f.desc.components;
  std::vector<double> expected(cells);
  double scale = 1e-300;
  for (std::size_t c = 0; c < cells; ++c) {
    expected[c] = display_value(&f.values[c * n], n, component);
    scale = std::max(scale, std::fabs(expected[c]));
  }
  double worst = 0.0;
  for (std::size_t c = 0; c < cells; ++c) worst = std::max(worst, std::fabs(shown[c] - expected[c]) / scale);
  EXPECT_EQ(m.write_display_field(f.desc.name, n == 1 ? 1 : n, nullptr, 0), 0u) << name << ": no such component";
  return worst;
}

// Every image field of the snapshot, each selection the view offers (a vector's magnitude and
// each component): {"name[component]", largest difference}.
inline std::vector<std::pair<std::string, double>> display_differences(const Method& m, const Snapshot& snap) {
  std::vector<std::pair<std::string, double>> out;
  for (const FieldData& f : snap.fields) {
    if (f.grid.kind != Grid::Kind::Image) continue;
    for (int component = -1; component < (f.desc.components == 1 ? 0 : f.desc.components); ++component)
      out.push_back({f.desc.name + "[" + std::to_string(component) + "]", largest_display_difference(m, f, component)});
  }
  return out;
}

}  // namespace ks::test_support
#endif
