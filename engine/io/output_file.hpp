// Where outputs go: checked before a run starts (not after an hour of work) and replaced
// atomically after it, so a failed write never truncates or replaces a good earlier file.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

namespace ks {

// `dir` exists (it is created when missing) and a file can be created in it; `option` names
// where it came from ("--out"). Throws bad_input naming the path and the reason.
void prepare_output_dir(const std::string& dir, const std::string& option);

// `path` can be written and later replaced: its folder exists and is writable, and if `path`
// exists it is a regular file owned by this user (never a symlink, a device or a directory).
void check_output_file(const std::string& path, const std::string& option);

// Writes `bytes` into a new temporary file beside `path` (created exclusively, no symlink
// followed), flushes it to disk and renames it over `path` after check_output_file(path).
// On any failure `path` is untouched and the temporary removed; a path that cannot take a file is
// bad input, a write that fails once the file is made (a full disk, an I/O error) a run failure.
void write_file_atomically(const std::string& path, const std::string& bytes, const std::string& kind);
// The same for a file made of `parts` written one after the other (a large body is written from
// where it lies, not copied into one string first).
void write_file_atomically(const std::string& path, std::initializer_list<std::string_view> parts, const std::string& kind);
// The same for a file whose bytes `produce` hands piece by piece to the sink it is given (a table of
// millions of rows is written as it is formatted, not held whole first).
using ByteSink = std::function<void(std::string_view)>;
void write_file_atomically(const std::string& path, const std::function<void(const ByteSink&)>& produce, const std::string& kind);

}  // namespace ks
