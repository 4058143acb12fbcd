// The ranks of one kinetic-run: MPI ranks when mpirun or srun started it in an MPI build (KS_MPI),
// else this process alone. Rank 0 prints the progress and writes the outputs; an error one rank meets
// while the others may wait in a collective ends every rank.
#pragma once

#include <memory>
#include <string>

#include "core/communicator.hpp"

namespace ks {
class MpiJob;
}

namespace ks::cli {

class RankGroup {
 public:
  RankGroup(int& argc, char**& argv);  // MPI_Init where launched by mpirun / srun
  ~RankGroup();

  const std::shared_ptr<const Communicator>& comm() const { return comm_; }
  int rank() const { return comm_->rank(); }
  int size() const { return comm_->size(); }
  int local_rank() const { return local_rank_; }  // among the ranks on this node: its GPU slot
  bool reports() const { return rank() == 0; }

  // From now on the ranks may wait in collectives (the run has started).
  void enter_collectives() { collective_ = true; }
  // An error on this rank: printed (by every rank once collectives began, else by rank 0, since every
  // rank met the same error) and its exit code returned; once collectives began with more than one
  // rank, every rank ends at once with `code` instead (no rank is left waiting).
  int fail(int code, const std::string& message) const;

 private:
  std::shared_ptr<MpiJob> mpi_;  // shared: its deleter is made where MpiJob is complete (KS_MPI builds only)
  std::shared_ptr<const Communicator> comm_;
  int local_rank_ = 0;
  bool collective_ = false;
};

}  // namespace ks::cli
