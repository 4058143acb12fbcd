// Every file the engine reads from input (presets, checkpoints, temperature files, tables) goes
// through here: it must be a regular file (not a FIFO, a device or a directory, also behind a
// symlink) under a size limit; it is opened without blocking and read with that bound, so a
// crafted path can neither hang the reader nor make it read until memory runs out.
#pragma once

#include <cstdint>
#include <string>

namespace ks {

// Limits per kind of input.
constexpr std::uint64_t kMaxPresetBytes = 16ull << 20;            // presets are a few KB
constexpr std::uint64_t kMaxCheckpointHeaderBytes = 64ull << 20;  // parameters and small tables
constexpr std::uint64_t kMaxTemperatureFileBytes = 16ull << 30;   // a 512^3 field as text

// An open input file, checked as above.
class InputFile {
 public:
  // `kind` names the file in messages ("preset", "checkpoint"). Throws bad_input naming the
  // path, what the file is and what is allowed.
  InputFile(const std::string& path, const std::string& kind, std::uint64_t max_bytes);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  std::uint64_t size() const { return size_; }
  // The next `n` bytes (fewer only at the end of the file).
  std::string read(std::uint64_t n);
  // The rest of the file.
  std::string read_rest() { return read(size_ - offset_); }
  std::uint64_t offset() const { return offset_; }

 private:
  std::string path_, kind_;
  int fd_ = -1;
  std::uint64_t size_ = 0, offset_ = 0;
};

// The whole content of `path` (see InputFile).
std::string read_input_file(const std::string& path, const std::string& kind, std::uint64_t max_bytes);

}  // namespace ks
