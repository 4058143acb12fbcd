// A process started by mpirun or srun: MPI initialised for the run (the Runner's worker thread makes
// the collectives, the main thread the rest, never at once: MPI_THREAD_SERIALIZED), its communicator
// over MPI_COMM_WORLD, the rank's index among the ranks of its node (for the GPU it takes) and the
// end of every rank on an error. Built with KS_MPI only.
#pragma once

#include <memory>
#include <string>

#include "core/communicator.hpp"

namespace ks {

class MpiJob {
 public:
  // True when a launcher started this process (Open MPI's, PMIx or PMI environment variables).
  static bool launched();
  MpiJob(int& argc, char**& argv);  // MPI_Init_thread; throws when MPI cannot start
  ~MpiJob();                        // MPI_Finalize
  MpiJob(const MpiJob&) = delete;
  MpiJob& operator=(const MpiJob&) = delete;

  std::shared_ptr<const Communicator> communicator() const { return comm_; }
  int local_rank() const { return local_rank_; }  // among the ranks sharing this node
  // Ends every rank of the job with exit code `code` (MPI_Abort): for an error one rank meets alone,
  // while the others may wait in a collective.
  [[noreturn]] void abort(int code) const;

 private:
  std::shared_ptr<const Communicator> comm_;
  int local_rank_ = 0;
};

}  // namespace ks
