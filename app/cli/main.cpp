// kinetic-run: the headless runner. Same engine as the app; see usage_text().
#include <atomic>
#include <filesystem>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "cli_options.hpp"
#include "core/data_dir.hpp"
#include "core/errors.hpp"
#include "core/printable.hpp"
#include "core/rank_agreement.hpp"
#include "core/registry.hpp"
#include "io/checkpoint.hpp"
#include "io/output_file.hpp"
#include "io/preset.hpp"
#include "progress_printer.hpp"
#include "rank_group.hpp"
#include "run/runner.hpp"
#include "io/run_output.hpp"
#ifdef KS_HAVE_VTKHDF
#include "io/vtkhdf_writer.hpp"
#endif
#ifdef KS_WITH_VTK_IO
#include "vtk_grid_file.hpp"
#endif

namespace {

// The signal that asked the run to stop, 0 while none did. Each ends the run like Ctrl-C: the current
// iteration finishes, then the outputs and the checkpoint are written. SIGHUP (the terminal or ssh
// session closed) and SIGPIPE (the reader of its output went away: `kinetic-run ... | head -1`) killed
// it at once with nothing written; after SIGPIPE the messages to the closed pipe are dropped.
std::atomic<int> g_stop_signal{0};
void on_stop_signal(int sig) {
  int none = 0;
  g_stop_signal.compare_exchange_strong(none, sig);  // the first signal names the stop
}

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaction(sig, &sa, nullptr);
}

std::string stop_signal_text(int sig) {
  switch (sig) {
    case SIGTERM: return "terminated (SIGTERM)";
    case SIGHUP: return "hung up (SIGHUP: the terminal closed)";
    case SIGPIPE: return "its output's reader went away (SIGPIPE)";
    default: return "interrupted (SIGINT)";
  }
}

using Clock = std::chrono::steady_clock;

int describe(const std::string& id) {
  std::cout << ks::describe(ks::builtin_registry().info(id)).dump(2) << '\n';
  return 0;
}

// The preset's parameters with --set and --seed applied.
ks::ParamSet resolve_params(const ks::cli::Options& o, const ks::Preset& preset) {
  ks::ParamSet params = preset.params;
  ks::apply_overrides(params, o.sets, preset.method);
  if (o.seed) {
    if (!params.has("seed")) throw ks::bad_input("--seed", "method '" + preset.method + "' has no seed", "omit --seed");
    params.set("seed", ks::parse_value(params.spec("seed"), std::to_string(*o.seed), "--seed"));
  }
  return params;
}

nlohmann::json preset_identity(const ks::Preset& p) { return {{"file", p.file}, {"title", p.title}, {"case", p.case_name}}; }

// Checked before the run starts, so a bad path is found now, not after an hour of work. Rank 0 writes,
// so rank 0 checks; every rank learns whether the check failed, and fails with it.
void check_output_paths(const ks::cli::Options& o, const ks::cli::RankGroup& g) {
  ks::on_every_rank(
      *g.comm(),
      [&] {
        if (!g.reports()) return;
        if (!o.out_dir.empty()) ks::prepare_output_dir(o.out_dir, "--out");
        if (o.checkpoint.empty()) return;
        ks::check_output_file(o.checkpoint, "--checkpoint");
        // The checkpoint replaces its file: never the preset being run (a restart's own checkpoint may be).
        std::error_code ec;
        if (!o.preset.empty() && std::filesystem::equivalent(o.checkpoint, o.preset, ec))
          throw ks::bad_input("--checkpoint " + o.checkpoint,
                              "is the preset being run (" + o.preset + "), which the checkpoint would overwrite",
                              "another file, e.g. run.ckpt");
      },
      "the output paths were refused on rank 0");
}

// More than one rank: the method must split its work, and every rank must run on the same kind of
// backend (the same on all ranks, so every rank refuses alike).
void check_ranks(const ks::cli::RankGroup& g, const ks::MethodInfo& info, const ks::ExecutionContext& ctx) {
  if (g.size() == 1) return;
  const std::int64_t cuda = ctx.backend == ks::BackendKind::Cuda ? 1 : 0;
  if (g.comm()->all_max(cuda) != -g.comm()->all_max(-cuda))
    throw ks::backend_unavailable(
        "the ranks run on different backends (CUDA on some, the CPU on others): every rank needs a "
        "usable GPU, or run with --backend cpu");
  if (info.decomposition.empty())
    throw ks::bad_input("mpirun -np " + std::to_string(g.size()), "method '" + info.id + "' does not yet split its work across ranks",
                        "one rank for " + info.id);
}

int run(const ks::cli::Options& o, ks::cli::RankGroup& group) {
  if (o.help) {
    std::cout << ks::cli::usage_text();
    return 0;
  }
  if (o.version) {
    std::cout << "kinetic-run " << KS_VERSION << '\n';
    try {
      const ks::DataDir data = ks::data_dir();
      std::cout << "data: " << data.path.string() << " (" << data.found_by << ")\n";
    } catch (const ks::Error& e) {
      std::cout << "data: none (" << e.what() << ")\n";
    }
    return 0;
  }
  const ks::Registry& registry = ks::builtin_registry();
  if (o.list_methods) {
    for (const auto& id : registry.ids()) std::cout << id << "\t" << registry.info(id).title << '\n';
    return 0;
  }
  if (!o.describe.empty()) return describe(o.describe);

  const ks::Preset preset = ks::load_preset(o.preset, registry);
  const ks::ParamSet params = resolve_params(o, preset);
  // A restart sets up with the checkpoint's parameters, then applies the live ones that differ.
  ks::RestartPlan restart{params, {}};
  if (!o.restart.empty()) {
    const ks::CheckpointHeader header = ks::read_checkpoint_header(o.restart);
    if (header.ranks != group.size())
      throw ks::bad_input(
          "--restart " + o.restart,
          "the checkpoint was written by " + std::to_string(header.ranks) + " rank(s), this run has " + std::to_string(group.size()),
          "a restart on as many ranks (mpirun -np " + std::to_string(header.ranks) + ")");
    restart = ks::plan_restart(header, o.restart, preset.method, preset.case_name, params);
  }
  check_output_paths(o, group);
  const ks::BackendRequest request =
      o.backend ? ks::parse_backend(*o.backend, "--backend") : preset.backend.value_or(ks::BackendRequest::Auto);
  ks::ExecutionContext ctx = ks::resolve_backend(request, group.local_rank());
  ctx.comm = group.comm();
  const bool many = group.size() > 1;
  ctx.field_pieces = many && o.pieces;
#ifdef KS_HAVE_VTKHDF
  if (ctx.field_pieces && o.format == "vtkhdf" && !ks::vtkhdf_parallel())
    throw ks::bad_input("--pieces --format vtkhdf",
                        "this kinetic-run's HDF5 writes from one process only (built without MPI or without libhdf5-openmpi-dev)",
                        "--pieces --format vti, or --format vtkhdf without --pieces (rank 0 writes the gathered fields)");
#endif
  if (!o.quiet && !ctx.cuda_unused_reason.empty())
    std::fprintf(stderr, "kinetic-run: CUDA not used (%s): running on the CPU\n", ctx.cuda_unused_reason.c_str());
  if (!o.quiet && many)
    std::fprintf(stderr, "rank %d of %d: %s on %s\n", group.rank(), group.size(), preset.method.c_str(), ctx.device_name.c_str());
  else if (!o.quiet)
    std::fprintf(stderr, "%s: %s on %s\n", preset.method.c_str(), ks::printable(preset.title).c_str(), ctx.device_name.c_str());
  const ks::MethodInfo& info = registry.info(preset.method);
  check_ranks(group, info, ctx);
  if (many && group.reports() && !o.quiet)
    std::fprintf(stderr, "%s: %s on %d ranks (%s)\n", preset.method.c_str(), ks::printable(preset.title).c_str(), group.size(),
                 info.decomposition.c_str());

  ks::RunnerOptions ropt;
  // kinetic-run reads the snapshots a run starts and ends with (forced); none in between, which the
  // Runner's worker would otherwise build between iterations (0.6 s each for 4e6 particles).
  ropt.snapshot_interval = std::chrono::hours(24);
  ropt.restart_from = o.restart;
  ropt.checkpoint_preset = preset_identity(preset);
  // The fields of a snapshot into --out (every rank calls it: pieces are written by their ranks).
  std::optional<ks::TimeSeriesWriter> series;
  if (o.output_every > 0) series.emplace(o.out_dir, ks::encoding_of(o.format));
  const auto write_fields = [&o, &group, &series](const ks::Snapshot& snap, const ks::ExecutionContext& c) {
    std::vector<std::string> files;
    if (o.out_dir.empty() || o.format == "none") return files;
#ifdef KS_HAVE_VTKHDF
    if (o.format == "vtkhdf")
      return ks::write_fields_vtkhdf(o.out_dir, snap, *group.comm(), c.field_pieces, group.reports(), series ? &*series : nullptr);
#endif
    ks::TimeSeriesWriter* ts = series ? &*series : nullptr;
    if (c.field_pieces) files = ks::write_field_pieces(o.out_dir, o.format, snap, *group.comm(), ts);
    if (group.reports()) {
      const std::vector<std::string> whole = ks::write_fields(o.out_dir, o.format, snap, ts);
      files.insert(files.end(), whole.begin(), whole.end());
    }
    return files;
  };
  ropt.after_iteration = [&o, id = ropt.checkpoint_preset, &write_fields](const ks::Method& m, const ks::ExecutionContext& c) {
    const long long iteration = m.progress().iteration;
    if (o.checkpoint_every > 0 && iteration % o.checkpoint_every == 0) ks::save_checkpoint(m, c, o.checkpoint, id);
    if (o.output_every > 0 && iteration % o.output_every == 0) write_fields(ks::snapshot_for_files(m), c);
  };
  install_stop_handlers();
  const auto t0 = Clock::now();
  // Why this process should stop early ("" while nothing asks): --max-seconds passed, or a signal.
  const auto stop_asked = [&o, t0]() -> std::string {
    if (o.max_seconds && std::chrono::duration<double>(Clock::now() - t0).count() > *o.max_seconds) return "--max-seconds";
    if (g_stop_signal) return stop_signal_text(g_stop_signal);
    return {};
  };
  if (many) {
    // The ranks stop together after the iteration where any of them saw a signal or ran out of time
    // (a method's collectives come only from the worker's iterations and forced snapshots, so the ranks stay in step).
    ropt.pause_after_iteration = [&group, &stop_asked] { return group.comm()->all_max(stop_asked().empty() ? 0 : 1) > 0; };
  }
  group.enter_collectives();
  ks::Runner runner(registry.create(preset.method), restart.setup, ctx, ropt);
  runner.wait_settled(std::chrono::hours(24));
  if (const ks::RunStatus set_up = runner.status(); set_up.state == ks::RunState::Failed) {
    const ks::Error e(set_up.error_kind, set_up.error);
    if (many) group.fail(e.exit_code(), std::string("error: ") + e.what());  // ends every rank
    throw e;
  }
  for (const auto& [key, value] : restart.live_changes) {
    const ks::SetResult r = runner.set(key, value);
    if (r.status == ks::SetResult::Status::Refused) throw ks::bad_input("--restart " + o.restart, r.message);
    if (!o.quiet)
      std::fprintf(stderr, "restart: %s = %s from the preset (the checkpoint had %s)\n", key.c_str(), ks::to_string(value).c_str(),
                   ks::to_string(restart.setup.value(key)).c_str());
  }
  if (series) {  // the time series starts with the state the run starts from
    if (const auto first = runner.file_snapshot()) write_fields(*first, ctx);
  }
  const long long start_iteration = runner.progress().iteration;
  if (o.steps) runner.step(*o.steps);
  else runner.start();

  ks::cli::ProgressPrinter printer(o.quiet || !group.reports());
  std::string stop_reason = o.steps ? "--steps" : "end condition";
  while (!runner.wait_settled(std::chrono::milliseconds(200))) {
    const ks::RunStatus now = runner.status();
    printer.update(now.progress, now.work_per_second);
    if (many) continue;  // pause_after_iteration stops the ranks together
    if (std::string why = stop_asked(); !why.empty()) {
      stop_reason = std::move(why);
      runner.pause();
      runner.wait_settled(std::chrono::hours(24));
      break;
    }
  }
  const ks::RunStatus settled = runner.status();
  if (many && settled.state == ks::RunState::Failed)  // the other ranks may wait in a collective
    group.fail(static_cast<int>(ks::ErrorKind::RunFailed), "the run failed: " + settled.error);
  if (many && settled.state == ks::RunState::Paused && (!o.steps || settled.progress.iteration - start_iteration < *o.steps)) {
    const std::string why = stop_asked();
    stop_reason = why.empty() ? "stopped with another rank (a signal or --max-seconds there)" : why;
  }
  if (!o.checkpoint.empty()) runner.checkpoint(o.checkpoint);
  runner.stop();
  const ks::RunStatus end = runner.status();
  const ks::CheckpointOutcome& saved = end.last_checkpoint;
  const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  for (const auto& m : runner.take_messages())
    if (!o.quiet && group.reports()) std::fprintf(stderr, "%s\n", m.c_str());

  const ks::RunState state = end.state;
  const bool failed = state == ks::RunState::Failed;
  const auto snap = runner.file_snapshot();  // files: a stretched grid at its own cells (.vtr)
  const ks::Progress p = snap ? snap->progress : end.progress;
  if (failed) stop_reason = end.error;
  else if (state == ks::RunState::Finished) stop_reason = ks::finished_reason(p);
  char line[256];
  std::snprintf(line, sizeof line, "%s after %lld iterations (t = %.4g %s) in %.2f s: %s", ks::to_string(state).c_str(),
                static_cast<long long>(p.iteration - start_iteration), p.sim_time, p.time_unit.c_str(), wall, stop_reason.c_str());
  printer.finish(line);

  // Fields that cannot be written (a full disk) do not cost the summary, which says why (it is small,
  // and the fields' temporaries are gone by then).
  std::vector<std::string> field_files;
  std::string fields_error;
  try {
    if (snap) field_files = write_fields(*snap, ctx);
  } catch (const ks::Error& e) {
    if (many) throw;  // the ranks agree on a failed piece inside write_field_pieces; nothing to add here
    fields_error = e.what();
    stop_reason += "; the fields were not written: " + fields_error;
  }
  if (series) {
    const std::vector<std::string> pvd = series->collections();
    field_files.insert(field_files.begin(), pvd.begin(), pvd.end());
  }
  if (!o.out_dir.empty() && snap && group.reports()) {
    ks::RunRecord rec{&preset,
                      runner.params(),
                      ctx,
                      ks::to_string(state),
                      stop_reason,
                      wall,
                      end.memory_estimate,
                      info.decomposition,
                      end.iteration_seconds,
                      end.iteration_traffic};
    const nlohmann::json summary = ks::write_outputs(o.out_dir, *snap, rec, field_files, "--out");
    if (!o.quiet) std::fprintf(stderr, "outputs written to %s (summary.json, the fields and one file per series)\n", o.out_dir.c_str());
    if (const auto earlier = summary.find("files_of_an_earlier_run"); earlier != summary.end())
      std::fprintf(stderr,
                   "kinetic-run: note: %s also holds %zu files of an earlier run that this run did not write (summary.json lists them "
                   "under files_of_an_earlier_run), e.g. %s\n",
                   o.out_dir.c_str(), earlier->size(), ks::printable(earlier->front().get<std::string>()).c_str());
  }
  if (failed) {
    std::fprintf(stderr, "kinetic-run: the run failed: %s\n", end.error.c_str());
    return static_cast<int>(ks::ErrorKind::RunFailed);
  }
  if (!fields_error.empty()) {
    std::fprintf(stderr, "kinetic-run: error: the fields were not written: %s\n", fields_error.c_str());
    return static_cast<int>(ks::ErrorKind::RunFailed);
  }
  // A checkpoint that was asked for and not written is an error, also with --quiet.
  if (!saved.error.empty()) {
    std::fprintf(stderr, "kinetic-run: error: checkpoint %s %s\n", saved.path.c_str(), saved.error.c_str());
    return static_cast<int>(saved.kind);
  }
  if (g_stop_signal) return 128 + g_stop_signal;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef KS_WITH_VTK_IO
  ks::vtk_io::install();  // input files VTK reads (.vtr, .vtu, every .vti) beside the engine's readers
#endif
  std::unique_ptr<ks::cli::RankGroup> group;
  try {
    group = std::make_unique<ks::cli::RankGroup>(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kinetic-run: MPI could not start: %s\n", e.what());
    return static_cast<int>(ks::ErrorKind::RunFailed);
  }
  try {
    return run(ks::cli::parse_options(argc, argv), *group);
  } catch (const ks::Error& e) {
    return group->fail(e.exit_code(), std::string("error: ") + e.what());
  } catch (const std::exception& e) {
    return group->fail(static_cast<int>(ks::ErrorKind::RunFailed), std::string("unexpected error: ") + e.what());
  }
}
