#include "checkpoint.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <string_view>
#include <utility>

#include "core/communicator.hpp"
#include "core/errors.hpp"
#include "core/memory.hpp"
#include "core/rank_agreement.hpp"
#include "input_file.hpp"
#include "json_text.hpp"
#include "output_file.hpp"

namespace ks {

namespace {

constexpr char kMagic[8] = {'K', 'S', 'C', 'H', 'K', 'P', 'T', '1'};

// FNV-1a, 64 bit: detects a flipped or edited byte of the state (not a security measure).
std::string fnv1a64(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

// A checkpoint is read whole into memory: it may not exceed what the machine can hold.
std::uint64_t checkpoint_limit() {
  const std::uint64_t free = available_host_memory();
  return free > 0 ? free : std::uint64_t(1) << 40;
}

struct RawCheckpoint {
  nlohmann::json header;
  std::string state;
};

RawCheckpoint read_raw(const std::string& path, bool with_state) {
  InputFile in(path, "checkpoint", checkpoint_limit());
  const std::string magic = in.read(sizeof kMagic);
  if (magic.size() != sizeof kMagic || std::memcmp(magic.data(), kMagic, sizeof kMagic) != 0)
    throw bad_input(path, "not a Kinetic Studio checkpoint (bad magic bytes)", "a file written by --checkpoint");
  const std::string len_bytes = in.read(sizeof(std::uint64_t));
  std::uint64_t header_len = 0;
  if (len_bytes.size() == sizeof header_len) std::memcpy(&header_len, len_bytes.data(), sizeof header_len);
  if (len_bytes.size() != sizeof header_len || header_len > kMaxCheckpointHeaderBytes || header_len > in.size() - in.offset())
    throw bad_input(path, "the checkpoint header is truncated or corrupt (length " + std::to_string(header_len) + ")");
  RawCheckpoint raw;
  raw.header = parse_json_text(in.read(header_len), path + " (header)");
  // A header that parses but has the wrong shape is bad input too, not a JSON type_error.
  const nlohmann::json& h = raw.header;
  if (!h.is_object()) throw bad_input(path, "the checkpoint header is not a JSON object");
  const nlohmann::json version = h.value("format_version", nlohmann::json(-1));
  if (!version.is_number_integer() || version != kCheckpointFormatVersion)
    throw bad_input(path,
                    "checkpoint format version " + brief(version) + " is not supported (written by another version of Kinetic Studio)",
                    "version " + std::to_string(kCheckpointFormatVersion));
  for (const char* key : {"method", "params", "iteration", "backend", "state_bytes", "state_fnv1a64", "preset"})
    if (!h.contains(key)) throw bad_input(path, std::string("the checkpoint header lacks '") + key + "'");
  // Written by one process before the ranks were recorded: rank 0 of 1.
  if (!h.contains("ranks") && !h.contains("rank")) {
    raw.header["ranks"] = 1;
    raw.header["rank"] = 0;
  }
  const nlohmann::json ranks = h.value("ranks", nlohmann::json()), rank = h.value("rank", nlohmann::json());
  if (!ranks.is_number_integer() || !rank.is_number_integer() || ranks.get<std::int64_t>() < 1 || rank.get<std::int64_t>() < 0 ||
      rank.get<std::int64_t>() >= ranks.get<std::int64_t>())
    throw bad_input(path, "the checkpoint header's ranks " + brief(ranks) + " and rank " + brief(rank) + " are corrupt",
                    "0 <= rank < ranks");
  if (!h["method"].is_string() || !h["params"].is_object() || !h["iteration"].is_number_integer() ||
      h["iteration"].get<std::int64_t>() < 0 || !h["backend"].is_string() || !h["state_bytes"].is_number_unsigned() ||
      !h["state_fnv1a64"].is_string() || !(h["preset"].is_null() || h["preset"].is_object()))
    throw bad_input(path, "the checkpoint header is corrupt (a value has the wrong type or sign)");
  if (!with_state) return raw;
  // Never allocate more than the file holds: a corrupt size is a truncated file, not bad_alloc.
  const auto bytes = h["state_bytes"].get<std::uint64_t>();
  const std::uint64_t present = in.size() - in.offset();
  if (bytes != present)
    throw bad_input(path, "the checkpoint state has " + std::to_string(present) + " bytes, its header says " + std::to_string(bytes) +
                              " (truncated or appended to)");
  raw.state = in.read(bytes);
  if (raw.state.size() != bytes) throw bad_input(path, "the checkpoint shrank while it was read");
  if (fnv1a64(raw.state) != h["state_fnv1a64"].get<std::string>())
    throw bad_input(path, "the checkpoint state does not match its checksum (the file is corrupt or was edited)",
                    "a checkpoint as written by --checkpoint");
  return raw;
}

// Whether every field of `snap` is finite; else names the first field that is not.
std::string non_finite_field(const Snapshot& snap) {
  for (const auto& f : snap.fields) {
    if (!std::all_of(f.values.begin(), f.values.end(), [](double v) { return std::isfinite(v); })) return f.desc.name;
    for (const auto& p : f.positions)
      if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) return f.desc.name + " (positions)";
  }
  return {};
}

}  // namespace

std::string checkpoint_part(const std::string& path, int rank, int ranks) {
  return ranks == 1 || rank == 0 ? path : path + ".rank" + std::to_string(rank);
}

std::string checkpoint_manifest(const std::string& path) { return path + ".manifest"; }

namespace {

// This rank's part: the state, its header with the set's id.
void write_part(const Method& method, const ExecutionContext& ctx, const std::string& path, const nlohmann::json& preset,
                std::int64_t set_id) {
  const Progress p = method.progress();
  const std::string bad = non_finite_field(method.snapshot());
  if (!bad.empty() || !std::isfinite(p.sim_time) || !std::isfinite(p.residual))
    throw run_failed("checkpoint " + path + " not written: the state holds NaN or Inf (" +
                     (bad.empty() ? std::string("time or residual") : "field '" + bad + "'") + ") at iteration " +
                     std::to_string(p.iteration) + "; the previous checkpoint is kept");
  std::ostringstream state(std::ios::binary);
  method.save_state(state);
  const std::string_view bytes = state.view();  // no copy of a state that may be gigabytes
  nlohmann::json header = {{"format_version", kCheckpointFormatVersion},
                           {"method", method.info().id},
                           {"params", method.params().to_json()},
                           {"iteration", p.iteration},
                           {"backend", to_string(ctx.backend)},
                           {"preset", preset},
                           {"ranks", ranks_of(ctx).size()},
                           {"rank", ranks_of(ctx).rank()},
                           {"state_bytes", bytes.size()},
                           {"state_fnv1a64", fnv1a64(bytes)}};
  if (set_id) header["set_id"] = set_id;
  const std::string text = header.dump();
  const std::uint64_t len = text.size();
  // The state is written from the stream's buffer: a second copy of it would double the host memory
  // a checkpoint needs (the lattice methods' estimates count the state and its stream, not a third).
  write_file_atomically(
      checkpoint_part(path, ranks_of(ctx).rank(), ranks_of(ctx).size()),
      {std::string_view(kMagic, sizeof kMagic), std::string_view(reinterpret_cast<const char*>(&len), sizeof len), text, bytes},
      "checkpoint");
}

// An id the ranks agree on for one checkpoint's parts: the largest of their random draws.
std::int64_t agreed_set_id(const Communicator& comm) {
  std::random_device device;
  const std::uint64_t draw =
      (std::uint64_t(device()) << 32 ^ device() ^ std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count())) >> 2;
  return comm.all_max(std::int64_t(draw) + 1);
}

}  // namespace

void save_checkpoint(const Method& method, const ExecutionContext& ctx, const std::string& path, const nlohmann::json& preset) {
  const Communicator& comm = ranks_of(ctx);
  if (comm.size() == 1) return write_part(method, ctx, path, preset, 0);
  // Under MPI a checkpoint is a set: every rank's part carries the set's id, and rank 0 writes the
  // manifest naming the id and the iteration only once every part is written. A job killed while
  // writing leaves parts of two sets, which the old manifest tells apart (load_checkpoint).
  const std::int64_t set_id = agreed_set_id(comm);
  on_every_rank(
      comm, [&] { write_part(method, ctx, path, preset, set_id); },
      "checkpoint " + path +
          ": another rank could not write its part, so the set there is mixed and a restart from it is refused; the "
          "manifest still names the set before");
  if (comm.rank() == 0)
    write_file_atomically(checkpoint_manifest(path),
                          nlohmann::json{{"format_version", kCheckpointFormatVersion},
                                         {"method", method.info().id},
                                         {"iteration", method.progress().iteration},
                                         {"ranks", comm.size()},
                                         {"set_id", set_id}}
                                  .dump(1) +
                              "\n",
                          "checkpoint manifest");
}

CheckpointHeader read_checkpoint_header(const std::string& path) {
  const RawCheckpoint raw = read_raw(path, false);
  CheckpointHeader h;
  h.method = raw.header["method"].get<std::string>();
  h.params = raw.header["params"];
  h.iteration = raw.header["iteration"].get<std::int64_t>();
  h.backend = raw.header["backend"].get<std::string>();
  h.preset = raw.header["preset"];
  h.ranks = raw.header["ranks"].get<int>();
  return h;
}

namespace {

// This rank's part, checked against the rank and, for a set of several, against the manifest: the
// same set's id and iteration in every part.
RawCheckpoint read_part(const std::string& path, int rank, int ranks) {
  const std::string part = checkpoint_part(path, rank, ranks);
  RawCheckpoint raw = read_raw(part, true);
  if (raw.header["ranks"] != ranks || raw.header["rank"] != rank)
    throw bad_input(part,
                    "the checkpoint part is rank " + brief(raw.header["rank"]) + " of " + brief(raw.header["ranks"]) + ", this is rank " +
                        std::to_string(rank) + " of " + std::to_string(ranks),
                    "a restart on as many ranks as wrote the checkpoint (mpirun -np " + brief(raw.header["ranks"]) + ")");
  if (ranks == 1) return raw;
  const std::string manifest_path = checkpoint_manifest(path);
  const nlohmann::json manifest = parse_json_text(read_input_file(manifest_path, "checkpoint manifest", 1 << 20), manifest_path);
  const nlohmann::json set = manifest.is_object() ? manifest.value("set_id", nlohmann::json()) : nlohmann::json();
  const nlohmann::json iteration = manifest.is_object() ? manifest.value("iteration", nlohmann::json()) : nlohmann::json();
  if (!set.is_number_integer() || !iteration.is_number_integer())
    throw bad_input(manifest_path, "the manifest has no set_id and iteration",
                    "the manifest kinetic-run writes beside a checkpoint of several ranks");
  if (raw.header.value("set_id", nlohmann::json()) != set || raw.header["iteration"] != iteration)
    throw bad_input(part,
                    "the part is of iteration " + brief(raw.header["iteration"]) + " (set " +
                        brief(raw.header.value("set_id", nlohmann::json())) + "), the manifest's set is of iteration " + brief(iteration) +
                        " (set " + brief(set) + "): the job stopped while it wrote a checkpoint, and the parts belong to different states",
                    "the parts of one checkpoint set (an earlier checkpoint, or a run from the start)");
  return raw;
}

}  // namespace

void load_checkpoint(Method& method, const ExecutionContext& ctx, const std::string& path) {
  const Communicator& comm = ranks_of(ctx);
  const int rank = comm.rank(), ranks = comm.size();
  const std::string part = checkpoint_part(path, rank, ranks);
  // Every rank checks its part; all refuse if one does (none may wait for the others in a collective).
  RawCheckpoint raw;
  on_every_rank(
      comm, [&] { raw = read_part(path, rank, ranks); }, path + ": another rank's checkpoint part was refused (its message names it)");
  const std::string id = raw.header["method"].get<std::string>();
  if (id != method.info().id)
    throw bad_input(part, "the checkpoint is of method '" + id + "', not '" + method.info().id + "'",
                    "a checkpoint written by '" + method.info().id + "'");
  std::istringstream in(std::move(raw.state), std::ios::binary);  // the stream takes the bytes: no second copy
  try {
    method.load_state(in);
  } catch (const Error& e) {
    throw Error(e.kind(), part + ": " + e.what());
  }
}

RestartPlan plan_restart(const CheckpointHeader& h, const std::string& path, const std::string& method, const std::string& case_name,
                         const ParamSet& params) {
  if (h.method != method)
    throw bad_input(path, "the checkpoint is of method '" + h.method + "' but the preset runs '" + method + "'",
                    "a checkpoint of '" + method + "'");
  std::vector<std::string> differences;
  const std::string ckpt_case = h.preset.is_object() ? h.preset.value("case", std::string()) : std::string();
  if (ckpt_case != case_name) differences.push_back("case '" + ckpt_case + "' (preset: '" + case_name + "')");
  RestartPlan plan{params, {}};
  plan.setup.apply_json(h.params, path + ":/params");
  for (const auto& spec : params.specs()) {
    const ParamValue& want = params.value(spec.key);
    const ParamValue& had = plan.setup.value(spec.key);
    if (want == had) continue;
    if (spec.live) plan.live_changes.emplace_back(spec.key, want);
    else differences.push_back(spec.key + " = " + to_string(had) + " (preset: " + to_string(want) + ")");
  }
  if (!differences.empty()) {
    std::string list;
    for (const auto& d : differences) list += (list.empty() ? "" : "; ") + d;
    throw bad_input(path, "the checkpoint was written with another set-up: " + list,
                    "a checkpoint of the same case and the same values of the parameters that need a re-setup "
                    "(live parameters may differ: the preset's values apply after the restart)");
  }
  return plan;
}

}  // namespace ks
