// ceil_div(n, d): how many groups of d hold n items (n >= 0, d > 0): blocks of a launch, tiles of a
// row, strips of a row. The type is the usual arithmetic type of n and d.
#pragma once

#include "core/host_device.hpp"

namespace ks {

template <class N, class D>
KS_HD constexpr auto ceil_div(N n, D d) {
  return (n + d - 1) / d;
}

}  // namespace ks
