// The fuzz corpus (tests/fuzz/cases.json): crafted presets, temperature files, checkpoints and
// command lines, each run through kinetic-run with a time limit. A case passes when the run ends
// in time with the expected exit code and message, without a crash, a sanitizer report or an
// unexpected-error exit, and when the files it must not touch are unchanged. A case with
// "needs": "vtk" reads its file through VTK's readers (app/vtk_io) and is skipped where kinetic-run
// was built without them.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path kCorpus = fs::path(KS_SOURCE_DIR) / "tests" / "fuzz";

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// @SRC@ the source tree, @DIR@ the case's working folder, @CORPUS@ tests/fuzz, @BYTE_FF@ the byte
// 0xFF (never valid in UTF-8, and not writable in cases.json itself).
std::string expand(std::string s, const fs::path& dir) {
  const std::map<std::string, std::string> vars = {
      {"@SRC@", KS_SOURCE_DIR}, {"@DIR@", dir.string()}, {"@CORPUS@", kCorpus.string()}, {"@BYTE_FF@", "\xff"}};
  for (const auto& [k, v] : vars)
    for (std::size_t at = s.find(k); at != std::string::npos; at = s.find(k, at + v.size())) s.replace(at, k.size(), v);
  return s;
}

struct Outcome {
  bool timed_out = false;
  int exit_code = -1;  // -1 when killed by a signal
  int signal = 0;
  std::string err;
};

// Runs kinetic-run in `dir` with `args`; sends `send_signal` after `signal_after` seconds if set.
Outcome run_cli(const std::vector<std::string>& args, const fs::path& dir, double timeout_s, int send_signal, double signal_after) {
  const fs::path err_path = dir / "stderr.txt";
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::chdir(dir.c_str()) != 0) ::_exit(120);
    const int in = ::open("/dev/null", O_RDONLY), out = ::open("stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644),
              err = ::open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(in, 0), ::dup2(out, 1), ::dup2(err, 2);
    std::vector<char*> argv{const_cast<char*>(KS_KINETIC_RUN)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(KS_KINETIC_RUN, argv.data());
    ::_exit(121);
  }
  Outcome o;
  const auto t0 = std::chrono::steady_clock::now();
  bool signalled = false;
  int status = 0;
  while (true) {
    if (::waitpid(pid, &status, WNOHANG) == pid) break;
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (send_signal && !signalled && t >= signal_after) {
      ::kill(pid, send_signal);
      signalled = true;
    }
    if (t > timeout_s) {
      o.timed_out = true;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  o.err = slurp(err_path);
  return o;
}

// Prepares the case's files: "files" (text), "copy" (from the corpus), "generate" (a prefix, a
// text repeated count times, a suffix), "fifo", "symlink" (name -> target), "checkpoint" (a first
// run of kinetic-run that must exit 0) and "edit_checkpoint_header" (JSON pointer -> new value).
void prepare(const json& c, const fs::path& dir) {
  // Each list is copied out of `c` first: iterating items() of value()'s temporary would dangle.
  const json files = c.value("files", json::object()), copies = c.value("copy", json::object()),
             generated = c.value("generate", json::object()), fifos = c.value("fifo", json::array()),
             links = c.value("symlink", json::object());
  for (const auto& [name, text] : files.items()) write_text(dir / name, expand(text, dir));
  for (const auto& [name, from] : copies.items()) {
    fs::create_directories((dir / name).parent_path());
    fs::copy_file(kCorpus / from.get<std::string>(), dir / name, fs::copy_options::overwrite_existing);
  }
  for (const auto& [name, g] : generated.items()) {
    std::string text = expand(g.value("prefix", ""), dir);
    const std::string unit = g.at("repeat");
    for (long long i = 0; i < g.at("count").get<long long>(); ++i) text += unit;
    text += g.value("suffix", "");
    write_text(dir / name, text);
  }
  for (const auto& name : fifos) ASSERT_EQ(::mkfifo((dir / name.get<std::string>()).c_str(), 0644), 0);
  for (const auto& [name, target] : links.items()) fs::create_symlink(expand(target.get<std::string>(), dir), dir / name);
  if (c.contains("first_run")) {
    std::vector<std::string> args;
    for (const auto& a : c["first_run"]) args.push_back(expand(a, dir));
    const Outcome o = run_cli(args, dir, 120, 0, 0);
    ASSERT_EQ(o.exit_code, 0) << "the first run failed: " << o.err;
  }
  if (c.contains("edit_checkpoint_header")) {
    const json& e = c["edit_checkpoint_header"];
    const fs::path file = dir / e.at("file").get<std::string>();
    std::string bytes = slurp(file);
    std::uint64_t len = 0;
    std::memcpy(&len, bytes.data() + 8, sizeof len);
    json header = json::parse(bytes.substr(16, len));
    for (const auto& [ptr, value] : e.at("set").items()) header[json::json_pointer(ptr)] = value;
    const std::string text = header.dump();
    const std::uint64_t new_len = text.size();
    std::string out = bytes.substr(0, 8);
    out.append(reinterpret_cast<const char*>(&new_len), sizeof new_len);
    out += text + bytes.substr(16 + len);
    write_text(file, out);
  }
  if (c.contains("flip_byte")) {  // {"file", "from_end"}: a state byte changed after the checksum
    const fs::path file = dir / c["flip_byte"].at("file").get<std::string>();
    std::string bytes = slurp(file);
    bytes[bytes.size() - c["flip_byte"].at("from_end").get<std::size_t>()] ^= 0x5a;
    write_text(file, bytes);
  }
}

json load_cases() {
  std::ifstream in(kCorpus / "cases.json");
  return json::parse(in).at("cases");
}

class FuzzCorpus : public ::testing::TestWithParam<json> {};

TEST_P(FuzzCorpus, EndsInTimeWithTheExpectedExitCodeAndMessage) {
  const json& c = GetParam();
#ifndef KS_FUZZ_VTK
  if (c.value("needs", "") == "vtk") GTEST_SKIP() << "kinetic-run was built without VTK (KS_VTK_IO=OFF): its VTK reader path is not there";
#endif
  const fs::path dir = fs::path(::testing::TempDir()) / ("ks_fuzz_" + std::to_string(::getpid())) / c.at("name").get<std::string>();
  fs::remove_all(dir);
  fs::create_directories(dir);
  prepare(c, dir);
  if (HasFatalFailure()) return;
  std::map<std::string, std::string> kept;  // files that must be unchanged after the run
  for (const auto& name : c.value("unchanged", json::array())) {
    const fs::path p = dir / name.get<std::string>();
    ASSERT_TRUE(fs::exists(p)) << p << " should exist before the run";
    kept[name] = slurp(p);
  }
  std::vector<std::string> args;
  for (const auto& a : c.at("args")) args.push_back(expand(a, dir));
  const std::map<std::string, int> signals = {{"TERM", SIGTERM}, {"INT", SIGINT}, {"HUP", SIGHUP}, {"PIPE", SIGPIPE}};
  const auto named = signals.find(c.value("signal", ""));
  const int sig = named == signals.end() ? 0 : named->second;
  const Outcome o = run_cli(args, dir, c.value("timeout_s", 60.0), sig, c.value("signal_after_s", 1.0));

  ASSERT_FALSE(o.timed_out) << "hung: no exit within " << c.value("timeout_s", 60.0) << " s; stderr: " << o.err;
  ASSERT_EQ(o.signal, 0) << "crashed with signal " << o.signal << "; stderr: " << o.err;
  EXPECT_EQ(o.exit_code, c.at("exit").get<int>()) << "stderr: " << o.err;
  for (const auto& part : c.value("stderr", json::array()))
    EXPECT_NE(o.err.find(expand(part, dir)), std::string::npos) << "stderr lacks '" << part.get<std::string>() << "': " << o.err;
  // An exception without a message of its own, or a sanitizer finding, is a defect in any case.
  for (const char* bad : {"unexpected error", "AddressSanitizer", "runtime error:", "LeakSanitizer"})
    EXPECT_EQ(o.err.find(bad), std::string::npos) << "stderr has '" << bad << "': " << o.err;
  EXPECT_LT(o.err.size(), 20000u) << "a message should quote inputs only briefly";
  for (const auto& [name, before] : kept) EXPECT_EQ(slurp(dir / name), before) << name << " was changed or truncated";
  for (const auto& name : c.value("exists", json::array()))
    EXPECT_TRUE(fs::exists(dir / name.get<std::string>())) << name << " was not written";
  fs::remove_all(dir);
}

std::string case_name(const ::testing::TestParamInfo<json>& info) { return info.param.at("name").get<std::string>(); }

INSTANTIATE_TEST_SUITE_P(Cases, FuzzCorpus, ::testing::ValuesIn(load_cases()), case_name);

}  // namespace
