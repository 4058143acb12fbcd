#include "mpi_job.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>

namespace ks {

namespace {

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::vector<double> all_gather(const std::vector<double>& local) const override {
    const Clock clock(traffic_, local.size() * sizeof(double) * (size_ - 1));
    const int mine = static_cast<int>(local.size());
    std::vector<int> counts(size_), offsets(size_);
    MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    long long total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[r] = static_cast<int>(total);
      total += counts[r];
    }
    if (total > 2147483647LL) throw std::length_error("all_gather: more than 2^31 - 1 values");
    std::vector<double> all(static_cast<std::size_t>(total));
    MPI_Allgatherv(local.data(), mine, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD);
    return all;
  }

  void all_sum(std::vector<double>& values) const override {
    const Clock clock(traffic_, values.size() * sizeof(double));
    // In pieces of at most 2^30 values (MPI counts are int).
    constexpr std::size_t kPiece = std::size_t(1) << 30;
    for (std::size_t at = 0; at < values.size(); at += kPiece) {
      const int n = static_cast<int>(std::min(kPiece, values.size() - at));
      MPI_Allreduce(MPI_IN_PLACE, values.data() + at, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  }

  std::int64_t all_max(std::int64_t value) const override {
    const Clock clock(traffic_, sizeof(long long));
    long long v = value, out = 0;
    MPI_Allreduce(&v, &out, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return out;
  }

  std::vector<double> gather(const std::vector<double>& local) const override {
    const Clock clock(traffic_, rank_ == 0 ? 0 : local.size() * sizeof(double));
    const int mine = static_cast<int>(local.size());
    std::vector<int> counts(rank_ == 0 ? size_ : 0), offsets(counts.size());
    MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    long long total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      offsets[r] = static_cast<int>(total);
      total += counts[r];
    }
    // Every rank must learn of a refusal, or the others would wait in MPI_Gatherv.
    int too_many = total > 2147483647LL ? 1 : 0;
    MPI_Bcast(&too_many, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (too_many) throw std::length_error("gather: more than 2^31 - 1 values on rank 0");
    std::vector<double> all(static_cast<std::size_t>(total));
    MPI_Gatherv(local.data(), mine, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return all;
  }

  void ring_exchange(const void* to_prev, const void* to_next, void* from_prev, void* from_next, std::size_t bytes) const override {
    if (bytes > 2147483647u) throw std::length_error("ring_exchange: a halo of more than 2^31 - 1 bytes");
    const Clock clock(traffic_, ((to_prev ? bytes : 0) + (to_next ? bytes : 0)));
    const int prev = (rank_ + size_ - 1) % size_, next = (rank_ + 1) % size_, n = static_cast<int>(bytes);
    // Tags tell the directions apart where prev and next are the same rank (two ranks).
    enum { kUp = 1, kDown = 2 };
    MPI_Request r[4];
    int count = 0;
    if (from_prev) MPI_Irecv(from_prev, n, MPI_BYTE, prev, kUp, MPI_COMM_WORLD, &r[count++]);
    if (from_next) MPI_Irecv(from_next, n, MPI_BYTE, next, kDown, MPI_COMM_WORLD, &r[count++]);
    if (to_next) MPI_Isend(to_next, n, MPI_BYTE, next, kUp, MPI_COMM_WORLD, &r[count++]);
    if (to_prev) MPI_Isend(to_prev, n, MPI_BYTE, prev, kDown, MPI_COMM_WORLD, &r[count++]);
    MPI_Waitall(count, r, MPI_STATUSES_IGNORE);
  }

  Traffic traffic() const override { return traffic_; }

 private:
  // Adds a collective's time and bytes to the totals when it ends.
  struct Clock {
    Clock(Traffic& t, std::uint64_t bytes) : t_(t), start_(std::chrono::steady_clock::now()) { t_.bytes += bytes; }
    ~Clock() { t_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
    Traffic& t_;
    std::chrono::steady_clock::time_point start_;
  };
  int rank_ = 0, size_ = 1;
  mutable Traffic traffic_;
};

}  // namespace

bool MpiJob::launched() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(name)) return true;
  return false;
}

MpiJob::MpiJob(int& argc, char**& argv) {
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) throw std::runtime_error("MPI_Init_thread failed");
  if (provided < MPI_THREAD_SERIALIZED) {
    MPI_Finalize();
    throw std::runtime_error("the MPI library gives no MPI_THREAD_SERIALIZED (a worker thread makes the collectives)");
  }
  comm_ = std::make_shared<MpiCommunicator>();
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, comm_->rank(), MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local_rank_);
  MPI_Comm_free(&node);
}

MpiJob::~MpiJob() { MPI_Finalize(); }

void MpiJob::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::_Exit(code);  // MPI_Abort does not return; this is for the compiler
}

}  // namespace ks
