// A method's memory estimate (memory.hpp) as named terms: `count` things of `bytes` each, on the host
// or the device, every product and sum checked for overflow under the term's name. The detail text
// is written from the terms, the largest first on each side, so what dominates reads first:
//   "host: nx x ny x nz = 64 x 64 x 64 cells x 481 B = 126 MB, ...; device: ..."
// Terms under 1 % of their side are counted but not listed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memory.hpp"

namespace ks {

class MemoryBudget {
 public:
  // `method` names the sums in an overflow error ("kinetic.dvm host bytes").
  explicit MemoryBudget(std::string method) : method_(std::move(method)) {}

  // `count` things described by `what` ("nx x ny x nz = 64 x 64 x 64 cells"), `bytes` each; a term
  // of bytes already (count 1 or bytes 1) reads "what = total". A zero term is left out.
  MemoryBudget& host(std::string what, std::int64_t count, std::int64_t bytes = 1);
  MemoryBudget& device(std::string what, std::int64_t count, std::int64_t bytes = 1);
  // A phase before the others whose memory is freed before they are allocated (reading a file): the
  // host needs the larger of it and the terms' sum.
  MemoryBudget& host_before(std::string what, std::int64_t bytes);
  // Appended to the detail after the terms (what an alternative would need).
  MemoryBudget& note(std::string text);

  MemoryEstimate estimate() const;

 private:
  struct Term {
    bool device;
    std::string what;
    std::int64_t count, bytes, total;
  };
  MemoryBudget& add(bool device, std::string what, std::int64_t count, std::int64_t bytes);
  std::string method_;
  std::vector<Term> terms_;
  std::string before_what_;
  std::int64_t before_bytes_ = 0;
  std::vector<std::string> notes_;
};

}  // namespace ks
