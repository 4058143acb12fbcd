#include "xml_tags.hpp"

#include <sstream>

namespace ks::xml {

namespace {

bool name_char(char c) { return std::isalnum((unsigned char)c) || c == '_' || c == ':' || c == '-' || c == '.'; }

}  // namespace

std::string char_shown(char c) {
  if (std::isprint((unsigned char)c)) return std::string("'") + c + "'";
  std::ostringstream os;
  os << "byte 0x" << std::hex << int((unsigned char)c);
  return os.str();
}

bool next_tag(Cursor& c, Tag& tag) {
  for (;;) {
    const std::size_t lt = c.find("<");
    if (lt == std::string_view::npos) {
      c.move_to(c.text().size());
      return false;
    }
    c.move_to(lt);
    const std::string_view close = c.starts_with("<!--") ? "-->" : c.starts_with("<?") ? "?>" : c.starts_with("<!") ? ">" : "";
    if (close.empty()) break;
    const std::size_t e = c.text().find(close, c.pos() + 2);
    if (e == std::string_view::npos)
      c.fail(std::string("the file ends inside the ") + (close == "-->" ? "comment" : "declaration") + " that starts here",
             std::string(1, '\'').append(close).append("' closing it"));
    c.move_to(e + close.size());
  }
  tag = Tag{};
  tag.line = c.line();
  c.next();
  if (c.peek() == '/') tag.closing = true, c.next();
  while (!c.at_end() && name_char(c.peek())) tag.name += c.peek(), c.next();
  if (tag.name.empty())
    c.fail(c.at_end() ? "the file ends after '<'" : "'<' is followed by " + char_shown(c.peek()), "a tag name, as in <DataArray ...>");
  const std::string shown_tag = std::string(tag.closing ? "</" : "<") + tag.name + ">";
  const std::string ends = "the file ends inside the tag " + shown_tag;
  for (;;) {
    c.skip_space();
    if (c.at_end()) c.fail(ends, "'>' closing the tag");
    if (c.peek() == '>') {
      c.next();
      return true;
    }
    if (c.peek() == '/' && !tag.closing) {
      c.next();
      if (c.peek() != '>') c.fail(c.at_end() ? ends : "'/' in the tag " + shown_tag + " is followed by " + char_shown(c.peek()), "'/>'");
      c.next();
      tag.empty = true;
      return true;
    }
    std::string key;
    while (!tag.closing && !c.at_end() && name_char(c.peek())) key += c.peek(), c.next();
    if (key.empty())
      c.fail("the tag " + shown_tag + " has " + char_shown(c.peek()) + " where an attribute or its end should be",
             "name=\"value\", '/>' or '>'");
    c.skip_space();
    if (c.peek() != '=') c.fail(c.at_end() ? ends : "the attribute " + key + " of " + shown_tag + " has no '='", key + "=\"value\"");
    c.next();
    c.skip_space();
    const char q = c.peek();
    if (q != '"' && q != '\'')
      c.fail(c.at_end() ? ends : "the attribute " + key + " of " + shown_tag + " has no quoted value", key + "=\"value\"");
    const std::size_t qe = c.text().find(q, c.pos() + 1);
    if (qe == std::string_view::npos)
      c.fail("the file ends inside the value of " + key + " in " + shown_tag, std::string("a closing ") + q);
    if (!tag.attrs.emplace(key, std::string(c.text().substr(c.pos() + 1, qe - c.pos() - 1))).second)
      c.fail("the tag " + shown_tag + " repeats the attribute " + key, "each attribute once");
    c.move_to(qe + 1);
  }
}

}  // namespace ks::xml
