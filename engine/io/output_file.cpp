#include "output_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/errors.hpp"

namespace ks {

namespace fs = std::filesystem;

namespace {

std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// A new file in `dir` for writing, created exclusively; its name in `name`.
int create_temporary(const std::string& stem, std::string& name) {
  static std::atomic<unsigned> counter{0};
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = stem + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1;
}

}  // namespace

void prepare_output_dir(const std::string& dir, const std::string& option) {
  const std::string allowed = "a directory that exists or can be created, and is writable";
  if (dir.empty()) throw bad_input(option, "an empty directory name", allowed);
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw bad_input(option + " " + dir, "is an existing file, not a directory", allowed);
  fs::create_directories(dir, ec);
  if (ec) throw bad_input(option + " " + dir, "cannot create the directory: " + ec.message(), allowed);
  std::string probe;
  const int fd = create_temporary((fs::path(dir) / ".ks-write-probe").string(), probe);
  if (fd < 0) throw bad_input(option + " " + dir, std::string("cannot create files in it: ") + std::strerror(errno), allowed);
  ::close(fd);
  ::unlink(probe.c_str());
}

void check_output_file(const std::string& path, const std::string& option) {
  const std::string allowed = "a new file, or a regular file of yours, in a writable folder";
  if (path.empty()) throw bad_input(option, "an empty file name", allowed);
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    std::string what;
    if (S_ISLNK(st.st_mode)) what = "is a symbolic link (it is not followed)";
    else if (S_ISDIR(st.st_mode)) what = "is a directory";
    else if (!S_ISREG(st.st_mode)) what = "is a device, FIFO or socket, not a regular file";
    else if (st.st_uid != ::geteuid()) what = "is a file owned by another user";
    if (!what.empty()) throw bad_input(option + " " + path, what, allowed);
  }
  const std::string folder = folder_of(path);
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) throw bad_input(option + " " + path, "the folder '" + folder + "' does not exist", allowed);
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw bad_input(option + " " + path, "the folder '" + folder + "' is not writable: " + std::strerror(errno), allowed);
}

void write_file_atomically(const std::string& path, const std::string& bytes, const std::string& kind) {
  write_file_atomically(path, {std::string_view(bytes)}, kind);
}

void write_file_atomically(const std::string& path, std::initializer_list<std::string_view> parts, const std::string& kind) {
  write_file_atomically(
      path,
      [&parts](const ByteSink& put) {
        for (const std::string_view bytes : parts) put(bytes);
      },
      kind);
}

void write_file_atomically(const std::string& path, const std::function<void(const ByteSink&)>& produce, const std::string& kind) {
  check_output_file(path, kind);
  std::string tmp;
  const int fd = create_temporary(path, tmp);
  if (fd < 0) {
    const std::string why = "cannot create a temporary file for the " + kind + ": " + std::strerror(errno);
    if (errno == ENOSPC || errno == EDQUOT || errno == EIO) throw run_failed(path + ": " + why);  // the disk, not the path
    throw bad_input(path, why);
  }
  std::string why;
  const ByteSink put = [&](std::string_view bytes) {
    std::size_t done = 0;
    while (why.empty() && done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) why = std::string("writing the ") + kind + " failed: " + std::strerror(errno);
      else done += static_cast<std::size_t>(n);
    }
  };
  try {
    produce(put);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  if (why.empty() && ::fsync(fd) != 0) why = std::string("flushing the ") + kind + " failed: " + std::strerror(errno);
  if (::close(fd) != 0 && why.empty()) why = std::string("closing the ") + kind + " failed: " + std::strerror(errno);
  if (why.empty()) {
    try {
      check_output_file(path, kind);  // again: nothing may have been planted there meanwhile
    } catch (const Error&) {
      ::unlink(tmp.c_str());
      throw;
    }
  }
  if (why.empty() && std::rename(tmp.c_str(), path.c_str()) != 0)
    why = std::string("cannot move the ") + kind + " into place: " + std::strerror(errno);
  if (!why.empty()) {
    ::unlink(tmp.c_str());
    // A file that could be created and then not written (a full disk, an I/O error) is a fault of the
    // run, not of its input.
    throw run_failed(path + ": " + why + " (the previous file, if any, is kept)");
  }
}

}  // namespace ks
