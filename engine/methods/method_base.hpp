// What every method repeats, once: its static info, its typed parameters (the struct P read from the
// ParamSet through the method's table), the execution context, the live dispatch and the
// checkpoint's tag. Derived provides
//   static MethodInfo describe();  // id, title, paper, fields, series (static_info() adds the table's)
//   static MemoryEstimate estimate(const P&, const ExecutionContext&);  // what set_up() would allocate
//   static double cost(const P&);  // what an iteration costs (Method::iteration_cost)
// and overrides the typed hooks below: set_up() (p_ and ctx_ hold the new values), save_body() and
// load_body() (the state after the tag), write_display() where the CUDA backend draws fields without
// a copy, on_live_change() where a live change must redo something (Change::NextIteration). A Derived whose checkpoint layout changes
// declares its own state_version.
#pragma once

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/param_table.hpp"
#include "io/binary_io.hpp"

namespace ks {

template <class Derived, class P, const ParamTable<P>& (*table)()>
class MethodBase : public Method {
 public:
  static const ParamTable<P>& param_table() { return table(); }
  static constexpr std::uint32_t state_version = 1;  // of the layout save_body() writes

  // Derived::describe() with the parameters of the table, built once.
  static const MethodInfo& static_info() {
    static const MethodInfo info = [] {
      MethodInfo i = Derived::describe();
      i.params = param_table().specs();
      return i;
    }();
    return info;
  }
  const MethodInfo& info() const final { return static_info(); }
  const ParamSet& params() const final { return params_; }

  MemoryEstimate estimate_memory(const ParamSet& params, const ExecutionContext& ctx) const final {
    return Derived::estimate(param_table().read(params), ctx);
  }
  double iteration_cost(const ParamSet& params) const final { return Derived::cost(param_table().read(params)); }

  // p_, params_ and ctx_ take the new values, then set_up() builds the state from them; a set-up that
  // throws leaves the three as they were (set_up() itself changes nothing before it can no longer fail).
  void setup(const ParamSet& params, const ExecutionContext& ctx) final {
    const P p = param_table().read(params);
    const ParamSet params_before = params_;
    const P p_before = p_;
    const ExecutionContext ctx_before = ctx_;
    params_ = params;
    p_ = p;
    ctx_ = ctx;
    try {
      set_up();
    } catch (...) {
      params_ = params_before;
      p_ = p_before;
      ctx_ = ctx_before;
      throw;
    }
    set_up_once_ = true;
  }

  // Stores the value in params_ and p_, then lets the method redo what depends on it; a change the
  // method refuses (it throws) leaves both as they were.
  void set_live(const std::string& key, const ParamValue& value) final {
    const P before = p_;
    const Change change = param_table().assign_live(p_, key, value, info().id);
    const ParamValue old = params_.value(key);
    if (old == value) return;  // the same value: nothing to redo
    params_.set(key, value);
    if (change != Change::NextIteration) return;
    try {
      on_live_change(before);
    } catch (...) {
      p_ = before;
      params_.set(key, old);
      throw;
    }
  }

  std::size_t write_display_field(const std::string& name, int component, void* device_dst, std::size_t capacity) const final {
    const int field = field_index(info().fields, name);
    return field < 0 ? 0 : write_display(field, component, device_dst, capacity);
  }

  void save_state(std::ostream& out) const final {
    bin::write_tag(out, info().id, Derived::state_version);
    save_body(out);
  }
  void load_state(std::istream& in) final {
    if (!set_up_once_) throw bad_input("checkpoint", info().id + " has no set-up to load a state into", "a state loaded after setup");
    bin::expect_tag(in, info().id, Derived::state_version);
    load_body(in);
  }

 protected:
  MethodBase() : params_(param_table().specs()), p_(param_table().read(params_)) {}

  virtual void set_up() = 0;
  virtual void save_body(std::ostream& out) const = 0;
  // Every count and index read is validated against the set-up; a refused state leaves the method as
  // it was.
  virtual void load_body(std::istream& in) = 0;
  // Method::write_display_field for field index `field` of info().fields (0 where it cannot).
  virtual std::size_t write_display(int field, int component, void* device_dst, std::size_t capacity) const {
    (void)field, (void)component, (void)device_dst, (void)capacity;
    return 0;
  }
  // After a live change of a Change::NextIteration parameter (p_ holds the new value, `before` the old).
  virtual void on_live_change(const P& before) { (void)before; }

  ParamSet params_;       // as given, for params() and checkpoints
  P p_;                   // the same values, typed: what the method's code reads
  ExecutionContext ctx_;  // the backend and device of the last set-up

 private:
  bool set_up_once_ = false;
};

}  // namespace ks
