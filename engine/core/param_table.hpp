// Typed parameters: a method declares a plain struct of its parameters and one ParamTable that binds
// each key to a member, its ParamSpec (label, unit, range, help) and what a change does. The specs
// (`--describe`, the GUI panel), reading a ParamSet into the struct and the live dispatch all come
// from that table, so the method's code reads `p.kn`, never "kn".
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "param.hpp"

namespace ks {

// What changing a parameter while the method runs does.
enum class Change {
  Resetup,        // nothing live: a new value needs a new set-up (the GUI's Apply & reset)
  Nothing,        // live; the method reads the member where it uses it, nothing to redo
  NextIteration,  // live; the method redoes what depends on it before the next iteration
};

// `spec` shown as a quick slider in the field-view overlay.
inline ParamSpec quick(ParamSpec spec) {
  spec.quick = true;
  return spec;
}

template <class P>
class ParamTable {
 public:
  // A number, flag or path held as the member's own type (int and int64 members take Int specs,
  // double Real, bool Bool, std::string Path or Choice).
  template <class T>
  ParamTable& bind(T P::*member, ParamSpec spec, Change change = Change::Resetup) {
    static_assert(std::is_same_v<T, double> || std::is_same_v<T, int> || std::is_same_v<T, std::int64_t> || std::is_same_v<T, bool> ||
                      std::is_same_v<T, std::string>,
                  "bind a double, int, int64, bool or string member (an enum: bind_choice)");
    check_type<T>(spec);
    add(std::move(spec), change, offset_of(member), [member](P& p, const ParamValue& v) { p.*member = from_value<T>(v); });
    return *this;
  }

  // A Choice held as an enum (or a bool): `values[i]` is what spec.choices[i] means.
  template <class E>
  ParamTable& bind_choice(E P::*member, ParamSpec spec, std::vector<E> values, Change change = Change::Resetup) {
    static_assert(std::is_enum_v<E> || std::is_same_v<E, bool>);
    if (spec.type != ParamType::Choice || values.size() != spec.choices.size())
      throw std::logic_error("bind_choice '" + spec.key + "': one enum value per choice");
    const std::vector<std::string> names = spec.choices;
    add(std::move(spec), change, offset_of(member), [member, names, values](P& p, const ParamValue& v) {
      const auto& name = std::get<std::string>(v);
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) p.*member = values[i];
    });
    return *this;
  }

  // The key bound to `member`: refusals name a parameter through here (param_key(&DvmParams::mach)), so
  // the name they give is the table's. A member no key is bound to is a programming error.
  template <class T>
  const std::string& key_of(T P::*member) const {
    const std::size_t offset = offset_of(member);
    for (const auto& e : entries_)
      if (e.offset == offset) return e.key;
    throw std::logic_error("key_of: the member at offset " + std::to_string(offset) + " is bound to no key");
  }

  // Every spec in declaration order, `live` set from its Change.
  const std::vector<ParamSpec>& specs() const { return specs_; }

  // The struct holding the values of `set` (complete and validated, see ParamSet).
  P read(const ParamSet& set) const {
    P p{};
    for (const auto& e : entries_) e.store(p, set.value(e.key));
    return p;
  }

  // Stores the validated `value` of live parameter `key` in `p` and returns what the change does;
  // a key that is not live is refused naming the live ones of `method`.
  Change assign_live(P& p, const std::string& key, const ParamValue& value, const std::string& method) const {
    for (const auto& e : entries_)
      if (e.key == key && e.change != Change::Resetup) {
        e.store(p, value);
        return e.change;
      }
    std::string live;
    for (const auto& e : entries_)
      if (e.change != Change::Resetup) live += (live.empty() ? "" : ", ") + e.key;
    throw bad_input(key, "'" + key + "' is not a live parameter of " + method, live.empty() ? "none" : live);
  }

 private:
  struct Entry {
    std::string key;
    Change change;
    std::size_t offset;  // of the member in P: what key_of finds it by
    std::function<void(P&, const ParamValue&)> store;
  };

  void add(ParamSpec spec, Change change, std::size_t offset, std::function<void(P&, const ParamValue&)> store) {
    for (const auto& e : entries_)
      if (e.key == spec.key) throw std::logic_error("parameter '" + spec.key + "' bound twice");
    spec.live = change != Change::Resetup;
    entries_.push_back({spec.key, change, offset, std::move(store)});
    specs_.push_back(std::move(spec));
  }

  // Where `member` lies in a P (the same for every P object).
  template <class T>
  static std::size_t offset_of(T P::*member) {
    static const P probe{};
    return std::size_t(reinterpret_cast<const char*>(&(probe.*member)) - reinterpret_cast<const char*>(&probe));
  }

  template <class T>
  static void check_type(const ParamSpec& s) {
    const bool ok = std::is_same_v<T, double>                                   ? s.type == ParamType::Real
                    : std::is_same_v<T, int> || std::is_same_v<T, std::int64_t> ? s.type == ParamType::Int
                    : std::is_same_v<T, bool>                                   ? s.type == ParamType::Bool
                                                                                : s.type == ParamType::Path || s.type == ParamType::Choice;
    if (!ok) throw std::logic_error("parameter '" + s.key + "' is bound to a member of another type");
    if constexpr (std::is_same_v<T, int>)
      if (s.min < -2147483648.0 || s.max > 2147483647.0)
        throw std::logic_error("parameter '" + s.key + "' has a range wider than its int member");
  }

  template <class T>
  static T from_value(const ParamValue& v) {
    if constexpr (std::is_same_v<T, double>) {
      if (const auto* i = std::get_if<std::int64_t>(&v)) return double(*i);
      return std::get<double>(v);
    } else if constexpr (std::is_same_v<T, int>) {
      return int(std::get<std::int64_t>(v));  // the spec's range fits an int (check_type)
    } else {
      return std::get<T>(v);
    }
  }

  std::vector<Entry> entries_;
  std::vector<ParamSpec> specs_;
};

// The key of a parameter struct's member from its method's table, found through the struct's own
// namespace: each X_params.hpp declares `param_table_of(const XParams*)`. Several members: their
// keys joined by ", " (a refusal about a product of them).
template <class P, class T>
const std::string& param_key(T P::*member) {
  return param_table_of(static_cast<const P*>(nullptr)).key_of(member);
}
template <class P, class T, class... More>
std::string param_keys(T P::*first, More... more) {
  return (std::string(param_key(first)) + ... + (", " + param_key(more)));
}

}  // namespace ks
