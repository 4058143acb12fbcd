#include "checkpoint.hpp"

#include <cstring>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace ks {

namespace {

constexpr char kMagic[8] = {'K', 'S', 'C', 'H', 'K', 'P', 'T', '1'};

struct RawCheckpoint {
  nlohmann::json header;
  std::string state;
};

RawCheckpoint read_raw(const std::string& path, bool with_state) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad_input(path, "cannot open the checkpoint", "a file written by --checkpoint");
  char magic[8] = {};
  in.read(magic, sizeof magic);
  if (!in || std::memcmp(magic, kMagic, sizeof magic) != 0)
    throw bad_input(path, "not a Kinetic Studio checkpoint (bad magic bytes)", "a file written by --checkpoint");
  std::uint64_t header_len = 0;
  in.read(reinterpret_cast<char*>(&header_len), sizeof header_len);
  if (!in || header_len > (1u << 26)) throw bad_input(path, "the checkpoint header is truncated or corrupt");
  std::string header_text(header_len, '\0');
  in.read(header_text.data(), static_cast<std::streamsize>(header_len));
  if (!in) throw bad_input(path, "the checkpoint is truncated inside its header");
  RawCheckpoint raw;
  try {
    raw.header = nlohmann::json::parse(header_text);
  } catch (const nlohmann::json::parse_error& e) {
    throw bad_input(path, std::string("the checkpoint header is not valid JSON: ") + e.what());
  }
  // A header that parses but has the wrong shape is bad input too, not a JSON type_error.
  if (!raw.header.is_object()) throw bad_input(path, "the checkpoint header is not a JSON object");
  const nlohmann::json version = raw.header.value("format_version", nlohmann::json(-1));
  if (!version.is_number_integer() || version != kCheckpointFormatVersion)
    throw bad_input(path, "checkpoint format version " + version.dump() + " is not supported",
                    "version " + std::to_string(kCheckpointFormatVersion));
  for (const char* key : {"method", "params", "iteration", "backend", "state_bytes"})
    if (!raw.header.contains(key)) throw bad_input(path, std::string("the checkpoint header lacks '") + key + "'");
  const nlohmann::json& h = raw.header;
  if (!h["method"].is_string() || !h["params"].is_object() || !h["iteration"].is_number_integer() ||
      !h["backend"].is_string() || !h["state_bytes"].is_number_unsigned())
    throw bad_input(path, "the checkpoint header is corrupt (a value has the wrong type)");
  if (!with_state) return raw;
  const auto bytes = raw.header["state_bytes"].get<std::uint64_t>();
  // Never allocate more than the file holds: a corrupt size is a truncated file, not bad_alloc.
  const std::streamoff here = in.tellg();
  in.seekg(0, std::ios::end);
  const std::streamoff end = in.tellg();
  in.seekg(here);
  if (here < 0 || end < here || bytes > static_cast<std::uint64_t>(end - here))
    throw bad_input(path, "the checkpoint is truncated: " + std::to_string(end - here) + " of " + std::to_string(bytes) +
                              " state bytes present");
  raw.state.resize(bytes);
  in.read(raw.state.data(), static_cast<std::streamsize>(bytes));
  if (static_cast<std::uint64_t>(in.gcount()) != bytes)
    throw bad_input(path, "the checkpoint is truncated: " + std::to_string(in.gcount()) + " of " + std::to_string(bytes) +
                              " state bytes present");
  return raw;
}

}  // namespace

void save_checkpoint(const Method& method, const ExecutionContext& ctx, const std::string& path) {
  std::ostringstream state(std::ios::binary);
  method.save_state(state);
  const std::string bytes = state.str();
  const nlohmann::json header = {{"format_version", kCheckpointFormatVersion},
                                 {"method", method.info().id},
                                 {"params", method.params().to_json()},
                                 {"iteration", method.progress().iteration},
                                 {"backend", to_string(ctx.backend)},
                                 {"state_bytes", bytes.size()}};
  const std::string text = header.dump();
  const std::uint64_t len = text.size();
  // Write to a temporary name, then rename: a crash never leaves a half-written checkpoint.
  const std::string tmp = path + ".partial";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw bad_input(path, "cannot write the checkpoint", "a writable path");
    out.write(kMagic, sizeof kMagic);
    out.write(reinterpret_cast<const char*>(&len), sizeof len);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) throw bad_input(path, "writing the checkpoint failed (disk full?)");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw bad_input(path, "cannot move the checkpoint into place");
}

CheckpointHeader read_checkpoint_header(const std::string& path) {
  const RawCheckpoint raw = read_raw(path, false);
  CheckpointHeader h;
  h.method = raw.header["method"].get<std::string>();
  h.params = raw.header["params"];
  h.iteration = raw.header["iteration"].get<std::int64_t>();
  h.backend = raw.header["backend"].get<std::string>();
  return h;
}

void load_checkpoint(Method& method, const std::string& path) {
  const RawCheckpoint raw = read_raw(path, true);
  const std::string id = raw.header["method"].get<std::string>();
  if (id != method.info().id)
    throw bad_input(path, "the checkpoint is of method '" + id + "', not '" + method.info().id + "'",
                    "a checkpoint written by '" + method.info().id + "'");
  std::istringstream in(raw.state, std::ios::binary);
  method.load_state(in);
}

}  // namespace ks
