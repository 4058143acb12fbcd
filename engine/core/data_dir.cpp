#include "data_dir.hpp"

#include <cstdlib>
#include <system_error>

#include "errors.hpp"

namespace ks {

namespace fs = std::filesystem;

namespace {

// The running executable (Linux: /proc/self/exe); empty when it cannot be read.
fs::path executable() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe;
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

DataDir data_dir() {
  if (fs::path env = env_path("KS_DATA_DIR"); !env.empty()) {
    if (!fs::is_directory(env))
      throw bad_input("KS_DATA_DIR", "'" + env.string() + "' is not a folder", "the share/kinetic-studio folder of an install");
    return {env, "KS_DATA_DIR"};
  }
  const fs::path exe = executable();
  const fs::path installed = exe.parent_path().parent_path() / "share" / "kinetic-studio";
  if (!exe.empty() && fs::is_directory(installed / "presets")) return {installed, "install"};
  if (!exe.empty() && inside(exe, KS_BUILD_DIR)) return {fs::path(KS_SOURCE_DIR), "build tree"};
  throw bad_input("KS_DATA_DIR", "Kinetic Studio's data (presets, resources) is not at " + installed.string() +
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
