// What every method repeats, once: its static info, its typed parameters (the struct P read from the
// ParamSet through Derived::param_table()) and the live dispatch. Derived provides
//   static MethodInfo describe();                      // id, title, paper, fields, series
//   static const ParamTable<P>& param_table();
// and overrides on_live_change() where a live change must redo something (Change::NextIteration).
#pragma once

#include <string>

#include "method.hpp"
#include "param_table.hpp"

namespace ks {

template <class Derived, class P>
class MethodBase : public Method {
 public:
  // Derived::describe() with the parameters of the table, built once.
  static const MethodInfo& static_info() {
    static const MethodInfo info = [] {
      MethodInfo i = Derived::describe();
      i.params = Derived::param_table().specs();
      return i;
    }();
    return info;
  }
  const MethodInfo& info() const final { return static_info(); }
  const ParamSet& params() const final { return params_; }

  // Stores the value in params_ and p_, then lets the method redo what depends on it; a change the
  // method refuses (it throws) leaves both as they were.
  void set_live(const std::string& key, const ParamValue& value) final {
    const P before = p_;
    const Change change = Derived::param_table().assign_live(p_, key, value, info().id);
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

 protected:
  MethodBase() : params_(Derived::param_table().specs()), p_(Derived::param_table().read(params_)) {}

  // At setup(): the values every later read comes from.
  void take_params(const ParamSet& set) {
    p_ = Derived::param_table().read(set);
    params_ = set;
  }
  // After a live change of a Change::NextIteration parameter (p_ holds the new value, `before` the old).
  virtual void on_live_change(const P& before) { (void)before; }

  ParamSet params_;  // as given, for params() and checkpoints
  P p_;              // the same values, typed: what the method's code reads
};

}  // namespace ks
