// File > Save parameters as preset: the open preset's file with the parameters the simulation runs
// with (or will after a reset), loadable like any preset.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/param.hpp"
#include "io/preset.hpp"

namespace ks::gui {

// The JSON of `source`'s file (description, paper, case, view and reference kept) with every value
// of `params`; " (modified)" follows the title where a value differs from the file's. Throws
// bad_input when the source file cannot be read.
nlohmann::json modified_preset(const Preset& source, const ParamSet& params);

}  // namespace ks::gui
