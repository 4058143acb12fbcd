#include "cli_options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace ks::cli {

std::string usage_text() {
  return R"(kinetic-run: run a Kinetic Studio preset without the GUI.

usage:
  kinetic-run PRESET.json [options]
  kinetic-run --list-methods | --describe METHOD | --help | --version

options:
  --set key=value        override a parameter (repeatable; see --describe for keys and ranges;
                         a relative file path is read from the current folder)
  --backend B            auto (default: CUDA if a device is usable), cuda, or cpu
  --steps N              run N iterations (default: until the method's end condition)
  --until-done           run until the method's end condition (the default)
  --max-seconds S        stop after S seconds of wall time; outputs are still written
  --seed N               same as --set seed=N (not both)
  --out DIR              write DIR/summary.json and one file per field and series
  --format csv|vti       field file format (csv: header x,y,z,<field>; vti/vtp: VTK XML)
  --checkpoint FILE      write the full state to FILE (with --checkpoint-every N, every N iterations;
                         always at the end)
  --checkpoint-every N   checkpoint period in iterations
  --restart FILE         continue from a checkpoint of the same method and case, written with the
                         same values of the parameters that need a re-setup (live parameters may
                         differ: the preset's and --set's values apply after the restart)
  --quiet                no progress output (errors are still printed)

progress: a bar on stderr when it is a terminal, otherwise a line every 10%.
exit codes:
  0    done (end condition, --steps or --max-seconds reached)
  2    bad input: a preset, option, parameter or file is wrong, or the set-up needs more memory
       than is free (the message names it)
  3    backend unavailable: --backend cuda without a usable CUDA device
  4    the run failed (NaN, divergence, device error, a checkpoint that could not be written);
       outputs hold the last good state
  130  stopped by Ctrl-C (SIGINT), 143 stopped by SIGTERM: the current iteration finished, the
       outputs and the checkpoint were written
)";
}

namespace {

// Counts above 1e15 are refused: no run takes that many iterations, and every count stays far
// from the 64-bit limit in the arithmetic that uses it.
constexpr long long kMaxCount = 1'000'000'000'000'000;

long long parse_int(const std::string& opt, const std::string& text, long long lo) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || v < lo || v > kMaxCount)
    throw bad_input(opt, "'" + cut(text, 40) + "' is not a valid value",
                    "an integer in [" + std::to_string(lo) + ", " + std::to_string(kMaxCount) + "]");
  return v;
}

double parse_positive(const std::string& opt, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v > 0.0) || !std::isfinite(v))
    throw bad_input(opt, "'" + cut(text, 40) + "' is not a valid value", "a finite number > 0");
  return v;
}

}  // namespace

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    // Arguments reach summary.json and checkpoint headers (UTF-8 JSON): other bytes are refused here.
    if (!is_utf8(argv[i])) throw bad_input("argument " + std::to_string(i), "is not valid UTF-8 text", "UTF-8 text");
  }
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](void) -> std::string {
      if (i + 1 >= argc) throw bad_input(a, "needs a value", "see --help");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") o.help = true;
    else if (a == "--version") o.version = true;
    else if (a == "--list-methods") o.list_methods = true;
    else if (a == "--describe") o.describe = value();
    else if (a == "--set") {
      const std::string kv = value();
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) throw bad_input("--set", "'" + kv + "' is not key=value", "key=value");
      o.sets.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    } else if (a == "--backend") o.backend = value();
    else if (a == "--steps") o.steps = parse_int(a, value(), 0);
    else if (a == "--until-done") o.until_done = true;
    else if (a == "--max-seconds") o.max_seconds = parse_positive(a, value());
    else if (a == "--seed") o.seed = parse_int(a, value(), 0);
    else if (a == "--out") o.out_dir = value();
    else if (a == "--format") {
      o.format = value();
      if (o.format != "csv" && o.format != "vti")
        throw bad_input("--format", "unknown format '" + cut(o.format, 40) + "'", "csv or vti");
    } else if (a == "--checkpoint") o.checkpoint = value();
    else if (a == "--checkpoint-every") o.checkpoint_every = parse_int(a, value(), 1);
    else if (a == "--restart") o.restart = value();
    else if (a == "--quiet" || a == "-q") o.quiet = true;
    else if (!a.empty() && a[0] == '-') throw bad_input(cut(a, 60), "unknown option", "see --help");
    else if (o.preset.empty()) o.preset = a;
    else throw bad_input(a, "a second preset file was given (already have '" + o.preset + "')", "one preset");
  }
  const bool one_shot = o.help || o.version || o.list_methods || !o.describe.empty();
  if (!one_shot && o.preset.empty()) throw bad_input("", "no preset file given", "kinetic-run PRESET.json [options]; see --help");
  if (o.checkpoint_every > 0 && o.checkpoint.empty())
    throw bad_input("--checkpoint-every", "needs --checkpoint FILE", "--checkpoint FILE --checkpoint-every N");
  if (o.steps && o.until_done) throw bad_input("--steps", "cannot be combined with --until-done", "one of them");
  for (const auto& [key, text] : o.sets)
    if (key == "seed" && o.seed)
      throw bad_input("--seed", "given together with --set seed=" + cut(text, 40), "one of --seed N or --set seed=N");
  return o;
}

}  // namespace ks::cli
