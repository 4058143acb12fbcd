#include "preset_saver.hpp"

#include "core/errors.hpp"
#include "io/input_file.hpp"

namespace ks::gui {

nlohmann::json modified_preset(const Preset& source, const ParamSet& params) {
  constexpr std::uint64_t kMaxBytes = 1 << 20;  // a preset is a few kB
  nlohmann::json doc = nlohmann::json::parse(read_input_file(source.file, "preset", kMaxBytes), nullptr, false);
  if (!doc.is_object()) throw bad_input(source.file, "the open preset's file no longer holds a preset", "a preset JSON object");
  doc["params"] = params.to_json();
  if (params.to_json() != source.params.to_json()) doc["title"] = source.title + " (modified)";
  return doc;
}

}  // namespace ks::gui
