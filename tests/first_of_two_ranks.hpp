// Rank 0 of 2 as a memory estimate sees it (only rank and size; it exchanges nothing): a method's
// estimate for one MPI rank, tested without MPI.
#pragma once

#include <stdexcept>
#include <vector>

#include "core/communicator.hpp"

namespace ks::test_support {

class FirstOfTwoRanks final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 2; }
  std::vector<double> all_gather(const std::vector<double>&) const override { throw std::logic_error("not a collective test"); }
  void all_sum(std::vector<double>&) const override { throw std::logic_error("not a collective test"); }
  std::int64_t all_max(std::int64_t) const override { throw std::logic_error("not a collective test"); }
  std::vector<double> gather(const std::vector<double>&) const override { throw std::logic_error("not a collective test"); }
  void ring_exchange(const void*, const void*, void*, void*, std::size_t) const override {
    throw std::logic_error("not a collective test");
  }
};

}  // namespace ks::test_support
