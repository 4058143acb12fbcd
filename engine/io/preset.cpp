#include "preset.hpp"

#include <filesystem>
#include <set>

#include "core/data_dir.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "input_file.hpp"
#include "json_text.hpp"
#include "reference.hpp"

namespace ks {

namespace fs = std::filesystem;

namespace {

const nlohmann::json* optional_key(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

std::string required_string(const nlohmann::json& obj, const char* key, const std::string& where) {
  const nlohmann::json* v = optional_key(obj, key);
  if (!v) throw bad_input(where + "/" + key, std::string("missing required key '") + key + "'", "a string");
  if (!v->is_string()) throw bad_input(where + "/" + key, "expected a string, got " + brief(*v), "a string");
  return v->get<std::string>();
}

std::string optional_string(const nlohmann::json& obj, const char* key, const std::string& where) {
  return optional_key(obj, key) ? required_string(obj, key, where) : std::string();
}

void reject_unknown_keys(const nlohmann::json& obj, const std::set<std::string>& allowed, const std::string& where) {
  for (const auto& [key, v] : obj.items()) {
    if (allowed.count(key)) continue;
    std::string names;
    for (const auto& a : allowed) names += (names.empty() ? "" : ", ") + a;
    throw bad_input(where + "/" + cut(key, 60), "unknown key '" + cut(key, 60) + "'", "one of " + names);
  }
}

std::vector<double> number_array(const nlohmann::json& v, const std::string& where) {
  if (!v.is_array()) throw bad_input(where, "expected an array of numbers, got " + brief(v));
  std::vector<double> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number()) throw bad_input(where + "/" + std::to_string(i), "expected a number, got " + brief(v[i]));
    out.push_back(v[i].get<double>());
  }
  return out;
}

// One of `names`, or bad input listing them.
void require_one_of(const std::string& value, const std::vector<std::string>& names, const std::string& where, const std::string& what) {
  std::string all;
  for (const auto& n : names) {
    if (n == value) return;
    all += (all.empty() ? "" : ", ") + n;
  }
  throw bad_input(where, "method has no " + what + " '" + cut(value, 60) + "'", "one of " + all);
}

// {"field": a field of the method, "series": one of its series, "tab": the window's view}: what is shown first.
nlohmann::json parse_view(const nlohmann::json& v, const std::string& where, const MethodInfo& info) {
  if (!v.is_object()) throw bad_input(where, "expected an object, got " + brief(v), "{\"field\": ..., \"series\": ..., \"tab\": ...}");
  reject_unknown_keys(v, {"field", "series", "tab"}, where);
  // The view the window opens on: the preset's teaching picture.
  if (optional_key(v, "tab")) {
    const std::string tab = required_string(v, "tab", where);
    if (tab != "field" && tab != "plot" && tab != "scene")
      throw bad_input(where + "/tab", "unknown view tab '" + cut(tab, 60) + "'", "field, plot or scene");
  }
  if (optional_key(v, "field")) {
    std::vector<std::string> names;
    for (const auto& f : info.fields) names.push_back(f.name);
    require_one_of(required_string(v, "field", where), names, where + "/field", "field");
  }
  if (optional_key(v, "series")) require_one_of(required_string(v, "series", where), info.series, where + "/series", "series");
  return v;
}

Reference parse_reference(const nlohmann::json& r, const std::string& where, const MethodInfo& info) {
  if (!r.is_object()) throw bad_input(where, "expected an object, got " + brief(r));
  reject_unknown_keys(r, {"series", "analytic", "table"}, where);
  Reference ref;
  ref.series = required_string(r, "series", where);
  require_one_of(ref.series, info.series, where + "/series", "series");
  const nlohmann::json* analytic = optional_key(r, "analytic");
  const nlohmann::json* table = optional_key(r, "table");
  if (bool(analytic) == bool(table)) throw bad_input(where, "needs exactly one of 'analytic' or 'table'");
  if (analytic) {
    const std::string here = where + "/analytic";
    if (!analytic->is_object()) throw bad_input(here, "expected an object, got " + brief(*analytic));
    reject_unknown_keys(*analytic, {"id"}, here);  // the exact solutions take no parameters
    ref.analytic_id = required_string(*analytic, "id", here);
    const auto ids = analytic_reference_ids();
    bool known = false;
    std::string all;
    for (const auto& id : ids) {
      known = known || id == ref.analytic_id;
      all += (all.empty() ? "" : ", ") + id;
    }
    if (!known) throw bad_input(here + "/id", "unknown analytic reference '" + ref.analytic_id + "'", "one of " + all);
    ref.source = ref.analytic_id + " (exact solution)";
  } else {
    const std::string here = where + "/table";
    if (!table->is_object()) throw bad_input(here, "expected an object, got " + brief(*table));
    reject_unknown_keys(*table, {"x", "y", "source"}, here);
    if (!optional_key(*table, "x") || !optional_key(*table, "y")) throw bad_input(here, "a table needs arrays 'x' and 'y'");
    ref.x = number_array((*table)["x"], here + "/x");
    ref.y = number_array((*table)["y"], here + "/y");
    if (ref.x.size() != ref.y.size() || ref.x.empty())
      throw bad_input(here, "'x' and 'y' must be non-empty and of equal length (got " + std::to_string(ref.x.size()) + " and " +
                                std::to_string(ref.y.size()) + ")");
    for (std::size_t i = 1; i < ref.x.size(); ++i)  // a table is interpolated between neighbours
      if (!(ref.x[i] > ref.x[i - 1]))
        throw bad_input(here + "/x/" + std::to_string(i),
                        "x[" + std::to_string(i) + "] = " + format_precise(ref.x[i]) + " after x[" + std::to_string(i - 1) +
                            "] = " + format_precise(ref.x[i - 1]),
                        "x increasing from one point to the next");
    ref.source = required_string(*table, "source", here);
  }
  return ref;
}

}  // namespace

Preset parse_preset(const nlohmann::json& doc, const std::string& file, const Registry& registry) {
  const std::string root = file + ":";
  if (!doc.is_object()) throw bad_input(file, "a preset must be a JSON object");
  reject_unknown_keys(doc, {"method", "title", "description", "paper", "case", "params", "backend", "view", "reference"}, file + ":");
  Preset p;
  p.file = file;
  p.method = required_string(doc, "method", root);
  if (!registry.has(p.method)) {
    std::string ids;
    for (const auto& id : registry.ids()) ids += (ids.empty() ? "" : ", ") + id;
    throw bad_input(root + "/method", "unknown method '" + p.method + "'", "one of " + ids);
  }
  const MethodInfo& info = registry.info(p.method);
  p.title = required_string(doc, "title", root);
  p.description = optional_string(doc, "description", root);
  p.paper = optional_string(doc, "paper", root);
  p.case_name = optional_string(doc, "case", root);
  p.params = ParamSet(info.params);
  // File parameters (ParamType::Path) written relative are read from the preset's own folder.
  if (const auto* params = optional_key(doc, "params"))
    p.params.apply_json(*params, root + "/params", std::filesystem::path(file).parent_path().string());
  if (const auto* backend = optional_key(doc, "backend")) {
    if (!backend->is_string()) throw bad_input(root + "/backend", "expected a string, got " + brief(*backend), "auto, cuda or cpu");
    p.backend = parse_backend(backend->get<std::string>(), root + "/backend");
  }
  if (const auto* view = optional_key(doc, "view")) p.view = parse_view(*view, root + "/view", info);
  if (const auto* ref = optional_key(doc, "reference")) p.reference = parse_reference(*ref, root + "/reference", info);
  return p;
}

std::string preset_file(const std::string& name) {
  std::error_code ec;
  if (fs::exists(name, ec) || has_ending(name, ".json")) return name;  // load_preset says what is wrong with it
  const fs::path shipped = preset_dir() / (name + ".json");
  if (fs::path(name).is_relative() && fs::is_regular_file(shipped, ec)) return shipped.string();
  throw bad_input("preset '" + cut(name, 200) + "'", "no such file, nor a preset of that name in " + preset_dir().string(),
                  "a preset file, or the name of a shipped one such as dvm/couette-slip (the app's preset browser and Python's "
                  "presets() list them)");
}

Preset load_preset(const std::string& path, const Registry& registry) {
  const nlohmann::json doc = parse_json_text(read_input_file(path, "preset", kMaxPresetBytes), path);
  return parse_preset(doc, path, registry);
}

}  // namespace ks
