#include "input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/errors.hpp"
#include "core/memory.hpp"

namespace ks {

namespace {

const char* file_type_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

InputFile::InputFile(const std::string& path, const std::string& kind, std::uint64_t max_bytes) : path_(path), kind_(kind) {
  const std::string allowed = "a regular file of at most " + format_bytes(max_bytes);
  if (path.empty()) throw bad_input(kind, "no file name given", allowed);
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) throw bad_input(path, "cannot open the " + kind + ": " + std::strerror(errno), allowed);
  struct stat st {};
  std::string why;
  if (::fstat(fd_, &st) != 0) why = std::string("cannot inspect the ") + kind + ": " + std::strerror(errno);
  else if (!S_ISREG(st.st_mode)) why = "the " + kind + " is " + file_type_name(st.st_mode);
  else if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    why = "the " + kind + " is " + format_bytes(static_cast<std::uint64_t>(st.st_size)) + ", above the limit";
  if (!why.empty()) {
    ::close(fd_);
    throw bad_input(path, why, allowed);
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
  // A regular file is read with blocking reads; the size taken above bounds every buffer.
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::string InputFile::read(std::uint64_t n) {
  n = std::min(n, size_ - offset_);
  std::string bytes(n, '\0');
  std::uint64_t got = 0;
  while (got < n) {
    const ssize_t r = ::read(fd_, bytes.data() + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw bad_input(path_, "reading the " + kind_ + " failed: " + std::strerror(errno));
    if (r == 0) break;  // the file shrank while being read
    got += static_cast<std::uint64_t>(r);
  }
  bytes.resize(got);
  offset_ += got;
  return bytes;
}

std::string read_input_file(const std::string& path, const std::string& kind, std::uint64_t max_bytes) {
  InputFile f(path, kind, max_bytes);
  return f.read_rest();
}

}  // namespace ks
