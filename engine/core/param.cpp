#include "param.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "json_brief.hpp"
#include "text.hpp"

namespace ks {

ParamSpec real_param(std::string key, std::string label, std::string unit, double def, double lo, double hi, std::string help,
                     bool log_scale) {
  ParamSpec s;
  s.key = std::move(key);
  s.label = std::move(label);
  s.unit = std::move(unit);
  s.help = std::move(help);
  s.type = ParamType::Real;
  s.default_value = def;
  s.min = lo;
  s.max = hi;
  s.log_scale = log_scale;
  return s;
}

ParamSpec int_param(std::string key, std::string label, std::int64_t def, std::int64_t lo, std::int64_t hi, std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.label = std::move(label);
  s.unit = "1";
  s.help = std::move(help);
  s.type = ParamType::Int;
  s.default_value = def;
  s.min = double(lo);
  s.max = double(hi);
  return s;
}

ParamSpec choice_param(std::string key, std::string label, std::string def, std::vector<std::string> choices, std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.label = std::move(label);
  s.help = std::move(help);
  s.type = ParamType::Choice;
  s.default_value = std::move(def);
  s.choices = std::move(choices);
  return s;
}

ParamSpec bool_param(std::string key, std::string label, bool def, std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.label = std::move(label);
  s.help = std::move(help);
  s.type = ParamType::Bool;
  s.default_value = def;
  return s;
}

ParamSpec path_param(std::string key, std::string label, std::vector<std::string> extensions, std::string help) {
  ParamSpec s;
  s.key = std::move(key);
  s.label = std::move(label);
  s.help = std::move(help);
  s.type = ParamType::Path;
  s.default_value = std::string();
  s.extensions = std::move(extensions);
  return s;
}

ParamSpec only_when(std::string key, std::vector<std::string> values, ParamSpec spec) {
  spec.when_key = std::move(key);
  spec.when_values = std::move(values);
  return spec;
}

ParamSpec overridden_by(std::string key, ParamSpec spec) {
  spec.overridden_by = std::move(key);
  return spec;
}

bool acts_when(const ParamSpec& spec, const std::string& value) {
  return spec.when_key.empty() || value.empty() ||
         std::find(spec.when_values.begin(), spec.when_values.end(), value) != spec.when_values.end();
}

std::string to_string(ParamType t) {
  switch (t) {
    case ParamType::Int: return "int";
    case ParamType::Real: return "real";
    case ParamType::Bool: return "bool";
    case ParamType::Choice: return "choice";
    case ParamType::Path: return "path";
  }
  return "?";
}

std::string to_string(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return x;
        } else if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, double>) {
          return format_precise(x);
        } else {
          return std::to_string(x);
        }
      },
      v);
}

nlohmann::json to_json(const ParamValue& v) {
  return std::visit([](const auto& x) { return nlohmann::json(x); }, v);
}

nlohmann::json to_json(const ParamSpec& s) {
  nlohmann::json j = {{"key", s.key},   {"label", s.label},          {"unit", s.unit},
                      {"help", s.help}, {"type", to_string(s.type)}, {"default", to_json(s.default_value)},
                      {"live", s.live}};
  if (s.type == ParamType::Int || s.type == ParamType::Real) {
    j["min"] = s.min;
    j["max"] = s.max;
    j["log_scale"] = s.log_scale;
  }
  if (s.type == ParamType::Choice) j["choices"] = s.choices;
  if (s.type == ParamType::Path) j["extensions"] = s.extensions;
  if (s.quick) j["quick"] = true;
  if (!s.when_key.empty()) j["only_when"] = {{s.when_key, s.when_values}};
  if (!s.overridden_by.empty()) j["overridden_by"] = s.overridden_by;
  return j;
}

std::string allowed_range(const ParamSpec& s) {
  std::ostringstream os;
  os.precision(10);
  switch (s.type) {
    case ParamType::Int:
      os << "an integer in [" << static_cast<std::int64_t>(s.min) << ", " << static_cast<std::int64_t>(s.max) << "]";
      break;
    case ParamType::Real: os << "a number in [" << s.min << ", " << s.max << "]"; break;
    case ParamType::Bool: os << "true or false"; break;
    case ParamType::Choice:
      os << "one of ";
      for (std::size_t i = 0; i < s.choices.size(); ++i) os << (i ? ", " : "") << s.choices[i];
      break;
    case ParamType::Path:
      os << "a file path";
      for (std::size_t i = 0; i < s.extensions.size(); ++i)
        os << (i == 0 ? " ending in " : i + 1 == s.extensions.size() ? " or " : ", ") << s.extensions[i];
      os << ", or empty (a relative path in a preset is read from the preset's folder, elsewhere from the current folder)";
      break;
  }
  if (!s.unit.empty() && s.unit != "1" && (s.type == ParamType::Int || s.type == ParamType::Real)) os << " " << s.unit;
  return os.str();
}

namespace {

ParamValue check_range(const ParamSpec& s, double x, const std::string& where, const std::string& shown) {
  if (!std::isfinite(x) || x < s.min || x > s.max)
    throw bad_input(where, "value " + shown + " for '" + s.key + "' is out of range", allowed_range(s));
  if (s.type == ParamType::Int) return static_cast<std::int64_t>(x);
  return x;
}

// Whether the file exists is the method's question (it reads the file at set-up); here only the
// kind of file is checked, by its ending.
ParamValue check_path(const ParamSpec& s, const std::string& path, const std::string& where) {
  if (path.empty() || s.extensions.empty()) return path;
  for (const auto& e : s.extensions)
    if (has_ending(path, e)) return path;
  const bool takes_vtk_xml =
      std::any_of(s.extensions.begin(), s.extensions.end(), [](const std::string& e) { return e.starts_with(".vt"); });
  if (takes_vtk_xml && has_ending(path, ".vtk"))  // legacy VTK: its sizes cannot be checked before VTK reads them
    throw bad_input(where,
                    "'" + cut(path, 120) + "' for '" + s.key +
                        "' is a legacy VTK file, which is not read (ParaView saves the same data as "
                        "VTK XML: File > Save Data, 'VTK ImageData Files (*.vti)')",
                    allowed_range(s));
  throw bad_input(where, "'" + cut(path, 120) + "' for '" + s.key + "' is not a file of a supported kind", allowed_range(s));
}

}  // namespace

ParamValue validate(const ParamSpec& s, const nlohmann::json& v, const std::string& where) {
  const std::string shown = brief(v);
  switch (s.type) {
    case ParamType::Int:
      if (v.is_number_integer()) return check_range(s, v.get<double>(), where, shown);
      if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()) return check_range(s, v.get<double>(), where, shown);
      break;
    case ParamType::Real:
      if (v.is_number()) return check_range(s, v.get<double>(), where, shown);
      break;
    case ParamType::Bool:
      if (v.is_boolean()) return v.get<bool>();
      break;
    case ParamType::Choice:
      if (v.is_string()) {
        for (const auto& c : s.choices)
          if (c == v.get<std::string>()) return c;
        throw bad_input(where, "value " + shown + " for '" + s.key + "' is not a known choice", allowed_range(s));
      }
      break;
    case ParamType::Path:
      if (v.is_string()) return check_path(s, v.get<std::string>(), where);
      break;
  }
  throw bad_input(where, "value " + shown + " for '" + s.key + "' has the wrong type (expected " + to_string(s.type) + ")",
                  allowed_range(s));
}

ParamValue parse_value(const ParamSpec& s, const std::string& given, const std::string& where) {
  // Text from a command line or a widget is bytes: it reaches summary.json and checkpoint headers,
  // which are UTF-8 JSON, so anything else is refused here rather than when they are written.
  if (!is_utf8(given)) throw bad_input(where, "the value for '" + s.key + "' is not valid UTF-8 text", allowed_range(s));
  const std::string text = cut(given, 80);
  switch (s.type) {
    case ParamType::Int:
    case ParamType::Real: {
      char* end = nullptr;
      const double x = std::strtod(given.c_str(), &end);
      if (given.empty() || end != given.c_str() + given.size())
        throw bad_input(where, "'" + text + "' for '" + s.key + "' is not a number", allowed_range(s));
      if (s.type == ParamType::Int && std::floor(x) != x)
        throw bad_input(where, "'" + text + "' for '" + s.key + "' is not an integer", allowed_range(s));
      return check_range(s, x, where, text);
    }
    case ParamType::Bool:
      if (text == "true" || text == "1" || text == "on") return true;
      if (text == "false" || text == "0" || text == "off") return false;
      throw bad_input(where, "'" + text + "' for '" + s.key + "' is not a boolean", allowed_range(s));
    case ParamType::Choice: return validate(s, nlohmann::json(given), where);
    case ParamType::Path: return check_path(s, given, where);
  }
  return {};
}

std::string resolve_path(const std::string& path, const std::string& base_dir) {
  namespace fs = std::filesystem;
  if (path.empty() || base_dir.empty() || fs::path(path).is_absolute()) return path;
  return (fs::path(base_dir) / path).lexically_normal().string();
}

ParamSet::ParamSet(std::vector<ParamSpec> specs) : specs_(std::move(specs)) {
  for (const auto& s : specs_) values_[s.key] = s.default_value;
}

bool ParamSet::has(const std::string& key) const { return values_.count(key) != 0; }

const ParamSpec& ParamSet::spec(const std::string& key) const {
  for (const auto& s : specs_)
    if (s.key == key) return s;
  std::string known;
  for (const auto& s : specs_) known += (known.empty() ? "" : ", ") + s.key;
  throw bad_input("", "unknown parameter '" + key + "'", "one of " + known);
}

void ParamSet::set(const std::string& key, const ParamValue& v) {
  spec(key);
  values_[key] = v;
}

const ParamValue& ParamSet::value(const std::string& key) const {
  spec(key);
  return values_.at(key);
}

std::int64_t ParamSet::get_int(const std::string& key) const { return std::get<std::int64_t>(value(key)); }

double ParamSet::get_real(const std::string& key) const {
  const auto& v = value(key);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  return std::get<double>(v);
}

bool ParamSet::get_bool(const std::string& key) const { return std::get<bool>(value(key)); }

const std::string& ParamSet::get_choice(const std::string& key) const { return std::get<std::string>(value(key)); }

const std::string& ParamSet::get_path(const std::string& key) const { return std::get<std::string>(value(key)); }

nlohmann::json ParamSet::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& s : specs_) j[s.key] = ks::to_json(values_.at(s.key));
  return j;
}

void ParamSet::apply_json(const nlohmann::json& obj, const std::string& where, const std::string& base_dir) {
  if (!obj.is_object()) throw bad_input(where, "expected an object of parameter values, got " + brief(obj));
  for (const auto& [key, v] : obj.items()) {
    const std::string here = where + "/" + cut(key, 60);
    bool known = false;
    for (const auto& s : specs_) known = known || s.key == key;
    if (!known) {
      std::string names;
      for (const auto& s : specs_) names += (names.empty() ? "" : ", ") + s.key;
      throw bad_input(here, "unknown parameter '" + cut(key, 60) + "'", "one of " + names);
    }
    const ParamSpec& s = spec(key);
    ParamValue value = validate(s, v, here);
    if (s.type == ParamType::Path) value = resolve_path(std::get<std::string>(value), base_dir);
    values_[key] = std::move(value);
  }
}

void apply_overrides(ParamSet& params, const std::vector<std::pair<std::string, std::string>>& sets, const std::string& method) {
  for (const auto& [key, text] : sets) {
    const std::string where = "--set " + cut(key, 60);
    if (!params.has(key)) {
      std::string known;
      for (const auto& s : params.specs()) known += (known.empty() ? "" : ", ") + s.key;
      throw bad_input(where, "method '" + method + "' has no parameter '" + cut(key, 60) + "'", "one of " + known);
    }
    params.set(key, parse_value(params.spec(key), text, where));
  }
}

}  // namespace ks
