// Methods by id. The app and the CLI list and create methods only through here.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "method.hpp"

namespace ks {

using MethodFactory = std::function<std::unique_ptr<Method>()>;

class Registry {
 public:
  void add(const MethodInfo& info, MethodFactory factory);
  // A method class with static_info() (methods/method_base.hpp), made by its default constructor.
  template <class M>
  void add() {
    add(M::static_info(), [] { return std::make_unique<M>(); });
  }
  std::vector<std::string> ids() const;
  bool has(const std::string& id) const;
  const MethodInfo& info(const std::string& id) const;  // throws bad_input for unknown ids
  std::unique_ptr<Method> create(const std::string& id) const;

 private:
  struct Entry {
    MethodInfo info;
    MethodFactory factory;
  };
  std::vector<Entry> entries_;
  const Entry& find(const std::string& id) const;
};

// A method as `kinetic-run --describe` prints it and the Python module's describe() returns it: id,
// title, paper, series, every parameter (core/param.hpp: to_json) and every field.
nlohmann::json describe(const MethodInfo& info);

// The registry with every built-in method (see engine/methods/builtin_methods.cpp).
const Registry& builtin_registry();

}  // namespace ks
