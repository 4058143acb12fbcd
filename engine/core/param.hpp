// Parameter declarations: every method lists its parameters as ParamSpecs;
// the GUI panel and `kinetic-run --set key=value` are generated from them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ks {

// Path: a file name (text); "" means none. A relative path in a preset is resolved against the
// preset file's directory when the preset is loaded (ParamSet::apply_json with a base directory);
// from the command line or a widget it is taken relative to the current directory.
enum class ParamType { Int, Real, Bool, Choice, Path };

using ParamValue = std::variant<std::int64_t, double, bool, std::string>;

struct ParamSpec {
  std::string key;
  std::string label;
  std::string unit;  // SI unit, or "" for dimensionless, "1" for counts
  std::string help;
  ParamType type = ParamType::Real;
  ParamValue default_value = 0.0;
  double min = 0.0;  // Int/Real only, inclusive
  double max = 0.0;
  std::vector<std::string> choices;     // Choice only
  std::vector<std::string> extensions;  // Path only: accepted endings (".csv"), any case; empty: any file
  bool live = false;                    // may change while running (set by ParamTable from its Change)
  bool quick = false;                   // shown as a quick slider in the field-view overlay
  bool log_scale = false;               // a slider for it should move logarithmically
  // It acts only while the choice parameter `when_key` holds one of `when_values` ("": always).
  std::string when_key;
  std::vector<std::string> when_values;
  // Set by the numeric parameter `overridden_by` while that is above 0 (as a time step by a Courant
  // number); "": never.
  std::string overridden_by;
};

// Builders for method declarations; a method's ParamTable (param_table.hpp) binds each to a member
// and sets `live` from what a change does.
ParamSpec real_param(std::string key, std::string label, std::string unit, double def, double lo, double hi, std::string help,
                     bool log_scale = true);
ParamSpec int_param(std::string key, std::string label, std::int64_t def, std::int64_t lo, std::int64_t hi, std::string help);
ParamSpec choice_param(std::string key, std::string label, std::string def, std::vector<std::string> choices, std::string help);
ParamSpec bool_param(std::string key, std::string label, bool def, std::string help);
// A file path, "" by default (no file).
ParamSpec path_param(std::string key, std::string label, std::vector<std::string> extensions, std::string help);

// `spec` acting only while the choice `key` is one of `values` (the GUI greys it out otherwise).
ParamSpec only_when(std::string key, std::vector<std::string> values, ParamSpec spec);
// Whether `spec` acts while its `when_key` choice holds `value` ("": unknown, taken as acting).
bool acts_when(const ParamSpec& spec, const std::string& value);
// `spec` set by the numeric parameter `key` while that is above 0 (the GUI greys it out then).
ParamSpec overridden_by(std::string key, ParamSpec spec);

std::string to_string(ParamType t);
std::string to_string(const ParamValue& v);
nlohmann::json to_json(const ParamValue& v);
nlohmann::json to_json(const ParamSpec& spec);

// "[min, max]" or "one of a, b, c" or "true or false" or "a path to a .csv or .vti file, or empty".
std::string allowed_range(const ParamSpec& spec);

// Checks type and range; `where` names the source (file + JSON pointer, or --set).
ParamValue validate(const ParamSpec& spec, const nlohmann::json& value, const std::string& where);
// Parses "key=value" text from a command line or a widget.
ParamValue parse_value(const ParamSpec& spec, const std::string& text, const std::string& where);
// `path` as seen from `base_dir`: unchanged when empty, absolute or base_dir is empty; else
// base_dir/path, lexically normalised (still relative if base_dir is).
std::string resolve_path(const std::string& path, const std::string& base_dir);

// The full set of values for one method, always complete and valid.
class ParamSet {
 public:
  ParamSet() = default;
  explicit ParamSet(std::vector<ParamSpec> specs);  // every key at its default

  const std::vector<ParamSpec>& specs() const { return specs_; }
  const ParamSpec& spec(const std::string& key) const;  // throws bad_input for unknown keys
  bool has(const std::string& key) const;

  void set(const std::string& key, const ParamValue& v);  // v must already be validated
  const ParamValue& value(const std::string& key) const;

  std::int64_t get_int(const std::string& key) const;
  double get_real(const std::string& key) const;  // Int values convert
  bool get_bool(const std::string& key) const;
  const std::string& get_choice(const std::string& key) const;
  const std::string& get_path(const std::string& key) const;  // "" when no file is set

  nlohmann::json to_json() const;
  // Applies the keys of `obj`; unknown keys, wrong types and out-of-range values throw bad_input.
  // Relative Path values are resolved against `base_dir` (a preset's directory; "" keeps them as
  // they are, e.g. for a checkpoint header, whose paths were resolved when it was written).
  void apply_json(const nlohmann::json& obj, const std::string& where, const std::string& base_dir = {});

 private:
  std::vector<ParamSpec> specs_;
  std::map<std::string, ParamValue> values_;
};

// Command-line overrides ("key", "text"), applied in order as `--set key=value`: a key `method`
// does not declare is refused listing the keys it has; a value is parsed and range-checked.
void apply_overrides(ParamSet& params, const std::vector<std::pair<std::string, std::string>>& sets, const std::string& method);

}  // namespace ks
