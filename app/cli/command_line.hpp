// Command lines of kinetic-run and the benchmarks, parsed with CLI11 to one convention: a value
// follows its option (--steps 10) or is joined to it (--steps=10); after "--" every argument is
// positional (a preset path that begins with '-'); a repeated option keeps its last value;
// -h/--help asks for help_text(). Every refusal is a ks::bad_input naming the option, the value
// (cut to a short excerpt) and what is allowed, so the programs exit 2 with one line.
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace ks::cli {

// Sets the conventions above on a fresh app, before its options are added; -h/--help sets `help`
// (the caller prints help_text).
void use_conventions(CLI::App& app, bool& help);

// Parses argv[1..argc): an option without its value, an unknown option and an argument that no
// option or positional takes are refused; values are checked by the options' callbacks.
void parse(CLI::App& app, int argc, const char* const* argv);

// The description, every option (names, value, help wrapped at 100 columns) and the footer.
std::string help_text(const CLI::App& app);

// "1,2,3", for a default value in an option's help or the values a message allows.
template <class T>
std::string comma_list(const std::vector<T>& values, const char* separator = ",") {
  std::ostringstream s;
  for (std::size_t i = 0; i < values.size(); ++i) s << (i ? separator : "") << values[i];
  return s.str();
}

// A decimal integer in [lo, hi]; anything else (a fraction, trailing text, a value beyond the
// range or beyond 64 bits) is refused, never wrapped or clamped.
long long parse_integer(const std::string& option, const std::string& text, long long lo, long long hi);
// A finite number > 0.
double parse_positive(const std::string& option, const std::string& text);

// Options whose values are checked as above. value_name is what --help shows after the option.
CLI::Option* add_integer(CLI::App& app, const std::string& name, std::function<void(long long)> set, long long lo, long long hi,
                         const std::string& help, const std::string& value_name = "N");
CLI::Option* add_positive(CLI::App& app, const std::string& name, std::function<void(double)> set, const std::string& help,
                          const std::string& value_name = "S");
// "a,b,c": each an integer in [lo, hi] (at least one).
CLI::Option* add_integer_list(CLI::App& app, const std::string& name, std::vector<int>& target, int lo, int hi, const std::string& help);
// One of `allowed`, spelled exactly.
CLI::Option* add_choice(CLI::App& app, const std::string& name, std::string& target, std::vector<std::string> allowed,
                        const std::string& help);
// A value taken as it is (a file, a folder, a key the program checks itself).
CLI::Option* add_text(CLI::App& app, const std::string& name, std::string& target, const std::string& help, const std::string& value_name);

// An integer option written into `target` (int, long long or std::optional<long long>); the upper
// bound is at most the target's largest value.
template <class T>
CLI::Option* add_integer(CLI::App& app, const std::string& name, T& target, long long lo, long long hi, const std::string& help,
                         const std::string& value_name = "N") {
  if constexpr (std::is_integral_v<T>) hi = std::min<long long>(hi, std::numeric_limits<T>::max());
  return add_integer(
      app, name, [&target](long long v) { target = static_cast<T>(v); }, lo, hi, help, value_name);
}

template <class T>
CLI::Option* add_positive(CLI::App& app, const std::string& name, T& target, const std::string& help, const std::string& value_name = "S") {
  return add_positive(
      app, name, [&target](double v) { target = v; }, help, value_name);
}

}  // namespace ks::cli
