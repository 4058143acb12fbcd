// Error types shared by the engine and its clients. Each kind maps to one
// kinetic-run exit code (documented in `kinetic-run --help`).
#pragma once

#include <stdexcept>
#include <string>

#include "printable.hpp"

namespace ks {

enum class ErrorKind {
  BadInput = 2,            // a preset, parameter, file or command-line value is wrong
  BackendUnavailable = 3,  // the requested backend (CUDA) cannot be used here
  RunFailed = 4,           // the simulation itself failed (NaN, divergence, device fault)
};

class Error : public std::runtime_error {
 public:
  // The message is kept printable: a value quoted in it may hold any byte (printable.hpp).
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(printable(message)), kind_(kind) {}
  ErrorKind kind() const { return kind_; }
  int exit_code() const { return static_cast<int>(kind_); }

 private:
  ErrorKind kind_;
};

// "<where>: <what>; allowed: <allowed>" — where is a file, a JSON pointer or a key.
inline Error bad_input(const std::string& where, const std::string& what, const std::string& allowed = {}) {
  std::string msg = where.empty() ? what : where + ": " + what;
  if (!allowed.empty()) msg += "; allowed: " + allowed;
  return Error(ErrorKind::BadInput, msg);
}

inline Error backend_unavailable(const std::string& what) { return Error(ErrorKind::BackendUnavailable, what); }
inline Error run_failed(const std::string& what) { return Error(ErrorKind::RunFailed, what); }

}  // namespace ks
