#include "registry.hpp"

#include "errors.hpp"

namespace ks {

void Registry::add(const MethodInfo& info, MethodFactory factory) { entries_.push_back({info, std::move(factory)}); }

std::vector<std::string> Registry::ids() const {
  std::vector<std::string> out;
  for (const auto& e : entries_) out.push_back(e.info.id);
  return out;
}

bool Registry::has(const std::string& id) const {
  for (const auto& e : entries_)
    if (e.info.id == id) return true;
  return false;
}

const Registry::Entry& Registry::find(const std::string& id) const {
  for (const auto& e : entries_)
    if (e.info.id == id) return e;
  std::string known;
  for (const auto& e : entries_) known += (known.empty() ? "" : ", ") + e.info.id;
  throw bad_input("", "unknown method '" + id + "'", known.empty() ? "(no methods registered)" : "one of " + known);
}

nlohmann::json describe(const MethodInfo& info) {
  nlohmann::json j = {{"id", info.id}, {"title", info.title}, {"paper", info.paper}, {"series", info.series}};
  j["params"] = nlohmann::json::array();
  for (const auto& p : info.params) j["params"].push_back(to_json(p));
  j["fields"] = nlohmann::json::array();
  for (const auto& f : info.fields)
    j["fields"].push_back({{"name", f.name}, {"unit", f.unit}, {"components", f.components}, {"help", f.help}});
  return j;
}

const MethodInfo& Registry::info(const std::string& id) const { return find(id).info; }

std::unique_ptr<Method> Registry::create(const std::string& id) const { return find(id).factory(); }

}  // namespace ks
