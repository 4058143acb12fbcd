// Presets are data: one JSON file per paper case or teaching demo.
//
// {
//   "method": "aerosol.coagulation", "title": "...", "description": "teaching text",
//   "paper": "coagulation-mc-wei-kruis-2013.txt", "case": "Table 1",
//   "params": { "n_s": 2000, ... },             // validated against the method's ParamSpecs;
//                                                // relative file paths are read from the preset's folder
//   "backend": "auto",                           // optional: auto | cuda | cpu
//   "view": { "field": "diameter", "series": "sigma_g" },   // optional default view
//   "reference": { "series": "N/N0",             // optional: what the plot and the tests compare
//                  "analytic": { "id": "constant_kernel_number" }  // or
//                  "table": { "x": [...], "y": [...], "source": "paper Fig. 5" } }
// }
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backend.hpp"
#include "core/param.hpp"
#include "core/registry.hpp"

namespace ks {

struct Reference {
  std::string series;        // the method series it is compared with
  std::string analytic_id;   // empty for tables
  std::vector<double> x, y;  // tables
  std::string source;
  bool empty() const { return series.empty(); }
};

struct Preset {
  std::string file;
  std::string method;
  std::string title;
  std::string description;
  std::string paper;
  std::string case_name;
  ParamSet params;  // complete: the method's defaults overridden by the file
  std::optional<BackendRequest> backend;
  nlohmann::json view = nlohmann::json::object();
  Reference reference;
};

// The preset file `name` names: itself where it is a file or ends in .json, else the shipped preset of
// that name ("dvm/teaching-cavity" -> PRESETS/dvm/teaching-cavity.json), one rule for kinetic-run,
// the app and Python. Throws bad_input when it is neither.
std::string preset_file(const std::string& name);

// Reads and validates a preset; every problem throws bad_input naming the file,
// the JSON pointer, the value and what is allowed.
Preset load_preset(const std::string& path, const Registry& registry);
Preset parse_preset(const nlohmann::json& doc, const std::string& file, const Registry& registry);

}  // namespace ks
