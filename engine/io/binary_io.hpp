// Little helpers for methods' checkpoint state: plain values and vectors, with
// truncation detected on read.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"

namespace ks::bin {

template <class T>
void write(std::ostream& out, const T& v) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.write(reinterpret_cast<const char*>(&v), sizeof(T));
}

template <class T>
T read(std::istream& in) {
  static_assert(std::is_trivially_copyable_v<T>);
  T v{};
  in.read(reinterpret_cast<char*>(&v), sizeof(T));
  if (!in) throw bad_input("checkpoint", "the method state is truncated");
  return v;
}

template <class T>
void write_vector(std::ostream& out, const std::vector<T>& v) {
  write<std::uint64_t>(out, v.size());
  out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(T)));
}

// Bytes left in `in` when it can tell (a checkpoint's state is an in-memory stream), else the maximum.
inline std::uint64_t bytes_left(std::istream& in) {
  const std::istream::pos_type here = in.tellg();
  if (here == std::istream::pos_type(-1)) return ~0ull;
  in.seekg(0, std::ios::end);
  const std::istream::pos_type end = in.tellg();
  in.seekg(here);
  return end >= here ? static_cast<std::uint64_t>(end - here) : 0;
}

// A count read from a state is checked against `max_count` and against the bytes that follow it
// before anything is allocated: a crafted count is a corrupt state, never a huge allocation.
template <class T>
std::vector<T> read_vector(std::istream& in, std::uint64_t max_count = (1ull << 34)) {
  const auto n = read<std::uint64_t>(in);
  if (n > max_count) throw bad_input("checkpoint", "the method state is corrupt (vector of " + std::to_string(n) + " items)");
  const std::uint64_t left = bytes_left(in);
  if (n > left / sizeof(T))
    throw bad_input("checkpoint",
                    "the method state is truncated (a vector of " + std::to_string(n) + " items, " + std::to_string(left) + " bytes left)");
  std::vector<T> v(n);
  in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n * sizeof(T)));
  if (!in) throw bad_input("checkpoint", "the method state is truncated");
  return v;
}

// Every method's state starts with a tag and a version; a mismatch is refused.
inline void write_tag(std::ostream& out, const std::string& tag, std::uint32_t version) {
  write<std::uint32_t>(out, static_cast<std::uint32_t>(tag.size()));
  out.write(tag.data(), static_cast<std::streamsize>(tag.size()));
  write(out, version);
}

inline void expect_tag(std::istream& in, const std::string& tag, std::uint32_t version) {
  const auto n = read<std::uint32_t>(in);
  std::string got(n < 256 ? n : 0, '\0');
  in.read(got.data(), static_cast<std::streamsize>(got.size()));
  if (!in || got != tag) throw bad_input("checkpoint", "the state is not of method '" + tag + "'");
  const auto v = read<std::uint32_t>(in);
  if (v != version)
    throw bad_input("checkpoint", "state version " + std::to_string(v) + " of '" + tag + "' is not supported",
                    "version " + std::to_string(version));
}

}  // namespace ks::bin
