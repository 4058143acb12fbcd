// GPU tests skip, saying why, where no CUDA device is usable (a CPU-only build or no device).
#pragma once

#include <gtest/gtest.h>

#include "core/backend.hpp"

#define KS_REQUIRE_CUDA()                                                   \
  do {                                                                      \
    const ::ks::CudaAvailability cuda = ::ks::query_cuda();                 \
    if (!cuda.usable) GTEST_SKIP() << "CUDA test skipped: " << cuda.reason; \
  } while (0)
