// Where Kinetic Studio's data is (presets/, resources/), for the installed binaries and for the
// ones in a build tree alike:
//   1. $KS_DATA_DIR, when set;
//   2. <folder of the executable>/../share/kinetic-studio, when it exists (cmake --install, the .deb);
//   3. the source tree the binary was built from, only for an executable inside that build tree.
// A library loaded into another program (the Python module) names its own file in place of the
// executable (locate_data_from).
// $KS_PRESET_DIR and $KS_RESOURCE_DIR override the two folders one at a time.
#pragma once

#include <filesystem>
#include <string>

namespace ks {

struct DataDir {
  std::filesystem::path path;
  std::string found_by;  // "KS_DATA_DIR", "install" or "build tree"
};

// Look for the data from `file` instead of the running executable: an install's prefix is `levels`
// folders above it (bin/kinetic-run: 2; lib/python3.11/dist-packages/kinetic_studio/_core.so: 5).
void locate_data_from(const std::filesystem::path& file, int levels);

// Throws bad_input naming the places looked at when none has the data.
DataDir data_dir();
std::filesystem::path preset_dir();
std::filesystem::path resource_dir();

}  // namespace ks
