#include "command_line.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace ks::cli {

namespace {

// "a, b or c"
std::string one_of(const std::vector<std::string>& allowed) {
  std::string s;
  for (std::size_t i = 0; i < allowed.size(); ++i) {
    if (i > 0) s += i + 1 == allowed.size() ? " or " : ", ";
    s += allowed[i];
  }
  return s;
}

std::string integer_range(long long lo, long long hi) { return "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]"; }

// `text` broken into lines of at most `width` characters at spaces (a longer word stays whole).
std::vector<std::string> wrap(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::istringstream words(text);
  std::string line;
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

void use_conventions(CLI::App& app, bool& help) {
  app.set_help_flag();  // replaced below: help is an action the caller prints, not an exception
  app.allow_extras();   // unknown options are refused by parse(), in the project's form
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_flag("-h,--help", help, "print this help and exit");
}

void parse(CLI::App& app, int argc, const char* const* argv) {
  // An option that takes a value given last has none (CLI11 would take the next argument, "--"
  // included, as the value, as the hand-written parsers did).
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") break;
    const CLI::Option* opt = a.find('=') == std::string::npos ? app.get_option_no_throw(a) : nullptr;
    if (opt == nullptr || !opt->nonpositional() || opt->get_items_expected_min() == 0) continue;
    if (i + 1 == argc) throw bad_input(a, "needs a value", a + " " + opt->get_type_name() + "; see --help");
    ++i;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    throw bad_input("", e.what(), "see --help");
  }
  for (const std::string& a : app.remaining()) {
    if (a == "--") continue;  // CLI11 keeps the end-of-options mark among the extras
    if (!a.empty() && a[0] == '-') throw bad_input(cut(a, 60), "unknown option", "see --help");
    throw bad_input("'" + cut(a, 60) + "'", "unexpected argument", "see --help");
  }
}

std::string help_text(const CLI::App& app) {
  constexpr std::size_t kColumn = 25, kWidth = 100;
  std::string out;
  std::istringstream description(app.get_description());
  for (std::string line; std::getline(description, line);) {
    if (line.size() <= kWidth) {
      out += line + '\n';  // as written: the usage lines keep their indent
      continue;
    }
    for (const std::string& part : wrap(line, kWidth)) out += part + '\n';
  }
  out += "\noptions:\n";
  for (const CLI::Option* opt : app.get_options()) {
    if (!opt->nonpositional()) continue;  // positionals are in the usage lines of the description
    std::string names = "  ";
    for (const auto& s : opt->get_snames()) names += "-" + s + ", ";
    for (const auto& l : opt->get_lnames()) names += "--" + l + ", ";
    names.resize(names.size() - 2);
    if (opt->get_items_expected_min() > 0) names += " " + opt->get_type_name();
    if (names.size() + 2 > kColumn) {  // a long name has its help on the next lines
      out += names + '\n';
      names.clear();
    }
    names.resize(kColumn, ' ');
    for (const std::string& line : wrap(opt->get_description(), kWidth - kColumn)) {
      out += names + line + '\n';
      names.assign(kColumn, ' ');
    }
  }
  const std::string footer = app.get_footer();
  if (!footer.empty()) out += "\n" + footer + (footer.back() == '\n' ? "" : "\n");
  return out;
}

long long parse_integer(const std::string& option, const std::string& text, long long lo, long long hi) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || v < lo || v > hi)
    throw bad_input(option, "'" + cut(text, 40) + "' is not a valid value", integer_range(lo, hi));
  return v;
}

double parse_positive(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v > 0.0) || !std::isfinite(v))
    throw bad_input(option, "'" + cut(text, 40) + "' is not a valid value", "a finite number > 0");
  return v;
}

CLI::Option* add_integer(CLI::App& app, const std::string& name, std::function<void(long long)> set, long long lo, long long hi,
                         const std::string& help, const std::string& value_name) {
  return app
      .add_option_function<std::string>(
          name, [name, set, lo, hi](const std::string& text) { set(parse_integer(name, text, lo, hi)); }, help)
      ->type_name(value_name);
}

CLI::Option* add_positive(CLI::App& app, const std::string& name, std::function<void(double)> set, const std::string& help,
                          const std::string& value_name) {
  return app
      .add_option_function<std::string>(
          name, [name, set](const std::string& text) { set(parse_positive(name, text)); }, help)
      ->type_name(value_name);
}

CLI::Option* add_integer_list(CLI::App& app, const std::string& name, std::vector<int>& target, int lo, int hi, const std::string& help) {
  auto set = [name, &target, lo, hi](const std::string& text) {
    std::vector<int> v;
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');) v.push_back(int(parse_integer(name, item, lo, hi)));
    if (v.empty()) throw bad_input(name, "an empty list", "integers separated by commas");
    target = std::move(v);
  };
  return app.add_option_function<std::string>(name, set, help)->type_name("a,b,...");
}

CLI::Option* add_choice(CLI::App& app, const std::string& name, std::string& target, std::vector<std::string> allowed,
                        const std::string& help) {
  const std::string value_name = comma_list(allowed, "|");
  auto set = [name, &target, allowed = std::move(allowed)](const std::string& text) {
    if (std::find(allowed.begin(), allowed.end(), text) == allowed.end())
      throw bad_input(name, "'" + cut(text, 40) + "' is not a valid value", one_of(allowed));
    target = text;
  };
  return app.add_option_function<std::string>(name, set, help)->type_name(value_name);
}

CLI::Option* add_text(CLI::App& app, const std::string& name, std::string& target, const std::string& help, const std::string& value_name) {
  return app.add_option(name, target, help)->type_name(value_name);
}

}  // namespace ks::cli
