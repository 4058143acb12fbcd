// The ranks of one run (MPI, engine/parallel), or the one process. Every rank calls the collectives
// in the same order; rank 0 reports and writes. Methods reach it through ExecutionContext::comm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace ks {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank's `local`, concatenated in rank order, on every rank.
  virtual std::vector<double> all_gather(const std::vector<double>& local) const = 0;
  // Element-wise sums over the ranks, in place on every rank (the order of the additions is the
  // MPI library's: results may differ from one rank's in the last bits).
  virtual void all_sum(std::vector<double>& values) const = 0;
  virtual std::int64_t all_max(std::int64_t value) const = 0;
  // Every rank's `local` concatenated in rank order on rank 0; empty on the others.
  virtual std::vector<double> gather(const std::vector<double>& local) const = 0;
  // The halo exchange of a ring of ranks (rank - 1, rank, rank + 1 modulo size): sends `to_prev` to
  // rank - 1 and `to_next` to rank + 1, and receives into `from_prev` what rank - 1 sent to its next
  // and into `from_next` what rank + 1 sent to its prev; `bytes` bytes each. Not a collective of all
  // ranks, but every rank of the ring must call it as often as the others. An open chain leaves out
  // the wrap: rank 0 passes null for to_prev and from_prev, the last rank for to_next and from_next.
  virtual void ring_exchange(const void* to_prev, const void* to_next, void* from_prev, void* from_next, std::size_t bytes) const = 0;

  // This rank's time inside the collectives (waiting for the others included) and the bytes it
  // sent to them, since the start.
  struct Traffic {
    double seconds = 0.0;
    std::uint64_t bytes = 0;
  };
  virtual Traffic traffic() const { return {}; }
};

// The one process: rank 0 of 1.
class SerialCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<double> all_gather(const std::vector<double>& local) const override { return local; }
  void all_sum(std::vector<double>&) const override {}
  std::int64_t all_max(std::int64_t value) const override { return value; }
  std::vector<double> gather(const std::vector<double>& local) const override { return local; }
  // A ring of one: what goes out one side comes back in at the other.
  void ring_exchange(const void* to_prev, const void* to_next, void* from_prev, void* from_next, std::size_t bytes) const override {
    if (from_prev && to_next) std::memmove(from_prev, to_next, bytes);
    if (from_next && to_prev) std::memmove(from_next, to_prev, bytes);
  }
};

// [begin, end) of `count` items on `rank` of `size`: contiguous blocks in rank order, sizes differing
// by at most one, so rank order is item order.
struct Block {
  std::int64_t begin = 0, end = 0;
  std::int64_t count() const { return end - begin; }
};
inline Block block_of(std::int64_t count, int rank, int size) { return {count * rank / size, count * (rank + 1) / size}; }

}  // namespace ks
