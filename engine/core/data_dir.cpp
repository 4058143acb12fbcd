#include "data_dir.hpp"

#include <cstdlib>
#include <system_error>

#include "errors.hpp"

namespace ks {

namespace fs = std::filesystem;

namespace {

// The file the data is looked for from and how many folders below the install prefix it is.
struct Program {
  fs::path file;
  int levels = 2;
};
Program g_program;  // set by locate_data_from; empty: the running executable

// The running executable (Linux: /proc/self/exe) or what locate_data_from named; an empty file
// when it cannot be read.
Program program() {
  if (!g_program.file.empty()) return g_program;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return {ec ? fs::path() : exe, 2};
}

bool inside(const fs::path& p, const fs::path& folder) {
  std::error_code ec;
  const fs::path rel = fs::weakly_canonical(p, ec).lexically_relative(fs::weakly_canonical(folder, ec));
  return !ec && !rel.empty() && *rel.begin() != "..";
}

fs::path env_path(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? fs::path(v) : fs::path();
}

}  // namespace

void locate_data_from(const fs::path& file, int levels) { g_program = {fs::absolute(file), levels}; }

DataDir data_dir() {
  if (fs::path env = env_path("KS_DATA_DIR"); !env.empty()) {
    if (!fs::is_directory(env))
      throw bad_input("KS_DATA_DIR", "'" + env.string() + "' is not a folder", "the share/kinetic-studio folder of an install");
    return {env, "KS_DATA_DIR"};
  }
  const auto [exe, levels] = program();
  fs::path prefix = exe;
  for (int i = 0; i < levels; ++i) prefix = prefix.parent_path();
  const fs::path installed = prefix / "share" / "kinetic-studio";
  if (!exe.empty() && fs::is_directory(installed / "presets")) return {installed, "install"};
  if (!exe.empty() && inside(exe, KS_BUILD_DIR)) return {fs::path(KS_SOURCE_DIR), "build tree"};
  throw bad_input("KS_DATA_DIR",
                  "Kinetic Studio's data (presets, resources) is not at " + installed.string() +
                      (exe.empty() ? " (the executable's folder could not be read)" : ""),
                  "set KS_DATA_DIR to the share/kinetic-studio folder of an install, or reinstall");
}

fs::path preset_dir() {
  const fs::path env = env_path("KS_PRESET_DIR");
  return env.empty() ? data_dir().path / "presets" : env;
}

fs::path resource_dir() {
  const fs::path env = env_path("KS_RESOURCE_DIR");
  return env.empty() ? data_dir().path / "resources" : env;
}

}  // namespace ks
