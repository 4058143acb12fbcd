#include "cli_options.hpp"

#include "command_line.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "io/preset.hpp"

namespace ks::cli {

namespace {

// Counts above 1e15 are refused: no run takes that many iterations, and every count stays far
// from the 64-bit limit in the arithmetic that uses it.
constexpr long long kMaxCount = 1'000'000'000'000'000;

constexpr const char* kDescription = R"(kinetic-run: run a Kinetic Studio preset without the GUI.

usage:
  kinetic-run PRESET.json [options]
  kinetic-run [options] -- PRESET.json    (after --, a preset path may begin with '-')
  kinetic-run --list-methods | --describe METHOD | --help | --version
PRESET is a preset file, or the name of a shipped one (dvm/teaching-cavity, lbm/packed-bed-coarse).
An option's value follows it (--steps 10) or is joined to it by '=' (--steps=10); a repeated
option keeps its last value, except --set.)";

constexpr const char* kFooter = R"(progress: a bar on stderr when it is a terminal, otherwise a line every 10%.
exit codes:
  0    done (end condition, --steps or --max-seconds reached)
  2    bad input: a preset, option, parameter or file is wrong, or the set-up needs more memory
       than is free (the message names it)
  3    backend unavailable: --backend cuda without a usable CUDA device
  4    the run failed (NaN, divergence, device error, a checkpoint or output that could not be
       written, e.g. on a full disk); outputs hold the last good state, summary.json says why
  130  stopped by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP (the terminal closed), 141 by
       SIGPIPE (the reader of its output went away): the current iteration finished, the outputs
       and the checkpoint were written)";

// The arguments as given, checked after parsing (positionals, --set in order).
struct Given {
  std::vector<std::string> presets, sets;
};

// Every option once: the parser and --help (usage_text) both come from these declarations.
void declare(CLI::App& app, Options& o, Given& g) {
  app.description(kDescription);
  app.footer(kFooter);
  use_conventions(app, o.help);
  app.add_flag("--version", o.version, "print the version and exit");
  app.add_flag("--list-methods", o.list_methods, "list the built-in methods (id and title) and exit");
  add_text(app, "--describe", o.describe,
           "print the method's parameters (key, unit, range, default, whether it may change while "
           "running), fields and series as JSON and exit",
           "METHOD");
  app.add_option("preset", g.presets, "the preset file")->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--set", g.sets,
                 "override a parameter (repeatable; see --describe for keys and ranges; a relative file path "
                 "is read from the current folder)")
      ->type_name("key=value")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option_function<std::string>(
         "--backend", [&o](const std::string& b) { o.backend = b; }, "auto (default: CUDA if a device is usable), cuda, or cpu")
      ->type_name("B");
  add_integer(app, "--steps", o.steps, 0, kMaxCount, "run N iterations (default: until the method's end condition)");
  app.add_flag("--until-done", o.until_done, "run until the method's end condition (the default)");
  add_positive(app, "--max-seconds", o.max_seconds, "stop after S seconds of wall time; outputs are still written");
  add_integer(app, "--seed", o.seed, 0, kMaxCount, "same as --set seed=N (not both)");
  add_text(app, "--out", o.out_dir, "write DIR/summary.json and one file per field and series", "DIR");
  add_choice(app, "--format", o.format, {"csv", "vti", "vti-ascii", "vtkhdf", "none"},
             "field file format (csv: one file per field, header x,y,z,<field>; vti: VTK XML, one .vti/.vtp per grid "
             "with every field on it, binary and zlib-compressed; vti-ascii: the same as text; vtkhdf: VTK's HDF5 format, "
             "one .hdf per uniform grid (VTK 9.1, ParaView 5.11), under mpirun with --pieces written by every rank "
             "into the one file, stretched grids, lines and particles as with vti; none: no field files, "
             "only summary.json and the series, for benchmarks at scale)");
  add_integer(app, "--output-every", o.output_every, 1, kMaxCount,
              "also write the fields every N iterations as a time series: DIR/STEM_<iteration>.vti per output and "
              "DIR/STEM.pvd, which ParaView plays as an animation (with vtkhdf: STEM_<iteration>.hdf and "
              "STEM.hdf.series; needs --out and --format vti, vti-ascii or vtkhdf)");
  app.add_flag("--pieces", o.pieces,
               "under mpirun: each rank writes its part of a split grid's fields (FIELD_rR.vti, or .vtr for a line) and rank 0 a "
               "FIELD.pvti (.pvtr) "
               "that ParaView opens, instead of gathering the fields on rank 0; with --format vtkhdf every rank writes its "
               "cells into one FIELD.hdf (needs --format vti or vtkhdf, or none to write no fields and gather none)");
  add_text(app, "--checkpoint", o.checkpoint,
           "write the full state to FILE (with --checkpoint-every N, every N iterations; always at the end)", "FILE");
  add_integer(app, "--checkpoint-every", o.checkpoint_every, 1, kMaxCount, "checkpoint period in iterations");
  add_text(app, "--restart", o.restart,
           "continue from a checkpoint of the same method and case, written with the same values of the "
           "parameters that need a re-setup (live parameters may differ: the preset's and --set's values "
           "apply after the restart)",
           "FILE");
  app.add_flag("-q,--quiet", o.quiet, "no progress output (errors are still printed)");
}

}  // namespace

std::string usage_text() {
  CLI::App app("", "kinetic-run");
  Options o;
  Given g;
  declare(app, o, g);
  return help_text(app);
}

Options parse_options(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    // Arguments reach summary.json and checkpoint headers (UTF-8 JSON): other bytes are refused here.
    if (!is_utf8(argv[i])) throw bad_input("argument " + std::to_string(i), "is not valid UTF-8 text", "UTF-8 text");
  }
  CLI::App app("", "kinetic-run");
  Options o;
  Given g;
  declare(app, o, g);
  parse(app, argc, argv);
  if (!g.presets.empty()) o.preset = preset_file(g.presets[0]);
  if (g.presets.size() > 1)
    throw bad_input(cut(g.presets[1], 60), "a second preset file was given (already have '" + cut(o.preset, 60) + "')", "one preset");
  for (const std::string& kv : g.sets) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) throw bad_input("--set", "'" + cut(kv, 60) + "' is not key=value", "key=value");
    o.sets.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  const bool one_shot = o.help || o.version || o.list_methods || !o.describe.empty();
  if (!one_shot && o.preset.empty()) throw bad_input("", "no preset file given", "kinetic-run PRESET.json [options]; see --help");
  if (o.checkpoint_every > 0 && o.checkpoint.empty())
    throw bad_input("--checkpoint-every", "needs --checkpoint FILE", "--checkpoint FILE --checkpoint-every N");
  if (o.pieces && o.format == "csv")
    throw bad_input("--pieces", "writes VTK pieces; the format is csv", "--pieces --format vti or vtkhdf (or none)");
#ifndef KS_HAVE_VTKHDF
  if (o.format == "vtkhdf")
    throw bad_input("--format vtkhdf", "this kinetic-run was built without HDF5 (no libhdf5-dev when it was configured)",
                    "--format csv, vti, vti-ascii or none; or a build with libhdf5-dev (libhdf5-openmpi-dev for mpirun)");
#endif
  if (o.output_every > 0 && (o.out_dir.empty() || o.format == "csv" || o.format == "none"))
    throw bad_input("--output-every", o.out_dir.empty() ? "needs --out DIR" : "writes a VTK time series; the format is " + o.format,
                    "--out DIR --format vti (or vti-ascii, vtkhdf) --output-every N");
  if (o.steps && o.until_done) throw bad_input("--steps", "cannot be combined with --until-done", "one of them");
  for (const auto& [key, text] : o.sets)
    if (key == "seed" && o.seed)
      throw bad_input("--seed", "given together with --set seed=" + cut(text, 40), "one of --seed N or --set seed=N");
  return o;
}

}  // namespace ks::cli
