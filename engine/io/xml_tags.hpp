// The tags of an XML file's text as VTK's XML formats use them, read without an XML library: enough
// for the engine's .vti reader (grid_file_vti.cpp) and the checks of a file before VTK reads it
// (app/vtk_io). Every read checks the end of the text and names the line in its message.
#pragma once

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <string_view>

#include "core/errors.hpp"

namespace ks::xml {

// A position in a file's text that counts lines as it moves. Every read checks the end of the text.
class Cursor {
 public:
  Cursor(std::string_view text, const std::string& file) : text_(text), file_(file) {}
  std::string_view text() const { return text_; }
  std::size_t pos() const { return pos_; }
  long long line() const { return line_; }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  bool starts_with(std::string_view s) const { return text_.substr(pos_).starts_with(s); }
  std::size_t find(std::string_view s) const { return text_.find(s, pos_); }
  // Moves to `p` (at most the end), counting the lines passed.
  void move_to(std::size_t p) {
    p = std::min(p, text_.size());
    if (p > pos_) line_ += std::count(text_.begin() + pos_, text_.begin() + p, '\n');
    pos_ = p;
  }
  void next() { move_to(pos_ + 1); }
  void skip_space() {
    while (!at_end() && std::isspace((unsigned char)text_[pos_])) next();
  }
  std::string where() const { return file_ + ": line " + std::to_string(line_); }
  [[noreturn]] void fail(const std::string& what, const std::string& expected) const { throw bad_input(where(), what, expected); }

 private:
  std::string_view text_;
  const std::string& file_;
  std::size_t pos_ = 0;
  long long line_ = 1;
};

struct Tag {
  std::string name;
  bool closing = false;  // </name>
  bool empty = false;    // <name ... />
  std::map<std::string, std::string> attrs;
  long long line = 0;
};

// The next tag from the cursor on, leaving the cursor after its '>'; false when no '<' is left.
// Declarations (<?...?>), comments (<!--...-->) and other <!...> are skipped.
bool next_tag(Cursor& c, Tag& tag);

// `c` as a message shows it: 'x', or its byte value where it does not print.
std::string char_shown(char c);

}  // namespace ks::xml
