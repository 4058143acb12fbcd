// Typed parameters: a ParamTable binds keys to struct members; MethodBase dispatches live changes.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/param_table.hpp"
#include "expect_error.hpp"
#include "io/binary_io.hpp"
#include "methods/method_base.hpp"

namespace {

using ks::Change;
using ks::ParamTable;

enum class Shape { Round, Square };

struct Toy {
  double speed = 0.0;
  int cells = 0;
  std::int64_t seed = 0;
  bool smooth = false;
  std::string file;
  Shape shape = Shape::Round;
  bool fast = false;  // choice "mode": careful / fast
};

ParamTable<Toy> make_toy_table() {
  ParamTable<Toy> t;
  t.bind(&Toy::speed, ks::quick(ks::real_param("speed", "Speed", "m/s", 2.5, 0.0, 10.0, "help")), Change::NextIteration);
  t.bind(&Toy::cells, ks::int_param("cells", "Cells", 16, 1, 4096, "help"));
  t.bind(&Toy::seed, ks::int_param("seed", "Seed", 7, 0, std::int64_t(1) << 40, "help"), Change::Nothing);
  t.bind(&Toy::smooth, ks::bool_param("smooth", "Smooth", true, "help"));
  t.bind(&Toy::file, ks::path_param("file", "File", {".csv"}, "help"));
  t.bind_choice(&Toy::shape, ks::choice_param("shape", "Shape", "square", {"round", "square"}, "help"), {Shape::Round, Shape::Square});
  t.bind_choice(&Toy::fast, ks::choice_param("mode", "Mode", "careful", {"careful", "fast"}, "help"), {false, true}, Change::NextIteration);
  return t;
}

// The table param_key(&Toy::member) reads.
const ParamTable<Toy>& param_table_of(const Toy*) {
  static const ParamTable<Toy> table = make_toy_table();
  return table;
}

TEST(ParamTable, ARefusalNamesAMemberByTheKeyTheTableBindsItTo) {
  EXPECT_EQ(ks::param_key(&Toy::fast), "mode");  // the table's key, not the member's name
  EXPECT_EQ(ks::param_key(&Toy::speed), "speed");
  EXPECT_EQ(ks::param_keys(&Toy::cells, &Toy::seed, &Toy::shape), "cells, seed, shape");
  ParamTable<Toy> partial;
  partial.bind(&Toy::speed, ks::real_param("speed", "Speed", "m/s", 2.5, 0.0, 10.0, "help"));
  EXPECT_EQ(partial.key_of(&Toy::speed), "speed");
  EXPECT_THROW(partial.key_of(&Toy::cells), std::logic_error);  // bound to no key
}

TEST(ParamTable, SpecsKeepTheOrderAndTakeLiveFromWhatAChangeDoes) {
  const auto t = make_toy_table();
  const auto& s = t.specs();
  ASSERT_EQ(s.size(), 7u);
  EXPECT_EQ(s[0].key, "speed");
  EXPECT_TRUE(s[0].live);
  EXPECT_TRUE(s[0].quick);
  EXPECT_FALSE(s[1].live);  // Resetup
  EXPECT_TRUE(s[2].live);   // Nothing: live, read where used
  EXPECT_EQ(s[6].key, "mode");
  EXPECT_TRUE(s[6].live);
}

TEST(ParamTable, DefaultsAndValuesReadIntoTheMembers) {
  const auto t = make_toy_table();
  const Toy d = t.read(ks::ParamSet(t.specs()));  // every key at its default
  EXPECT_EQ(d.speed, 2.5);
  EXPECT_EQ(d.cells, 16);
  EXPECT_EQ(d.seed, 7);
  EXPECT_TRUE(d.smooth);
  EXPECT_EQ(d.file, "");
  EXPECT_EQ(d.shape, Shape::Square);
  EXPECT_FALSE(d.fast);

  ks::ParamSet set(t.specs());
  set.apply_json({{"speed", 4}, {"cells", 33}, {"seed", 1099511627776}, {"shape", "round"}, {"mode", "fast"}, {"file", "a.csv"}}, "test");
  const Toy p = t.read(set);
  EXPECT_EQ(p.speed, 4.0);  // an integer in JSON is a real for a Real key
  EXPECT_EQ(p.cells, 33);
  EXPECT_EQ(p.seed, std::int64_t(1) << 40);
  EXPECT_EQ(p.shape, Shape::Round);
  EXPECT_TRUE(p.fast);
  EXPECT_EQ(p.file, "a.csv");
}

TEST(ParamTable, OnlyLiveKeysAreAssignedAndTheRefusalNamesThem) {
  const auto t = make_toy_table();
  Toy p = t.read(ks::ParamSet(t.specs()));
  EXPECT_EQ(t.assign_live(p, "speed", 6.0, "toy"), Change::NextIteration);
  EXPECT_EQ(p.speed, 6.0);
  EXPECT_EQ(t.assign_live(p, "seed", std::int64_t(3), "toy"), Change::Nothing);
  EXPECT_EQ(p.seed, 3);
  ks::test_support::expect_error([&] { t.assign_live(p, "cells", std::int64_t(8), "toy"); }, ks::ErrorKind::BadInput,
                                 {"'cells' is not a live parameter of toy", "speed, seed, mode"});
  EXPECT_EQ(p.cells, 16);
  ks::test_support::expect_error([&] { t.assign_live(p, "colour", 1.0, "toy"); }, ks::ErrorKind::BadInput, {"colour"});
}

TEST(ParamTable, BindingsThatCannotHoldTheirValuesAreProgrammingErrors) {
  ParamTable<Toy> t;
  EXPECT_THROW(t.bind(&Toy::cells, ks::real_param("cells", "Cells", "", 1.0, 0.0, 2.0, "help")), std::logic_error);
  EXPECT_THROW(t.bind(&Toy::cells, ks::int_param("cells", "Cells", 1, 0, std::int64_t(1) << 40, "help")), std::logic_error);
  EXPECT_THROW(t.bind_choice(&Toy::shape, ks::choice_param("shape", "S", "round", {"round", "square"}, "help"), {Shape::Round}),
               std::logic_error);
  t.bind(&Toy::speed, ks::real_param("speed", "Speed", "", 1.0, 0.0, 2.0, "help"));
  EXPECT_THROW(t.bind(&Toy::speed, ks::real_param("speed", "Speed", "", 1.0, 0.0, 2.0, "help")), std::logic_error);
}

// A method whose live change of `speed` is refused above 8 and counted otherwise, whose set-up refuses
// more than 1000 cells, and whose state is the number of cells.
const ParamTable<Toy>& toy_table() {
  static const ParamTable<Toy> t = make_toy_table();
  return t;
}

class ToyMethod final : public ks::MethodBase<ToyMethod, Toy, toy_table> {
 public:
  static ks::MethodInfo describe() {
    ks::MethodInfo i;
    i.id = "toy";
    return i;
  }
  static ks::MemoryEstimate estimate(const Toy& p, const ks::ExecutionContext&) {
    ks::MemoryEstimate m;
    m.host_bytes = 8 * std::uint64_t(p.cells);
    return m;
  }
  static double cost(const Toy& p) { return 3.0 * p.cells; }
  void advance() override {}
  bool finished() const override { return true; }
  ks::Progress progress() const override { return {}; }
  ks::Snapshot snapshot() const override { return {}; }

  const Toy& typed() const { return p_; }
  int changes = 0, state = 0;

 private:
  void set_up() override {
    if (p_.cells > 1000) throw ks::bad_input("cells", "too many", "cells <= 1000");
    state = p_.cells;
  }
  void save_body(std::ostream& out) const override { ks::bin::write<std::int32_t>(out, state); }
  void load_body(std::istream& in) override { state = ks::bin::read<std::int32_t>(in); }
  void on_live_change(const Toy& before) override {
    if (p_.speed > 8.0) throw ks::bad_input("speed", "too fast after " + std::to_string(before.speed), "speed <= 8");
    ++changes;
  }
};

TEST(MethodBase, EstimateAndSetUpReadTheTypedStructAndARefusedSetUpLeavesTheParametersAsTheyWere) {
  ToyMethod m;
  ks::ParamSet set(ToyMethod::param_table().specs());
  set.set("cells", std::int64_t(40));
  EXPECT_EQ(m.estimate_memory(set, {}).host_bytes, 320u);
  EXPECT_EQ(m.iteration_cost(set), 120.0);
  m.setup(set, {});
  EXPECT_EQ(m.state, 40);
  set.set("cells", std::int64_t(2000));
  ks::test_support::expect_error([&] { m.setup(set, {}); }, ks::ErrorKind::BadInput, {"too many"});
  EXPECT_EQ(m.typed().cells, 40);
  EXPECT_EQ(m.params().get_int("cells"), 40);
  EXPECT_EQ(m.state, 40);
}

TEST(MethodBase, CheckpointsCarryTheMethodsTagAndNeedASetUp) {
  ToyMethod m;
  std::stringstream none;
  ks::test_support::expect_error([&] { m.load_state(none); }, ks::ErrorKind::BadInput, {"toy has no set-up"});
  ks::ParamSet set(ToyMethod::param_table().specs());
  set.set("cells", std::int64_t(12));
  m.setup(set, {});
  std::stringstream saved;
  m.save_state(saved);
  set.set("cells", std::int64_t(30));
  m.setup(set, {});
  m.load_state(saved);
  EXPECT_EQ(m.state, 12);
  std::stringstream other;
  ks::bin::write_tag(other, "another.method", 1);
  ks::bin::write<std::int32_t>(other, 5);
  ks::test_support::expect_error([&] { m.load_state(other); }, ks::ErrorKind::BadInput, {"not of method 'toy'"});
  EXPECT_EQ(m.state, 12);
}

TEST(MethodBase, LiveChangesReachTheStructAndARefusedOneLeavesBothCopiesAsTheyWere) {
  ToyMethod m;
  m.setup(ks::ParamSet(ToyMethod::param_table().specs()), {});
  m.set_live("speed", 5.0);
  EXPECT_EQ(m.typed().speed, 5.0);
  EXPECT_EQ(m.params().get_real("speed"), 5.0);
  EXPECT_EQ(m.changes, 1);
  m.set_live("speed", 5.0);             // unchanged: nothing to redo
  m.set_live("seed", std::int64_t(9));  // Change::Nothing: stored, nothing redone
  EXPECT_EQ(m.changes, 1);
  EXPECT_EQ(m.typed().seed, 9);
  EXPECT_EQ(m.params().get_int("seed"), 9);
  ks::test_support::expect_error([&] { m.set_live("speed", 9.0); }, ks::ErrorKind::BadInput, {"too fast after 5"});
  EXPECT_EQ(m.typed().speed, 5.0);
  EXPECT_EQ(m.params().get_real("speed"), 5.0);
  ks::test_support::expect_error([&] { m.set_live("cells", std::int64_t(2)); }, ks::ErrorKind::BadInput, {"not a live parameter of toy"});
  EXPECT_EQ(m.info().id, "toy");
  EXPECT_EQ(m.info().params.size(), ToyMethod::param_table().specs().size());  // static_info() adds them
}

}  // namespace
