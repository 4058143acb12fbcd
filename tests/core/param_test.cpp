// ParamSpec / ParamSet: defaults, validation of JSON and text values, and the
// messages that name the key, the source and what is allowed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/param.hpp"
#include "core/registry.hpp"
#include "expect_error.hpp"

namespace {

using ks::ParamSpec;
using ks::ParamType;
using ks::ParamValue;
using ks::test_support::error_message;

ParamSpec int_spec(const std::string& key, std::int64_t def, double lo, double hi) {
  ParamSpec s;
  s.key = key;
  s.unit = std::string(1, '1');  // (an assignment of "1" trips GCC 12's false -Wrestrict)
  s.type = ParamType::Int;
  s.default_value = def;
  s.min = lo;
  s.max = hi;
  return s;
}

ParamSpec real_spec(const std::string& key, double def, double lo, double hi, const std::string& unit = "m") {
  ParamSpec s;
  s.key = key;
  s.unit = unit;
  s.type = ParamType::Real;
  s.default_value = def;
  s.min = lo;
  s.max = hi;
  return s;
}

ParamSpec bool_spec(const std::string& key, bool def) {
  ParamSpec s;
  s.key = key;
  s.type = ParamType::Bool;
  s.default_value = def;
  return s;
}

ParamSpec choice_spec(const std::string& key, const std::string& def, std::vector<std::string> choices) {
  ParamSpec s;
  s.key = key;
  s.type = ParamType::Choice;
  s.default_value = def;
  s.choices = std::move(choices);
  return s;
}

std::vector<ParamSpec> sample_specs() {
  return {int_spec("n_s", 2000, 16, 4000000), real_spec("length", 0.5, 0.001, 10.0), bool_spec("verbose", false),
          choice_spec("kernel", "constant", {"constant", "additive", "free_molecular"})};
}

}  // namespace

TEST(ParamSet, NewSetHoldsEveryDefaultWithItsType) {
  const ks::ParamSet set(sample_specs());
  EXPECT_EQ(set.specs().size(), 4u);
  EXPECT_EQ(set.get_int("n_s"), 2000);
  EXPECT_DOUBLE_EQ(set.get_real("length"), 0.5);
  EXPECT_FALSE(set.get_bool("verbose"));
  EXPECT_EQ(set.get_choice("kernel"), "constant");
  EXPECT_TRUE(set.has("n_s"));
  EXPECT_FALSE(set.has("nope"));
  const nlohmann::json j = set.to_json();
  EXPECT_EQ(j["n_s"], 2000);
  EXPECT_TRUE(j["n_s"].is_number_integer());
  EXPECT_EQ(j["length"], 0.5);
  EXPECT_EQ(j["verbose"], false);
  EXPECT_EQ(j["kernel"], "constant");
}

TEST(ParamSet, GetRealOfAnIntParameterConverts) {
  ks::ParamSet set(sample_specs());
  set.set("n_s", ParamValue(std::int64_t{12345}));
  EXPECT_DOUBLE_EQ(set.get_real("n_s"), 12345.0);
  EXPECT_EQ(set.get_int("n_s"), 12345);
}

TEST(ParamSet, UnknownKeyNamesKeyAndListsKnownKeys) {
  const ks::ParamSet set(sample_specs());
  const std::string msg = error_message([&] { set.spec("n_x"); });
  EXPECT_NE(msg.find("unknown parameter 'n_x'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("n_s, length, verbose, kernel"), std::string::npos) << msg;
  // value() and the typed getters go through the same check.
  const std::string msg2 = error_message([&] { set.get_real("n_x"); });
  EXPECT_NE(msg2.find("n_x"), std::string::npos) << msg2;
}

TEST(ParamSet, ApplyJsonSetsKnownKeysAndKeepsOtherDefaults) {
  ks::ParamSet set(sample_specs());
  set.apply_json(nlohmann::json{{"n_s", 100}, {"kernel", "additive"}, {"length", 2}}, "file.json:/params");
  EXPECT_EQ(set.get_int("n_s"), 100);
  EXPECT_EQ(set.get_choice("kernel"), "additive");
  // An integer JSON value for a real parameter is stored as a real.
  EXPECT_TRUE(std::holds_alternative<double>(set.value("length")));
  EXPECT_DOUBLE_EQ(set.get_real("length"), 2.0);
  EXPECT_FALSE(set.get_bool("verbose"));  // untouched
}

TEST(ParamSet, ApplyJsonUnknownKeyNamesPointerAndKnownKeys) {
  ks::ParamSet set(sample_specs());
  const std::string msg = error_message([&] { set.apply_json(nlohmann::json{{"n_z", 1}}, "demo.json:/params"); });
  EXPECT_NE(msg.find("demo.json:/params/n_z"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown parameter 'n_z'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("one of n_s, length, verbose, kernel"), std::string::npos) << msg;
}

TEST(ParamSet, ApplyJsonOfNonObjectIsRefused) {
  ks::ParamSet set(sample_specs());
  const std::string msg = error_message([&] { set.apply_json(nlohmann::json::array({1, 2}), "demo.json:/params"); });
  EXPECT_NE(msg.find("demo.json:/params"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected an object"), std::string::npos) << msg;
}

TEST(ParamSet, ApplyJsonFailureNamesOffendingKeyNotAnother) {
  ks::ParamSet set(sample_specs());
  const std::string msg = error_message([&] { set.apply_json(nlohmann::json{{"length", 0.5}, {"n_s", 1}}, "p.json:/params"); });
  EXPECT_NE(msg.find("p.json:/params/n_s"), std::string::npos) << msg;
  EXPECT_EQ(msg.find("/params/length"), std::string::npos) << msg;
}

TEST(ParamValidate, WrongJsonTypeNamesKeyExpectedTypeAndAllowed) {
  const ParamSpec s = int_spec("n_s", 2000, 16, 4000000);
  const std::string msg = error_message([&] { ks::validate(s, nlohmann::json("many"), "f.json:/params/n_s"); });
  EXPECT_NE(msg.find("f.json:/params/n_s"), std::string::npos) << msg;
  EXPECT_NE(msg.find("wrong type"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected int"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[16, 4000000]"), std::string::npos) << msg;

  const std::string msg_bool = error_message([&] { ks::validate(bool_spec("verbose", false), nlohmann::json(1), "w"); });
  EXPECT_NE(msg_bool.find("expected bool"), std::string::npos) << msg_bool;
  EXPECT_NE(msg_bool.find("true or false"), std::string::npos) << msg_bool;

  const std::string msg_real = error_message([&] { ks::validate(real_spec("length", 1, 0, 2), nlohmann::json("1.0"), "w"); });
  EXPECT_NE(msg_real.find("expected real"), std::string::npos) << msg_real;

  const std::string msg_choice = error_message([&] { ks::validate(choice_spec("kernel", "a", {"a", "b"}), nlohmann::json(3), "w"); });
  EXPECT_NE(msg_choice.find("expected choice"), std::string::npos) << msg_choice;
}

TEST(ParamValidate, OutOfRangeValueNamesKeyAndAllowedRange) {
  const ParamSpec s = real_spec("length", 0.5, 0.001, 10.0, "m");
  const std::string msg = error_message([&] { ks::validate(s, nlohmann::json(11.5), "f.json:/params/length"); });
  EXPECT_NE(msg.find("f.json:/params/length"), std::string::npos) << msg;
  EXPECT_NE(msg.find("11.5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'length' is out of range"), std::string::npos) << msg;
  EXPECT_NE(msg.find("allowed: a number in [0.001, 10] m"), std::string::npos) << msg;

  const std::string low = error_message([&] { ks::validate(int_spec("n_s", 20, 16, 100), nlohmann::json(15), "w"); });
  EXPECT_NE(low.find("an integer in [16, 100]"), std::string::npos) << low;
}

TEST(ParamValidate, RangeBoundsAreInclusive) {
  const ParamSpec s = int_spec("n_s", 20, 16, 100);
  EXPECT_EQ(std::get<std::int64_t>(ks::validate(s, nlohmann::json(16), "w")), 16);
  EXPECT_EQ(std::get<std::int64_t>(ks::validate(s, nlohmann::json(100), "w")), 100);
  EXPECT_THROW(ks::validate(s, nlohmann::json(101), "w"), ks::Error);
  const ParamSpec r = real_spec("length", 1.0, 0.5, 2.0);
  EXPECT_DOUBLE_EQ(std::get<double>(ks::validate(r, nlohmann::json(0.5), "w")), 0.5);
  EXPECT_DOUBLE_EQ(std::get<double>(ks::validate(r, nlohmann::json(2.0), "w")), 2.0);
  EXPECT_THROW(ks::validate(r, nlohmann::json(0.4999), "w"), ks::Error);
}

TEST(ParamValidate, UnknownChoiceNamesValueAndListsChoices) {
  const ParamSpec s = choice_spec("kernel", "constant", {"constant", "additive", "free_molecular"});
  const std::string msg = error_message([&] { ks::validate(s, nlohmann::json("brownian"), "f.json:/params/kernel"); });
  EXPECT_NE(msg.find("f.json:/params/kernel"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"brownian\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("not a known choice"), std::string::npos) << msg;
  EXPECT_NE(msg.find("one of constant, additive, free_molecular"), std::string::npos) << msg;
  EXPECT_EQ(std::get<std::string>(ks::validate(s, nlohmann::json("additive"), "w")), "additive");
}

TEST(ParamValidate, NonIntegerForIntIsRefusedButIntegralFloatIsAccepted) {
  const ParamSpec s = int_spec("n_s", 20, 16, 100);
  const std::string msg = error_message([&] { ks::validate(s, nlohmann::json(20.5), "f.json:/params/n_s"); });
  EXPECT_NE(msg.find("f.json:/params/n_s"), std::string::npos) << msg;
  EXPECT_NE(msg.find("20.5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("an integer in [16, 100]"), std::string::npos) << msg;
  const ParamValue v = ks::validate(s, nlohmann::json(32.0), "w");
  ASSERT_TRUE(std::holds_alternative<std::int64_t>(v));
  EXPECT_EQ(std::get<std::int64_t>(v), 32);
}

TEST(ParamParseValue, ParsesEachTypeFromText) {
  EXPECT_EQ(std::get<std::int64_t>(ks::parse_value(int_spec("n", 20, 16, 100), "42", "--set n")), 42);
  EXPECT_DOUBLE_EQ(std::get<double>(ks::parse_value(real_spec("x", 1, 0, 10), "2.5e0", "--set x")), 2.5);
  EXPECT_TRUE(std::get<bool>(ks::parse_value(bool_spec("b", false), "true", "--set b")));
  EXPECT_FALSE(std::get<bool>(ks::parse_value(bool_spec("b", true), "off", "--set b")));
  EXPECT_EQ(std::get<std::string>(ks::parse_value(choice_spec("c", "a", {"a", "b"}), "b", "--set c")), "b");
}

TEST(ParamParseValue, BadNumberTextNamesSourceKeyAndAllowed) {
  const ParamSpec s = real_spec("length", 0.5, 0.001, 10.0, "m");
  for (const std::string text : {"abc", "", "1.5x", "1,5"}) {
    const std::string msg = error_message([&] { ks::parse_value(s, text, "--set length"); });
    EXPECT_NE(msg.find("--set length"), std::string::npos) << msg;
    EXPECT_NE(msg.find("'" + text + "' for 'length' is not a number"), std::string::npos) << msg;
    EXPECT_NE(msg.find("a number in [0.001, 10] m"), std::string::npos) << msg;
  }
}

TEST(ParamParseValue, NonIntegerTextForIntIsRefused) {
  const ParamSpec s = int_spec("n_s", 20, 16, 100);
  const std::string msg = error_message([&] { ks::parse_value(s, "20.5", "--set n_s"); });
  EXPECT_NE(msg.find("'20.5' for 'n_s' is not an integer"), std::string::npos) << msg;
  EXPECT_NE(msg.find("an integer in [16, 100]"), std::string::npos) << msg;
}

TEST(ParamParseValue, OutOfRangeTextNamesAllowedRange) {
  const ParamSpec s = int_spec("n_s", 20, 16, 100);
  const std::string msg = error_message([&] { ks::parse_value(s, "1000", "--set n_s"); });
  EXPECT_NE(msg.find("--set n_s"), std::string::npos) << msg;
  EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
  EXPECT_NE(msg.find("an integer in [16, 100]"), std::string::npos) << msg;
  // Non-finite text parses as a number but is never in range.
  EXPECT_THROW(ks::parse_value(real_spec("x", 1, 0, 10), "inf", "--set x"), ks::Error);
  EXPECT_THROW(ks::parse_value(real_spec("x", 1, 0, 10), "nan", "--set x"), ks::Error);
}

TEST(ParamParseValue, BadBoolAndChoiceTextListAllowedValues) {
  const std::string b = error_message([&] { ks::parse_value(bool_spec("verbose", false), "yes", "--set verbose"); });
  EXPECT_NE(b.find("'yes' for 'verbose' is not a boolean"), std::string::npos) << b;
  EXPECT_NE(b.find("true or false"), std::string::npos) << b;
  const std::string c = error_message([&] { ks::parse_value(choice_spec("kernel", "a", {"a", "b"}), "z", "--set kernel"); });
  EXPECT_NE(c.find("--set kernel"), std::string::npos) << c;
  EXPECT_NE(c.find("one of a, b"), std::string::npos) << c;
}

TEST(ParamSpecJson, DescribesRangeChoicesAndLiveFlag) {
  ParamSpec s = real_spec("length", 0.5, 0.001, 10.0);
  s.live = true;
  const nlohmann::json j = ks::to_json(s);
  EXPECT_EQ(j["key"], "length");
  EXPECT_EQ(j["type"], "real");
  EXPECT_EQ(j["min"], 0.001);
  EXPECT_EQ(j["max"], 10.0);
  EXPECT_EQ(j["default"], 0.5);
  EXPECT_EQ(j["live"], true);
  const nlohmann::json c = ks::to_json(choice_spec("kernel", "a", {"a", "b"}));
  EXPECT_EQ(c["choices"], nlohmann::json::array({"a", "b"}));
  EXPECT_FALSE(c.contains("min"));
}

// ParamType::Path: a file name as text, "" for none; the ending is checked, not the file.
TEST(ParamPath, ParsesTextKeepsEmptyAndChecksTheEnding) {
  const ParamSpec s = ks::path_param("temperature_file", "Temperature file", {".csv", ".vti"}, "help");
  EXPECT_EQ(s.type, ParamType::Path);
  EXPECT_EQ(std::get<std::string>(s.default_value), "");
  EXPECT_EQ(std::get<std::string>(ks::parse_value(s, "data/T field.csv", "--set temperature_file")), "data/T field.csv");
  EXPECT_EQ(std::get<std::string>(ks::parse_value(s, "/abs/dns.VTI", "--set temperature_file")), "/abs/dns.VTI");
  EXPECT_EQ(std::get<std::string>(ks::parse_value(s, "", "--set temperature_file")), "");
  const std::string msg = error_message([&] { ks::parse_value(s, "field.txt", "--set temperature_file"); });
  EXPECT_NE(msg.find("--set temperature_file"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'field.txt' for 'temperature_file'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("a file path ending in .csv or .vti"), std::string::npos) << msg;
  const std::string wrong = error_message([&] { ks::validate(s, nlohmann::json(3), "p.json:/params/temperature_file"); });
  EXPECT_NE(wrong.find("p.json:/params/temperature_file"), std::string::npos) << wrong;
  EXPECT_NE(wrong.find("wrong type (expected path)"), std::string::npos) << wrong;
  // Any file when no endings are declared.
  EXPECT_EQ(std::get<std::string>(ks::parse_value(ks::path_param("f", "F", {}, ""), "notes.txt", "w")), "notes.txt");
}

TEST(ParamPath, JsonRoundTripAndPresetRelativeResolution) {
  std::vector<ParamSpec> specs = sample_specs();
  specs.push_back(ks::path_param("temperature_file", "Temperature file", {".csv", ".vti"}, "help"));
  ks::ParamSet set(specs);
  EXPECT_EQ(set.get_path("temperature_file"), "");
  // A preset's relative path is read from the preset's folder; absolute paths and "" stay as they are.
  set.apply_json(nlohmann::json{{"temperature_file", "data/../data/hot.csv"}}, "presets/x.json:/params", "presets/radiation");
  EXPECT_EQ(set.get_path("temperature_file"), "presets/radiation/data/hot.csv");
  set.apply_json(nlohmann::json{{"temperature_file", "/tmp/dns.vti"}}, "p.json:/params", "presets/radiation");
  EXPECT_EQ(set.get_path("temperature_file"), "/tmp/dns.vti");
  set.apply_json(nlohmann::json{{"temperature_file", ""}}, "p.json:/params", "presets/radiation");
  EXPECT_EQ(set.get_path("temperature_file"), "");
  // A checkpoint header stores the resolved path and is read back without a base folder: JSON out and
  // back is the identity.
  set.apply_json(nlohmann::json{{"temperature_file", "data/hot.csv"}}, "p.json:/params", "presets/radiation");
  const nlohmann::json j = set.to_json();
  EXPECT_EQ(j["temperature_file"], "presets/radiation/data/hot.csv");
  ks::ParamSet back(specs);
  back.apply_json(j, "checkpoint:/params");
  EXPECT_EQ(back.to_json(), j);
  EXPECT_EQ(ks::to_string(back.value("temperature_file")), "presets/radiation/data/hot.csv");
}

TEST(ParamPath, SpecJsonListsTheEndingsAndTheRangeTextSaysHowPathsResolve) {
  const ParamSpec s = ks::path_param("temperature_file", "Temperature file", {".csv", ".vti"}, "help");
  const nlohmann::json j = ks::to_json(s);
  EXPECT_EQ(j["type"], "path");
  EXPECT_EQ(j["default"], "");
  EXPECT_EQ(j["extensions"], nlohmann::json::array({".csv", ".vti"}));
  EXPECT_FALSE(j.contains("min"));
  const std::string allowed = ks::allowed_range(s);
  EXPECT_NE(allowed.find("or empty"), std::string::npos) << allowed;
  EXPECT_NE(allowed.find("preset's folder"), std::string::npos) << allowed;
  EXPECT_EQ(ks::resolve_path("a.csv", ""), "a.csv");
  EXPECT_EQ(ks::resolve_path("./a.csv", "dir"), "dir/a.csv");
}

// Calls check(method id, spec, the spec it names) for every built-in parameter that names another
// through `field` ("": none); the named spec is nullptr when the method lacks it. Returns how many.
int for_each_named_parameter(std::string ks::ParamSpec::*field,
                             const std::function<void(const std::string&, const ks::ParamSpec&, const ks::ParamSpec*)>& check) {
  int count = 0;
  for (const std::string& id : ks::builtin_registry().ids()) {
    const auto& specs = ks::builtin_registry().info(id).params;
    for (const ks::ParamSpec& s : specs) {
      if ((s.*field).empty()) continue;
      ++count;
      const auto named = std::find_if(specs.begin(), specs.end(), [&](const ks::ParamSpec& c) { return c.key == s.*field; });
      check(id, s, named == specs.end() ? nullptr : &*named);
    }
  }
  return count;
}

// A parameter limited to some values of a choice names a choice parameter of its method and values
// it offers (a typo would hide the parameter in the GUI for good).
TEST(ParamSpec, ChoiceLimitedParametersNameChoicesOfTheirMethod) {
  const ks::ParamSpec mach = ks::only_when("case", {"shock"}, ks::real_param("mach", "M", "", 1.5, 1.01, 10.0, "help"));
  EXPECT_TRUE(ks::acts_when(mach, "shock"));
  EXPECT_FALSE(ks::acts_when(mach, "cavity"));
  EXPECT_TRUE(ks::acts_when(mach, ""));
  EXPECT_TRUE(ks::acts_when(ks::real_param("dt", "dt", "", 0.05, 1e-6, 1.0, "help"), "cavity"));
  const int limited =
      for_each_named_parameter(&ks::ParamSpec::when_key, [](const std::string& id, const ks::ParamSpec& s, const ks::ParamSpec* choice) {
        ASSERT_NE(choice, nullptr) << id << ": '" << s.key << "' depends on '" << s.when_key << "', which the method lacks";
        ASSERT_EQ(choice->type, ks::ParamType::Choice) << id << ": '" << s.when_key << "'";
        ASSERT_FALSE(s.when_values.empty()) << id << ": '" << s.key << "'";
        for (const std::string& v : s.when_values)
          EXPECT_NE(std::find(choice->choices.begin(), choice->choices.end(), v), choice->choices.end())
              << id << ": '" << s.key << "' names " << s.when_key << " = '" << v << "'";
      });
  EXPECT_GT(limited, 0);
}

// A parameter set by another names a numeric parameter of its method (the GUI greys it out while
// that one is above 0); kinetic.bgk's time step is set by its Courant number.
TEST(ParamSpec, OverridingParametersAreNumbersOfTheirMethod) {
  std::vector<std::string> overridden;
  for_each_named_parameter(&ks::ParamSpec::overridden_by, [&](const std::string& id, const ks::ParamSpec& s, const ks::ParamSpec* setter) {
    overridden.push_back(id + ":" + s.key);
    ASSERT_NE(setter, nullptr) << id << ": '" << s.key << "' is set by '" << s.overridden_by << "', which the method lacks";
    EXPECT_TRUE(setter->type == ks::ParamType::Real || setter->type == ks::ParamType::Int) << id << ": '" << s.overridden_by << "'";
    EXPECT_EQ(ks::to_json(s).at("overridden_by"), s.overridden_by);
  });
  EXPECT_NE(std::find(overridden.begin(), overridden.end(), "kinetic.bgk:dt"), overridden.end());
}
