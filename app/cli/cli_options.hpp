// Command-line contract of kinetic-run (see usage_text()).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ks::cli {

struct Options {
  std::string preset;
  std::vector<std::pair<std::string, std::string>> sets;  // --set key=value, in order
  std::optional<std::string> backend;
  std::optional<long long> steps;
  bool until_done = false;
  std::optional<double> max_seconds;
  std::optional<long long> seed;
  std::string out_dir;
  std::string format = "csv";
  long long output_every = 0;  // > 0: the fields every N iterations as a time series (.pvd)
  bool pieces = false;         // under MPI: per-rank pieces of split grids and a .pvti
  std::string checkpoint;
  long long checkpoint_every = 0;
  std::string restart;
  bool quiet = false;
  // one-shot actions
  bool help = false, version = false, list_methods = false;
  std::string describe;
};

// Parses argv with CLI11 to the conventions of command_line.hpp (--opt value, --opt=value, "--").
// Throws ks::Error (bad input) naming the option, the value and what is allowed.
Options parse_options(int argc, char** argv);
// The text of --help, from the same declarations as the parser.
std::string usage_text();

}  // namespace ks::cli
