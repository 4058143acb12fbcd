// A step that may fail on some ranks and not others (writing a file, reading a checkpoint part),
// followed by collectives: if any rank's step throws, every rank throws, so that none waits in a
// collective for a rank that left. One process: the step's own error.
#pragma once

#include <cstdint>
#include <string>

#include "core/communicator.hpp"
#include "core/errors.hpp"

namespace ks {

// Runs `step` on this rank; when it threw an Error on any rank, every rank throws the worst kind (the
// largest exit code), with this rank's message or, where its step went through, `elsewhere`.
template <class Step>
void on_every_rank(const Communicator& comm, Step&& step, const std::string& elsewhere) {
  std::int64_t code = 0;
  std::string why;
  try {
    step();
  } catch (const Error& e) {
    code = e.exit_code();
    why = e.what();
  }
  if (const std::int64_t worst = comm.all_max(code)) throw Error(static_cast<ErrorKind>(worst), why.empty() ? elsewhere : why);
}

}  // namespace ks
