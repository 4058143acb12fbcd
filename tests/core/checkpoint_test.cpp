// Checkpoints with the real aerosol.coagulation method on the CPU: a restart is
// bit-identical to an uninterrupted run; wrong, edited, truncated and foreign
// files are refused as bad input with a message that says why.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/backend.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "expect_error.hpp"
#include "io/checkpoint.hpp"
#include "io/output_file.hpp"
#include "methods/coagulation/coag_method.hpp"

namespace fs = std::filesystem;

namespace {

// A method that is not aerosol.coagulation; only its id matters here.
class OtherMethod final : public ks::Method {
 public:
  OtherMethod() {
    info_.id = "test.other";
    info_.title = "Another method";
  }
  const ks::MethodInfo& info() const override { return info_; }
  ks::MemoryEstimate estimate_memory(const ks::ParamSet&, const ks::ExecutionContext&) const override {
    return {sizeof(std::int64_t), 0, "one counter"};
  }
  void setup(const ks::ParamSet& params, const ks::ExecutionContext&) override { params_ = params; }
  void advance() override { ++iter_; }
  bool finished() const override { return false; }
  void set_live(const std::string& key, const ks::ParamValue&) override { throw ks::bad_input(key, "not live"); }
  ks::Progress progress() const override {
    ks::Progress p;
    p.iteration = iter_;
    return p;
  }
  ks::Snapshot snapshot() const override { return {}; }
  const ks::ParamSet& params() const override { return params_; }
  void save_state(std::ostream& out) const override { out.write(reinterpret_cast<const char*>(&iter_), sizeof iter_); }
  void load_state(std::istream& in) override {
    loaded_ = true;
    in.read(reinterpret_cast<char*>(&iter_), sizeof iter_);
  }
  bool loaded_ = false;

 private:
  ks::MethodInfo info_;
  ks::ParamSet params_;
  std::int64_t iter_ = 0;
};

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The checkpoint layout: 8 magic bytes, u64 header length, JSON header, state.
struct Parts {
  std::string magic;
  nlohmann::json header;
  std::string state;
};

Parts split(const std::string& bytes) {
  Parts p;
  p.magic = bytes.substr(0, 8);
  std::uint64_t len = 0;
  std::memcpy(&len, bytes.data() + 8, sizeof len);
  p.header = nlohmann::json::parse(bytes.substr(16, len));
  p.state = bytes.substr(16 + len);
  return p;
}

std::string join(const Parts& p, const std::string& header_text) {
  const std::uint64_t len = header_text.size();
  std::string out = p.magic;
  out.append(reinterpret_cast<const char*>(&len), sizeof len);
  out += header_text;
  out += p.state;
  return out;
}

std::string state_bytes(const ks::Method& m) {
  std::ostringstream out(std::ios::binary);
  m.save_state(out);
  return out.str();
}

void expect_same_snapshot(const ks::Snapshot& a, const ks::Snapshot& b) {
  EXPECT_EQ(a.progress.iteration, b.progress.iteration);
  EXPECT_EQ(a.progress.sim_time, b.progress.sim_time);
  EXPECT_EQ(a.progress.residual, b.progress.residual);
  EXPECT_EQ(a.progress.work_done, b.progress.work_done);
  ASSERT_EQ(a.series.size(), b.series.size());
  for (std::size_t i = 0; i < a.series.size(); ++i) {
    SCOPED_TRACE(a.series[i].name);
    EXPECT_EQ(a.series[i].name, b.series[i].name);
    EXPECT_EQ(a.series[i].x, b.series[i].x);
    EXPECT_EQ(a.series[i].y, b.series[i].y);
    EXPECT_EQ(a.series[i].y_err, b.series[i].y_err);
  }
  ASSERT_EQ(a.fields.size(), b.fields.size());
  for (std::size_t i = 0; i < a.fields.size(); ++i) {
    SCOPED_TRACE(a.fields[i].desc.name);
    EXPECT_EQ(a.fields[i].values, b.fields[i].values);
    EXPECT_EQ(a.fields[i].positions, b.fields[i].positions);
  }
  EXPECT_EQ(a.diagnostics, b.diagnostics);
}

ks::ParamSet small_params() {
  ks::ParamSet p(ks::builtin_registry().info("aerosol.coagulation").params);
  p.apply_json({{"n_s", 200}, {"n_runs", 3}, {"t_end", 10.0}}, "test");
  return p;
}

class CoagulationCheckpoint : public ::testing::Test {
 protected:
  // Setting the method up is the slow part (the sectional reference solution): the checkpoint
  // after 4 iterations is written once for the suite, and each test works on a copy.
  static void SetUpTestSuite() {
    suite_dir_ = fs::path(::testing::TempDir()) / ("ks_checkpoint_test_suite_" + std::to_string(::getpid()));
    fs::create_directories(suite_dir_);
    const ks::ExecutionContext ctx = ks::resolve_backend(ks::BackendRequest::Cpu);
    auto m = ks::builtin_registry().create("aerosol.coagulation");
    m->setup(small_params(), ctx);
    advance(*m, 4);
    four_ = (suite_dir_ / "four.ckpt").string();
    ks::save_checkpoint(*m, ctx, four_);
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(suite_dir_, ec);
  }
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("ks_checkpoint_test_" + std::to_string(::getpid()) + "_" +
                                             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
    ctx_ = ks::resolve_backend(ks::BackendRequest::Cpu);
    params_ = small_params();
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::unique_ptr<ks::Method> make(const ks::ParamSet& params) const {
    auto m = ks::builtin_registry().create("aerosol.coagulation");
    m->setup(params, ctx_);
    return m;
  }
  static void advance(ks::Method& m, int n) {
    for (int i = 0; i < n; ++i) m.advance();
  }
  // A copy of the suite's checkpoint after 4 iterations of small_params().
  std::string write_checkpoint(const std::string& name) const {
    const std::string path = (dir_ / name).string();
    fs::copy_file(four_, path, fs::copy_options::overwrite_existing);
    return path;
  }
  // Loads `path` into `into` (by default a coagulation method that is not set up: every refusal
  // tested with it happens before the state is read); expects BadInput and returns the message.
  std::string load_error(const std::string& path, ks::Method* into = nullptr) const {
    std::unique_ptr<ks::Method> fresh;
    if (!into) {
      fresh = ks::builtin_registry().create("aerosol.coagulation");
      into = fresh.get();
    }
    SCOPED_TRACE("the checkpoint " + path);
    return ks::test_support::error_message([&] { ks::load_checkpoint(*into, {}, path); });
  }

  static inline fs::path suite_dir_;
  static inline std::string four_;
  fs::path dir_;
  ks::ExecutionContext ctx_;
  ks::ParamSet params_;
};

#define EXPECT_MESSAGE_HAS(msg, part) EXPECT_NE((msg).find(part), std::string::npos) << "message: " << (msg)

}  // namespace

TEST_F(CoagulationCheckpoint, RestartAfterFourIterationsIsBitIdenticalToEightStraight) {
  ASSERT_EQ(ctx_.backend, ks::BackendKind::Cpu);
  auto straight = make(params_);
  advance(*straight, 8);
  ASSERT_FALSE(straight->finished()) << "t_end = 10 should need more than 8 outputs";

  const std::string path = (dir_ / "four.ckpt").string();
  {
    auto first = make(params_);
    advance(*first, 4);
    ks::save_checkpoint(*first, ctx_, path);
  }
  const ks::CheckpointHeader h = ks::read_checkpoint_header(path);
  EXPECT_EQ(h.method, "aerosol.coagulation");
  EXPECT_EQ(h.iteration, 4);
  EXPECT_EQ(h.backend, "cpu");
  EXPECT_EQ(h.params, params_.to_json());
  EXPECT_FALSE(fs::exists(path + ".partial"));

  ks::ParamSet restored_params(ks::builtin_registry().info(h.method).params);
  restored_params.apply_json(h.params, path);
  auto restarted = make(restored_params);
  ks::load_checkpoint(*restarted, {}, path);
  EXPECT_EQ(restarted->progress().iteration, 4);
  advance(*restarted, 4);

  // The whole state, byte for byte, and the ensemble arrays value for value.
  EXPECT_TRUE(state_bytes(*restarted) == state_bytes(*straight)) << "save_state differs after the restart";
  const auto& a = dynamic_cast<const ks::coag::CoagulationMethod&>(*straight).ensemble();
  const auto& b = dynamic_cast<const ks::coag::CoagulationMethod&>(*restarted).ensemble();
  EXPECT_EQ(a.n_runs, 3);
  EXPECT_EQ(a.v.size(), 600u);
  EXPECT_EQ(a.v, b.v);
  EXPECT_EQ(a.w, b.w);
  EXPECT_EQ(a.C, b.C);
  EXPECT_EQ(a.t, b.t);
  EXPECT_EQ(a.events, b.events);
  expect_same_snapshot(straight->snapshot(), restarted->snapshot());
}

TEST_F(CoagulationCheckpoint, StraightRunsWithTheSameSeedAreIdenticalAndOtherSeedsDiffer) {
  // The premise of the restart test: the comparison is only meaningful if runs are deterministic
  // and the state actually depends on the random stream.
  auto a = make(params_);
  auto b = make(params_);
  advance(*a, 5);
  advance(*b, 5);
  EXPECT_TRUE(state_bytes(*a) == state_bytes(*b));
  ks::ParamSet other = params_;
  other.set("seed", std::int64_t{2});
  auto c = make(other);
  advance(*c, 5);
  EXPECT_NE(dynamic_cast<const ks::coag::CoagulationMethod&>(*a).ensemble().v,
            dynamic_cast<const ks::coag::CoagulationMethod&>(*c).ensemble().v);
}

TEST_F(CoagulationCheckpoint, CheckpointOfAnotherMethodIsRefused) {
  const std::string path = write_checkpoint("coag.ckpt");
  OtherMethod other;
  other.setup(ks::ParamSet{}, ctx_);
  const std::string msg = load_error(path, &other);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "of method 'aerosol.coagulation', not 'test.other'");
  EXPECT_FALSE(other.loaded_) << "the state was handed to the wrong method";
}

TEST_F(CoagulationCheckpoint, CheckpointOfAnotherMethodIsRefusedByTheCoagulationMethod) {
  OtherMethod other;
  other.setup(ks::ParamSet{}, ctx_);
  other.advance();
  const std::string path = (dir_ / "other.ckpt").string();
  ks::save_checkpoint(other, ctx_, path);
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, "of method 'test.other', not 'aerosol.coagulation'");
}

TEST_F(CoagulationCheckpoint, ChangedFormatVersionIsRefusedWithTheSupportedVersion) {
  const std::string path = write_checkpoint("v2.ckpt");
  Parts p = split(read_bytes(path));
  ASSERT_EQ(p.magic, "KSCHKPT1");
  ASSERT_EQ(p.header["format_version"], ks::kCheckpointFormatVersion);
  p.header["format_version"] = ks::kCheckpointFormatVersion + 1;
  write_bytes(path, join(p, p.header.dump()));
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "format version " + std::to_string(ks::kCheckpointFormatVersion + 1) + " is not supported");
  EXPECT_MESSAGE_HAS(msg, "allowed: version " + std::to_string(ks::kCheckpointFormatVersion));
  EXPECT_THROW(ks::read_checkpoint_header(path), ks::Error);
}

TEST_F(CoagulationCheckpoint, UnchangedRewriteOfTheHeaderStillLoads) {
  // Guards the two tests around it: rewriting the header by itself breaks nothing.
  const std::string path = write_checkpoint("same.ckpt");
  const Parts p = split(read_bytes(path));
  write_bytes(path, join(p, p.header.dump()));
  auto m = make(params_);
  EXPECT_NO_THROW(ks::load_checkpoint(*m, {}, path));
  EXPECT_EQ(m->progress().iteration, 4);
}

TEST_F(CoagulationCheckpoint, HeaderWithWrongTypesIsRefusedAsBadInput) {
  const std::string path = write_checkpoint("types.ckpt");
  const Parts p = split(read_bytes(path));
  for (const char* key : {"format_version", "method", "iteration", "state_bytes"}) {
    SCOPED_TRACE(key);
    nlohmann::json h = p.header;
    h[key] = nlohmann::json::array({1});
    write_bytes(path, join(p, h.dump()));
    const std::string msg = load_error(path);
    EXPECT_MESSAGE_HAS(msg, path);
  }
  write_bytes(path, join(p, "[1, 2, 3]"));
  EXPECT_MESSAGE_HAS(load_error(path), path);
}

TEST_F(CoagulationCheckpoint, HugeStateSizeInTheHeaderIsRefusedAsTruncated) {
  const std::string path = write_checkpoint("huge.ckpt");
  const Parts p = split(read_bytes(path));
  nlohmann::json h = p.header;
  h["state_bytes"] = std::uint64_t(1) << 62;
  write_bytes(path, join(p, h.dump()));
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "truncated");
}

TEST_F(CoagulationCheckpoint, TruncatedStateIsRefused) {
  const std::string path = write_checkpoint("cut.ckpt");
  const std::string bytes = read_bytes(path);
  ASSERT_GT(bytes.size(), 100u);
  write_bytes(path, bytes.substr(0, bytes.size() - 37));
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "truncated");
}

TEST_F(CoagulationCheckpoint, TruncatedHeaderIsRefused) {
  const std::string path = write_checkpoint("cuthead.ckpt");
  const std::string bytes = read_bytes(path);
  write_bytes(path, bytes.substr(0, 30));
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "truncated");
  write_bytes(path, bytes.substr(0, 12));  // inside the length field
  EXPECT_MESSAGE_HAS(load_error(path), "truncated");
}

TEST_F(CoagulationCheckpoint, FileThatIsNotACheckpointIsRefused) {
  const std::string path = (dir_ / "preset.json").string();
  write_bytes(path, R"({ "method": "aerosol.coagulation", "title": "not a checkpoint" })");
  const std::string msg = load_error(path);
  EXPECT_MESSAGE_HAS(msg, path);
  EXPECT_MESSAGE_HAS(msg, "not a Kinetic Studio checkpoint");
  EXPECT_THROW(ks::read_checkpoint_header(path), ks::Error);

  const std::string empty = (dir_ / "empty.ckpt").string();
  write_bytes(empty, "");
  EXPECT_MESSAGE_HAS(load_error(empty), "not a Kinetic Studio checkpoint");

  const std::string missing = (dir_ / "missing.ckpt").string();
  EXPECT_MESSAGE_HAS(load_error(missing), "cannot open");
}

TEST_F(CoagulationCheckpoint, StateForOtherParametersIsRefused) {
  const std::string path = write_checkpoint("n_s.ckpt");
  ks::ParamSet other = params_;
  other.set("n_s", std::int64_t{100});
  auto m = make(other);
  const std::string msg = load_error(path, m.get());
  EXPECT_MESSAGE_HAS(msg, "does not match its parameters");
}

TEST_F(CoagulationCheckpoint, AChangedStateByteIsRefusedByTheChecksum) {
  const std::string path = write_checkpoint("flip.ckpt");
  std::string bytes = read_bytes(path);
  bytes[bytes.size() - 100] ^= 0x01;  // one bit of a particle's data
  write_bytes(path, bytes);
  auto m = make(params_);
  const std::string msg = load_error(path, m.get());
  EXPECT_MESSAGE_HAS(msg, "checksum");
  EXPECT_EQ(m->progress().iteration, 0) << "a refused state leaves the method as it was";
}

TEST_F(CoagulationCheckpoint, RestartOfAnotherSetUpNamesEveryDifferenceAndLiveChangesAreKept) {
  const ks::CheckpointHeader h = ks::read_checkpoint_header(four_);
  ks::ParamSet same = params_;
  const ks::RestartPlan plan = ks::plan_restart(h, four_, "aerosol.coagulation", "", same);
  EXPECT_TRUE(plan.live_changes.empty());
  EXPECT_EQ(plan.setup.to_json(), params_.to_json());

  ks::ParamSet later = params_;  // t_end is live: it applies after the state is loaded
  later.set("t_end", 20.0);
  const ks::RestartPlan live = ks::plan_restart(h, four_, "aerosol.coagulation", "", later);
  ASSERT_EQ(live.live_changes.size(), 1u);
  EXPECT_EQ(live.live_changes[0].first, "t_end");
  EXPECT_EQ(live.setup.get_real("t_end"), 10.0) << "set up as the checkpoint was written";

  ks::ParamSet other = params_;
  other.set("n_s", std::int64_t{100});
  other.set("d0", 5.0);
  const std::string msg = ks::test_support::error_message([&] { ks::plan_restart(h, four_, "aerosol.coagulation", "", other); });
  EXPECT_MESSAGE_HAS(msg, "n_s = 200 (preset: 100)");
  EXPECT_MESSAGE_HAS(msg, "d0 = 3 (preset: 5)");
  const std::string cased =
      ks::test_support::error_message([&] { ks::plan_restart(h, four_, "aerosol.coagulation", "Table 1, Figs. 4-5", same); });
  EXPECT_MESSAGE_HAS(cased, "case '' (preset: 'Table 1, Figs. 4-5')");
  EXPECT_MESSAGE_HAS(ks::test_support::error_message([&] { ks::plan_restart(h, four_, "kinetic.bgk", "", same); }),
                     "of method 'aerosol.coagulation' but the preset runs 'kinetic.bgk'");
}

TEST_F(CoagulationCheckpoint, APlantedSymlinkOrDeviceAtTheCheckpointPathIsNeverWrittenThrough) {
  const std::string target = (dir_ / "precious.txt").string(), link = (dir_ / "link.ckpt").string();
  write_bytes(target, "keep me");
  fs::create_symlink(target, link);
  auto m = make(params_);
  const std::string msg = ks::test_support::error_message([&] { ks::save_checkpoint(*m, ctx_, link); });
  EXPECT_MESSAGE_HAS(msg, "symbolic link");
  EXPECT_EQ(read_bytes(target), "keep me");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_MESSAGE_HAS(ks::test_support::error_message([&] { ks::save_checkpoint(*m, ctx_, "/dev/null"); }), "device");
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << "a temporary was left: " << entry.path();
}

TEST_F(CoagulationCheckpoint, AFifoOrADeviceGivenAsCheckpointIsRefusedWithoutBlocking) {
  const std::string fifo = (dir_ / "pipe.ckpt").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  EXPECT_MESSAGE_HAS(load_error(fifo), "FIFO");
  EXPECT_MESSAGE_HAS(load_error("/dev/zero"), "character device");
  EXPECT_MESSAGE_HAS(load_error(dir_.string()), "directory");
}

// A checkpoint's state is written from where it lies, after the header, not copied into one string
// first: the parts land in order, a part may be empty, and a second write replaces the file whole.
TEST_F(CoagulationCheckpoint, AFileWrittenInPartsHoldsThemInOrderAndReplacesTheOldOneWhole) {
  const std::string path = (dir_ / "parts.bin").string();
  const std::string body(100000, 'x');
  ks::write_file_atomically(path, {"head|", "", std::string_view(body), "|tail"}, "test file");
  EXPECT_EQ(read_bytes(path), "head|" + body + "|tail");
  ks::write_file_atomically(path, {"short"}, "test file");
  EXPECT_EQ(read_bytes(path), "short");
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << "a temporary was left: " << entry.path();
}
