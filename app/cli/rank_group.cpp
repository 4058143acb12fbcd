#include "rank_group.hpp"

#include <cstdio>

#ifdef KS_HAVE_MPI
#include "parallel/mpi_job.hpp"
#endif

namespace ks::cli {

RankGroup::RankGroup(int& argc, char**& argv) {
#ifdef KS_HAVE_MPI
  if (MpiJob::launched()) {
    mpi_ = std::make_shared<MpiJob>(argc, argv);
    comm_ = mpi_->communicator();
    local_rank_ = mpi_->local_rank();
    return;
  }
#else
  (void)argc, (void)argv;
#endif
  comm_ = std::make_shared<SerialCommunicator>();
}

RankGroup::~RankGroup() = default;

int RankGroup::fail(int code, const std::string& message) const {
  if (size() == 1) {
    std::fprintf(stderr, "kinetic-run: %s\n", message.c_str());
    return code;
  }
  if (!collective_) {
    if (reports()) std::fprintf(stderr, "kinetic-run: %s\n", message.c_str());
    return code;
  }
  std::fprintf(stderr, "kinetic-run: rank %d of %d: %s\n", rank(), size(), message.c_str());
  std::fflush(stderr);
#ifdef KS_HAVE_MPI
  if (mpi_) mpi_->abort(code);
#endif
  return code;
}

}  // namespace ks::cli
