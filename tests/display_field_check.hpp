// Zero-copy views' data (CUDA builds): what Method::write_display_field puts in device memory, one
// float per cell, against the host snapshot's field as the field view shows it (the scalar, or the
// magnitude of a vector).
#pragma once

#ifdef KS_HAVE_CUDA
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/method.hpp"

namespace ks::test_support {

// The largest relative difference over the cells; fails the test where the sizes do not fit.
inline double largest_display_difference(const Method& m, const Snapshot& snap, const std::string& name) {
  const FieldData* f = nullptr;
  for (const FieldData& d : snap.fields)
    if (d.desc.name == name) f = &d;
  if (!f) {
    ADD_FAILURE() << "no field " << name << " in the snapshot";
    return 1.0;
  }
  const std::size_t cells = std::size_t(f->grid.count()), bytes = cells * sizeof(float);
  EXPECT_EQ(m.write_display_field(name, nullptr, 0), bytes) << name;
  void* device = nullptr;
  if (cudaMalloc(&device, bytes) != cudaSuccess) {
    ADD_FAILURE() << "cudaMalloc";
    return 1.0;
  }
  EXPECT_EQ(m.write_display_field(name, device, bytes - 1), 0u) << name << ": a short buffer is refused";
  EXPECT_EQ(m.write_display_field(name, device, bytes), bytes) << name;
  std::vector<float> shown(cells);
  EXPECT_EQ(cudaMemcpy(shown.data(), device, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(device);
  const int n = f->desc.components;
  double worst = 0.0;
  for (std::size_t c = 0; c < cells; ++c) {
    double sum = 0.0;
    for (int a = 0; a < n; ++a) sum += f->values[c * n + a] * f->values[c * n + a];
    const double v = n == 1 ? f->values[c] : std::sqrt(sum);
    worst = std::max(worst, std::fabs(shown[c] - v) / std::max(std::fabs(v), 1e-30));
  }
  return worst;
}

}  // namespace ks::test_support
#endif
