// kinetic-run as a user runs it: exit codes, messages on stderr, the files
// --out writes, and --checkpoint/--restart continuing a run exactly.
#include <gtest/gtest.h>

#include <unistd.h>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend.hpp"
#include "core/registry.hpp"
#include "io/field_writer.hpp"

namespace fs = std::filesystem;

namespace {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q.push_back(c);
  }
  return q + "'";
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string teaching_demo() { return std::string(KS_SOURCE_DIR) + "/presets/coagulation/teaching-demo.json"; }

// The small run of the brief: n_s = 100, 2 runs to t_end = 10 tau_char.
std::vector<std::string> small_run_args() { return {teaching_demo(), "--set", "n_s=100", "--set", "n_runs=2", "--set", "t_end=10"}; }

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("ks_cli_test_" + std::to_string(::getpid()) + "_" +
                                             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  // kinetic-run with `args`, from the folder `cwd` when one is given.
  // `shell` runs before kinetic-run in the same shell (limits, traps).
  CliResult run(const std::vector<std::string>& args, const std::string& cwd = "", const std::string& shell = "") const {
    std::string cmd = cwd.empty() ? "" : "cd " + quote(cwd) + " && ";
    cmd.append(shell).append("exec ").append(quote(KS_KINETIC_RUN));
    for (const auto& a : args) cmd.append(" ").append(quote(a));
    const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
    cmd.append(" >").append(quote(out.string())).append(" 2>").append(quote(err.string())).append(" </dev/null");
    const int status = std::system(cmd.c_str());
    CliResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static nlohmann::json summary(const std::string& out_dir) {
    std::ifstream in(fs::path(out_dir) / "summary.json");
    EXPECT_TRUE(in) << "no summary.json in " << out_dir;
    return in ? nlohmann::json::parse(in) : nlohmann::json();
  }
  static const nlohmann::json& series(const nlohmann::json& summary, const std::string& name) {
    for (const auto& s : summary.at("series"))
      if (s.at("name") == name) return s;
    static const nlohmann::json none;
    ADD_FAILURE() << "no series '" << name << "' in the summary";
    return none;
  }

  fs::path dir_;
};

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << "text: " << (text)

std::vector<std::string> operator+(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_F(Cli, HelpExitsZeroAndDocumentsTheExitCodes) {
  const CliResult r = run({"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_HAS(r.out, "usage:");
  EXPECT_HAS(r.out, "exit codes");
  EXPECT_HAS(r.out, "0    done");
  EXPECT_HAS(r.out, "2    bad input");
  EXPECT_HAS(r.out, "3    backend unavailable");
  EXPECT_HAS(r.out, "4    the run failed");
  EXPECT_HAS(r.out, "130  stopped by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP");
}

TEST_F(Cli, HelpListsEveryOptionWithItsValueAndTheValueForms) {
  const CliResult r = run({"-h"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* option : {"--set key=value", "--backend B", "--steps N", "--until-done", "--max-seconds S", "--seed N", "--out DIR",
                             "--format csv|vti|vti-ascii|vtkhdf|none", "--output-every N", "--checkpoint FILE", "--checkpoint-every N",
                             "--restart FILE", "-q, --quiet", "--list-methods", "--describe METHOD", "-h, --help", "--version"})
    EXPECT_HAS(r.out, option);
  EXPECT_HAS(r.out, "--steps=10");
  EXPECT_HAS(r.out, "-- PRESET.json");
}

TEST_F(Cli, VersionExitsZero) {
  const CliResult r = run({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_HAS(r.out, "kinetic-run ");
}

TEST_F(Cli, ListMethodsPrintsEveryBuiltinMethod) {
  const CliResult r = run({"--list-methods"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_HAS(r.out, "aerosol.coagulation");
  for (const auto& id : ks::builtin_registry().ids()) EXPECT_HAS(r.out, id);
}

TEST_F(Cli, DescribePrintsJsonWithTheMethodsParams) {
  const CliResult r = run({"--describe", "aerosol.coagulation"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out;
  EXPECT_EQ(j["id"], "aerosol.coagulation");
  ASSERT_TRUE(j["params"].is_array());
  const auto& specs = ks::builtin_registry().info("aerosol.coagulation").params;
  ASSERT_EQ(j["params"].size(), specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    EXPECT_EQ(j["params"][i]["key"], specs[i].key);
    EXPECT_EQ(j["params"][i]["type"], ks::to_string(specs[i].type));
    EXPECT_EQ(j["params"][i]["live"], specs[i].live);
  }
  EXPECT_TRUE(j["series"].is_array());
  EXPECT_TRUE(j["fields"].is_array());
}

TEST_F(Cli, DescribeOfUnknownMethodExits2) {
  const CliResult r = run({"--describe", "fluid.nope"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "unknown method 'fluid.nope'");
  EXPECT_HAS(r.err, "aerosol.coagulation");
}

TEST_F(Cli, BadPresetExits2AndStderrNamesFileKeyAndRange) {
  const std::string preset = path("bad.json");
  std::ofstream(preset) << R"({ "method": "aerosol.coagulation", "title": "bad", "params": { "n_s": 3 } })";
  const CliResult r = run({preset, "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_HAS(r.err, preset);
  EXPECT_HAS(r.err, "/params/n_s");
  EXPECT_HAS(r.err, "[16, 100000000]");
}

TEST_F(Cli, MissingPresetFileExits2) {
  const CliResult r = run({path("nope.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, path("nope.json"));
}

TEST_F(Cli, UnknownSetKeyExits2AndNamesTheKey) {
  const CliResult r = run({teaching_demo(), "--set", "bogus=1", "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_HAS(r.err, "bogus");
  EXPECT_HAS(r.err, "n_s");  // the known keys are listed
}

TEST_F(Cli, OutOfRangeSetValueExits2AndNamesTheRange) {
  const CliResult r = run({teaching_demo(), "--set", "n_s=5", "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_HAS(r.err, "--set n_s");
  EXPECT_HAS(r.err, "[16, 100000000]");
}

TEST_F(Cli, UnknownOptionExits2) {
  const CliResult r = run({teaching_demo(), "--frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "--frobnicate");
}

TEST_F(Cli, UnknownOptionWithAJoinedValueExits2) {
  const CliResult r = run({teaching_demo(), "--frobnicate=1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "--frobnicate");
  EXPECT_HAS(r.err, "unknown option");
}

TEST_F(Cli, OptionGivenLastWithoutItsValueExits2NamingIt) {
  const CliResult r = run({teaching_demo(), "--steps"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "--steps: needs a value");
}

// --opt=value is --opt value: the same run, the same summary.
TEST_F(Cli, ValuesJoinedByEqualsRunLikeSeparateOnes) {
  const std::string joined = path("joined"), separate = path("separate");
  CliResult r = run({teaching_demo(), "--set=n_s=100", "--set=n_runs=2", "--set=t_end=10", "--backend=cpu", "--steps=3", "--seed=7",
                     "--format=csv", "--out=" + joined, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run(small_run_args() +
          std::vector<std::string>{"--backend", "cpu", "--steps", "3", "--seed", "7", "--format", "csv", "--out", separate, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json a = summary(joined), b = summary(separate);
  EXPECT_EQ(a["iterations"], 3);
  EXPECT_EQ(a["params"], b["params"]);
  EXPECT_EQ(a["params"]["seed"], 7);
  EXPECT_EQ(series(a, "d_g")["y"], series(b, "d_g")["y"]);
}

// A preset whose name begins with '-' reads as an option unless it follows "--".
TEST_F(Cli, DoubleDashEndsTheOptionsSoAPresetPathMayBeginWithADash) {
  fs::copy_file(teaching_demo(), dir_ / "-demo.json");
  CliResult r =
      run({"--set", "n_s=100", "--set", "n_runs=2", "--set", "t_end=10", "--backend", "cpu", "--quiet", "-demo.json"}, dir_.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "-demo.json: unknown option");
  r = run({"--set", "n_s=100", "--set", "n_runs=2", "--set", "t_end=10", "--backend", "cpu", "--quiet", "--out", "out", "--", "-demo.json"},
          dir_.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(summary(path("out"))["preset"]["file"], "-demo.json");
  // After "--" an option is a second preset, not an option.
  r = run({teaching_demo(), "--", "--steps"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "a second preset file");
}

// Counts are checked in 64 bits against 1e15: the bound itself runs (to the end condition), one more,
// a value beyond 64 bits or a negative one is refused naming the option, the value and the range.
TEST_F(Cli, CountsThatDoNotFitAreRefusedNeverWrapped) {
  const std::string range = "an integer in [0, 1000000000000000]";
  CliResult r = run(small_run_args() + std::vector<std::string>{"--backend", "cpu", "--quiet", "--steps=1000000000000000"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run(small_run_args() + std::vector<std::string>{"--steps=1000000000000001"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "--steps: '1000000000000001' is not a valid value; allowed: " + range);
  r = run(small_run_args() + std::vector<std::string>{"--seed", "18446744073709551617"});  // 2^64 + 1 wraps to 1
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "--seed: '18446744073709551617'");
  EXPECT_HAS(r.err, range);
  r = run(small_run_args() + std::vector<std::string>{"--steps", "-1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "--steps: '-1'");
  r = run(small_run_args() + std::vector<std::string>{"--checkpoint", path("c.ckpt"), "--checkpoint-every=0"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "--checkpoint-every: '0'");
  EXPECT_HAS(r.err, "[1, 1000000000000000]");
  r = run(small_run_args() + std::vector<std::string>{"--steps", "3.5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "--steps: '3.5'");
}

TEST_F(Cli, SeedTogetherWithSetSeedIsRefusedInEitherForm) {
  const CliResult r = run(small_run_args() + std::vector<std::string>{"--seed=3", "--set=seed=4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "--seed: given together with --set seed=4");
}

TEST_F(Cli, BackendCudaWithoutAUsableDeviceExits3) {
  const ks::CudaAvailability cuda = ks::query_cuda();
  if (cuda.usable) GTEST_SKIP() << "a usable CUDA device is present (" << cuda.device_name << "): exit code 3 cannot be provoked";
  const CliResult r = run(small_run_args() + std::vector<std::string>{"--backend", "cuda", "--quiet"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_HAS(r.err, "cuda");
}

TEST_F(Cli, SmallRunExits0AndWritesSummaryAndDiameterCsv) {
  const std::string out = path("out");
  const CliResult r = run(small_run_args() + std::vector<std::string>{"--out", out, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << "--quiet run printed: " << r.err;

  const nlohmann::json s = summary(out);
  EXPECT_EQ(s["method"], "aerosol.coagulation");
  EXPECT_EQ(s["params"]["n_s"], 100);
  EXPECT_EQ(s["params"]["n_runs"], 2);
  EXPECT_EQ(s["params"]["t_end"], 10.0);
  EXPECT_EQ(s["params"]["kernel"], "free_molecular");  // from the preset
  ASSERT_TRUE(s["backend"].is_object());
  EXPECT_TRUE(s["backend"]["kind"] == "cpu" || s["backend"]["kind"] == "cuda") << s["backend"];
  EXPECT_GT(s["iterations"].get<long long>(), 0);
  EXPECT_EQ(s["state"], "finished");
  // Coagulation has no convergence tolerance: reaching t_end is not convergence.
  EXPECT_EQ(s["converged"], false);
  EXPECT_HAS(s["stop_reason"].get<std::string>(), "end condition");
  EXPECT_GT(s["memory_estimate"]["host_bytes"].get<double>(), 100 * 2 * 8.0) << "at least a double per particle";
  EXPECT_NEAR(s["sim_time"].get<double>(), 10.0, 1e-9);
  ASSERT_TRUE(s["series"].is_array());
  ASSERT_FALSE(s["series"].empty());
  const nlohmann::json& dg = series(s, "d_g");
  ASSERT_EQ(dg["y"].size(), s["iterations"].get<std::size_t>() + 1) << "one point per output, t = 0 included";
  // Particles grow by coagulation.
  EXPECT_GT(dg["y"].back().get<double>(), dg["y"].front().get<double>());

  std::ifstream csv(fs::path(out) / "diameter.csv");
  ASSERT_TRUE(csv) << "no diameter.csv";
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line, "x,y,z,diameter");
  int rows = 0;
  while (std::getline(csv, line)) {
    if (line.empty()) continue;
    ++rows;
    int commas = 0;
    for (char c : line) commas += c == ',';
    EXPECT_EQ(commas, 3) << "row " << rows << ": " << line;
  }
  EXPECT_EQ(rows, 100);
}

TEST_F(Cli, FormatVtiWritesOneBinaryParticleFileWithEveryField) {
  const std::string out = path("vtk");
  const CliResult r = run(small_run_args() + std::vector<std::string>{"--format", "vti", "--out", out, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const fs::path vtp = fs::path(out) / "particles.vtp";
  ASSERT_TRUE(fs::exists(vtp)) << "no particles.vtp";
  EXPECT_FALSE(fs::exists(fs::path(out) / "diameter.csv"));
  const std::string text = slurp(vtp);
  EXPECT_HAS(text, "<VTKFile type=\"PolyData\"");
  EXPECT_HAS(text, "header_type=\"UInt64\"");
  EXPECT_HAS(text, "NumberOfPoints=\"100\"");
  EXPECT_HAS(text, "Name=\"diameter\" format=\"appended\"");
  EXPECT_HAS(text, "Name=\"weight\" format=\"appended\"");
  EXPECT_HAS(text, "<AppendedData encoding=\"raw\">");
  EXPECT_HAS(text, "Name=\"TimeValue\"");  // a single output carries its time, as a series' do
  const CliResult ascii = run(small_run_args() + std::vector<std::string>{"--format", "vti-ascii", "--out", out, "--quiet"});
  ASSERT_EQ(ascii.exit_code, 0) << ascii.err;
  EXPECT_HAS(slurp(vtp), "Name=\"diameter\" format=\"ascii\"");
}

// A time series: the fields at iteration 0 and every 2 iterations to the end, each listed in the .pvd
// with its time, in order.
TEST_F(Cli, OutputEveryWritesNumberedDatasetsAndACollection) {
  const std::string out = path("every");
  const CliResult r = run(small_run_args() + std::vector<std::string>{"--backend", "cpu", "--steps", "5", "--format", "vti",
                                                                      "--output-every", "2", "--out", out, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string pvd = slurp(fs::path(out) / "particles.pvd");
  EXPECT_HAS(pvd, "<VTKFile type=\"Collection\"");
  std::vector<std::string> files;
  for (std::size_t at = pvd.find("file=\""); at != std::string::npos; at = pvd.find("file=\"", at + 1))
    files.push_back(pvd.substr(at + 6, pvd.find('"', at + 6) - at - 6));
  EXPECT_EQ(files, (std::vector<std::string>{"particles_00000000.vtp", "particles_00000002.vtp", "particles_00000004.vtp",
                                             "particles_00000005.vtp"}));
  for (const auto& f : files) EXPECT_TRUE(fs::exists(fs::path(out) / f)) << f;
  EXPECT_FALSE(fs::exists(fs::path(out) / "particles.vtp"));
  const nlohmann::json summary = nlohmann::json::parse(slurp(fs::path(out) / "summary.json"));
  EXPECT_EQ(summary["files"][0], out + "/particles.pvd");
}

TEST_F(Cli, OutputEveryWithoutAVtkOutputIsRefused) {
  const std::vector<std::string> every = {"--output-every", "2"};
  CliResult r = run(small_run_args() + every);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "--output-every: needs --out DIR");
  r = run(small_run_args() + every + std::vector<std::string>{"--out", path("every-csv")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "the format is csv");
  EXPECT_HAS(r.err, "--format vti (or vti-ascii, vtkhdf)");
}

TEST_F(Cli, UnknownFormatExits2) {
  const CliResult r = run(small_run_args() + std::vector<std::string>{"--format", "hdf5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "csv, vti, vti-ascii, vtkhdf or none");
}

TEST_F(Cli, FormatNoneWritesTheSummaryAndSeriesButNoFieldFile) {
  const std::string out = path("none");
  const CliResult r = run(small_run_args() + std::vector<std::string>{"--format", "none", "--out", out, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int series = 0;
  for (const auto& e : fs::directory_iterator(out)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "summary.json" || name.rfind("series_", 0) == 0) << "a field file was written: " << name;
    series += name.rfind("series_", 0) == 0;
  }
  EXPECT_GT(series, 0);
  EXPECT_FALSE(fs::exists(fs::path(out) / "diameter.vtp"));
  EXPECT_HAS(slurp(fs::path(out) / "summary.json"), "\"iterations\"");
}

// The fields of a CSV line as RFC 4180 reads them: commas inside double quotes separate nothing,
// a doubled quote is one quote.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"') fields.back() += line[i++];
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) fields.emplace_back();
    else fields.back() += c;
  }
  return fields;
}

TEST(CsvField, QuotesWhatHoldsACommaAQuoteOrALineBreakAndNothingElse) {
  EXPECT_EQ(ks::csv_field("diameter"), "diameter");
  EXPECT_EQ(ks::csv_field("f(x, vx)"), "\"f(x, vx)\"");
  EXPECT_EQ(ks::csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(ks::csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_fields("x,\"f(x, vx)\",\"a \"\"b\"\"\""), (std::vector<std::string>{"x", "f(x, vx)", "a \"b\""}));
}

// The BGK phase space is called "f(x, vx)": its CSV header has four columns, as every row does.
TEST_F(Cli, PhaseSpaceCsvHeaderQuotesTheNameWithItsComma) {
  const std::string out = path("phase");
  const CliResult r = run({std::string(KS_SOURCE_DIR) + "/presets/bgk/teaching-shock.json", "--backend", "cpu", "--steps", "1", "--format",
                           "csv", "--out", out, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream csv(fs::path(out) / (ks::file_safe("f(x, vx)") + ".csv"));
  ASSERT_TRUE(csv) << "no phase-space csv";
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(csv_fields(line), (std::vector<std::string>{"x", "y", "z", "f(x, vx)"})) << line;
  int rows = 0;
  while (std::getline(csv, line)) {
    if (line.empty()) continue;
    ++rows;
    EXPECT_EQ(csv_fields(line).size(), 4u) << "row " << rows << ": " << line;
  }
  EXPECT_EQ(rows, 128 * 16);
}

// Two runs into one folder: the second's summary names the first's files it did not replace (here
// the .vtp of a --format vti run under a CSV run's files), and kinetic-run says so.
TEST_F(Cli, AnEarlierRunsFilesLeftInTheFolderAreNamed) {
  const std::string out = path("twice");
  ASSERT_EQ(run(small_run_args() + std::vector<std::string>{"--backend", "cpu", "--steps", "1", "--format", "vti", "--out", out, "--quiet"})
                .exit_code,
            0);
  const CliResult r = run(small_run_args() + std::vector<std::string>{"--backend", "cpu", "--steps", "1", "--format", "csv", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_HAS(r.err, "also holds 1 files of an earlier run");
  const nlohmann::json s = summary(out);
  EXPECT_EQ(s.value("files_of_an_earlier_run", nlohmann::json()), nlohmann::json::array({out + "/particles.vtp"}));
  // The CSV run again: the .vtp is still named (carried from the summary before), nothing else.
  const CliResult again =
      run(small_run_args() + std::vector<std::string>{"--backend", "cpu", "--steps", "1", "--format", "csv", "--out", out, "--quiet"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(summary(out).value("files_of_an_earlier_run", nlohmann::json()), nlohmann::json::array({out + "/particles.vtp"}));
  std::filesystem::remove(out + "/particles.vtp");  // gone: no longer named
  ASSERT_EQ(run(small_run_args() + std::vector<std::string>{"--backend", "cpu", "--steps", "1", "--format", "csv", "--out", out, "--quiet"})
                .exit_code,
            0);
  EXPECT_EQ(summary(out).value("files_of_an_earlier_run", nlohmann::json()), nullptr);
}

// A shipped preset by its name, as Python's from_preset and the app take it: one rule for all three.
TEST_F(Cli, AShippedPresetRunsByItsName) {
  const CliResult r = run({"coagulation/teaching-demo", "--set", "n_s=100", "--set", "n_runs=2", "--set", "t_end=2", "--backend", "cpu",
                           "--steps", "1", "--out", path("named"), "--quiet"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(summary(path("named"))["preset"].value("file", ""), std::string(KS_SOURCE_DIR) + "/presets/coagulation/teaching-demo.json");
  const CliResult wrong = run({"coagulation/teaching-dem", "--quiet"});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_HAS(wrong.err, "preset 'coagulation/teaching-dem': no such file, nor a preset of that name");
}

// Fields that cannot be written at the end (here: a file-size limit, as a full disk) are a fault of
// the run, not bad input: exit 4, and summary.json (small) says the run was done and why the fields
// are missing. The limit: 64 blocks (32 or 64 KiB), under the fields' 190 KB, over the summary's 6.
TEST_F(Cli, FieldsThatCannotBeWrittenAreARunFaultThatTheSummaryNames) {
  const std::string out = path("full");
  const CliResult r = run({std::string(KS_SOURCE_DIR) + "/presets/bgk/teaching-cavity.json", "--backend", "cpu", "--steps", "2", "--format",
                           "vti-ascii", "--out", out, "--quiet"},
                          "", "trap '' XFSZ; ulimit -f 64 && ");
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_HAS(r.err, "the fields were not written");
  EXPECT_HAS(r.err, "fields.vti: writing the VTK file failed");
  const nlohmann::json s = summary(out);
  EXPECT_EQ(s.value("iterations", -1), 2);
  EXPECT_HAS(s.value("stop_reason", ""), "the fields were not written");
  EXPECT_FALSE(fs::exists(fs::path(out) / "fields.vti"));
  for (const auto& entry : fs::directory_iterator(out)) EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << entry.path();
}

TEST_F(Cli, CheckpointAndRestartGiveTheSameSeriesAsOneUninterruptedRun) {
  const std::vector<std::string> cpu = {"--backend", "cpu", "--quiet"};
  const std::string straight = path("straight"), first = path("first"), rest = path("rest");
  const std::string ckpt = path("run.ckpt");

  CliResult r = run(small_run_args() + cpu + std::vector<std::string>{"--until-done", "--out", straight});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  r = run(small_run_args() + cpu + std::vector<std::string>{"--steps", "3", "--checkpoint", ckpt, "--out", first});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(fs::exists(ckpt));
  const nlohmann::json s1 = summary(first);
  EXPECT_EQ(s1["iterations"], 3);
  EXPECT_EQ(s1["converged"], false);

  // The restart is run with the same preset and overrides as the first part.
  r = run(small_run_args() + cpu + std::vector<std::string>{"--restart", ckpt, "--until-done", "--out", rest});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  const nlohmann::json a = summary(straight), b = summary(rest);
  EXPECT_EQ(b["params"], a["params"]);
  EXPECT_EQ(b["iterations"], a["iterations"]);
  EXPECT_EQ(b["state"], "finished");
  const nlohmann::json& dg_a = series(a, "d_g");
  const nlohmann::json& dg_b = series(b, "d_g");
  ASSERT_GT(dg_a["y"].size(), 4u);
  EXPECT_EQ(dg_b["x"], dg_a["x"]);
  ASSERT_EQ(dg_b["y"].size(), dg_a["y"].size());
  for (std::size_t i = 0; i < dg_a["y"].size(); ++i) EXPECT_EQ(dg_b["y"][i].get<double>(), dg_a["y"][i].get<double>()) << "d_g point " << i;
  EXPECT_EQ(series(b, "N/N0")["y"], series(a, "N/N0")["y"]);
}

TEST_F(Cli, RestartRefusesAnotherSetUpNamingEveryDifferenceAndAMissingCheckpoint) {
  const std::string ckpt = path("run.ckpt");
  CliResult r = run(small_run_args() + std::vector<std::string>{"--backend", "cpu", "--quiet", "--steps", "1", "--checkpoint", ckpt});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // n_s and d0 need a re-setup: a restart that changes them is refused, naming both.
  r = run(small_run_args() + std::vector<std::string>{"--restart", ckpt, "--set", "n_s=200", "--set", "d0=5", "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "n_s = 100 (preset: 200)");
  EXPECT_HAS(r.err, "d0 = 3 (preset: 5)");
  EXPECT_HAS(r.err, "re-setup");
  // Another preset (another case) is refused too.
  r = run({std::string(KS_SOURCE_DIR) + "/presets/coagulation/constant-kernel.json", "--restart", ckpt, "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, "case");
  r = run({teaching_demo(), "--restart", path("missing.ckpt"), "--quiet"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_HAS(r.err, path("missing.ckpt"));
}
