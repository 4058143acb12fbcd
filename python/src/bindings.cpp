// kinetic_studio._core: the engine's methods, presets and Runner for Python. The Python package
// (python/kinetic_studio) wraps Simulation with its run loop, progress bar and Ctrl-C handling.
#include <cmath>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "core/backend.hpp"
#include "core/data_dir.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "core/text.hpp"
#include "session.hpp"
#ifdef KS_WITH_VTK_IO
#include "vtk_grid_file.hpp"
#endif

namespace pyb = pybind11;
using ks::py::Session;

namespace {

std::string type_name(const pyb::handle& v) { return pyb::str(v.get_type().attr("__name__")); }

// Python's own words for what a conversion raised ("ZeroDivisionError: ..."), cleared.
std::string python_error(pyb::error_already_set& e) {
  std::string text = e.what();
  e.restore();
  PyErr_Clear();
  return ks::cut(text.substr(0, text.find('\n')), 160);  // without pybind11's traceback lines
}

// An int or NumPy integer within 64 bits.
std::int64_t to_integer(const pyb::handle& v, const std::string& where) {
  const pyb::object i = pyb::reinterpret_steal<pyb::object>(PyNumber_Index(v.ptr()));
  if (!i) {  // __index__ refused (a NumPy array of more than one value)
    pyb::error_already_set e;
    throw ks::bad_input(where, "a value of Python type '" + type_name(v) + "' that is not one integer (" + python_error(e) + ")",
                        "a number, a bool or a string");
  }
  int overflow = 0;
  const long long n = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow || (n == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    throw ks::bad_input(where, "the integer " + ks::cut(std::string(pyb::str(v)), 40) + " is beyond 64 bits",
                        "an integer from -9223372036854775808 to 9223372036854775807");
  }
  return n;
}

// A float or anything with __float__ (NumPy floats, one-element arrays), finite.
double to_number(const pyb::handle& v, const std::string& where) {
  double x = 0.0;
  try {
    x = pyb::float_(pyb::reinterpret_borrow<pyb::object>(v));
  } catch (pyb::error_already_set& e) {
    throw ks::bad_input(where, "a value of Python type '" + type_name(v) + "' that float() refuses (" + python_error(e) + ")",
                        "a number, a bool or a string");
  }
  if (!std::isfinite(x)) throw ks::bad_input(where, "the value " + std::string(pyb::str(v)), "a finite number");
  return x;
}

// A str as UTF-8 (a lone surrogate has none).
std::string to_text(const pyb::handle& v, const std::string& where) {
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(v.ptr(), &size);
  if (!utf8) {
    PyErr_Clear();
    throw ks::bad_input(where, "a string that is not valid Unicode (a lone surrogate such as '\\ud800')", "text that encodes as UTF-8");
  }
  return std::string(utf8, std::size_t(size));
}

// Python values (dict, list, str, bool, int, float, None, NumPy scalars) as JSON, as a preset holds
// them; `where` names the argument (and the key) in errors.
nlohmann::json to_json(const pyb::handle& v, const std::string& where) {
  if (v.is_none()) return nullptr;
  if (pyb::isinstance<pyb::bool_>(v)) return v.cast<bool>();
  if (PyIndex_Check(v.ptr())) return to_integer(v, where);  // int and NumPy integers
  if (pyb::isinstance<pyb::str>(v)) return to_text(v, where);
  if (pyb::isinstance<pyb::float_>(v) || pyb::hasattr(v, "__float__")) return to_number(v, where);
  if (pyb::isinstance<pyb::dict>(v)) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [key, value] : v.cast<pyb::dict>()) {
      const std::string name = pyb::isinstance<pyb::str>(key) ? to_text(key, where) : std::string(pyb::str(key));
      j[name] = to_json(value, where + "/" + name);
    }
    return j;
  }
  if (pyb::isinstance<pyb::list>(v) || pyb::isinstance<pyb::tuple>(v)) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& item : v) j.push_back(to_json(item, where + "/" + std::to_string(j.size())));
    return j;
  }
  throw ks::bad_input(where, "a value of Python type '" + type_name(v) + "'", "a number, a bool or a string");
}

// A parameter's value as Runner::set takes it (it checks the type and range).
ks::ParamValue param_value(const pyb::handle& value, const std::string& where) {
  const nlohmann::json j = to_json(value, where);
  if (j.is_boolean()) return j.get<bool>();
  if (j.is_number_integer()) return j.get<std::int64_t>();
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) return j.get<std::string>();
  throw ks::bad_input(where, "a value of Python type '" + type_name(value) + "'", "a number, a bool or a string");
}

// Through Python's json module: dicts, lists, numbers, strings as Python's own.
pyb::object to_python(const nlohmann::json& j) {
  return pyb::module_::import("json").attr("loads")(j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

pyb::object to_python(const ks::ParamValue& v) {
  return std::visit([](const auto& x) -> pyb::object { return pyb::cast(x); }, v);
}

pyb::dict params_dict(const ks::ParamSet& params) {
  pyb::dict d;
  for (const auto& s : params.specs()) d[pyb::str(s.key)] = to_python(params.value(s.key));
  return d;
}

pyb::dict progress_dict(const ks::Progress& p) {
  pyb::dict d;
  d["iteration"] = p.iteration;
  d["time"] = p.sim_time;
  d["time_unit"] = p.time_unit;
  d["residual"] = p.residual;
  d["fraction_done"] = p.fraction_done;
  d["end_condition"] = p.end_condition;
  d["work_done"] = p.work_done;
  d["work_unit"] = p.work_unit;
  d["converged"] = p.converged;
  return d;
}

// The item of `items` whose name_of is `name`; bad input naming `what` and the names there are otherwise.
template <typename T, typename NameOf>
const T& find_named(const std::vector<T>& items, const std::string& name, NameOf name_of, const std::string& what) {
  std::string names;
  for (const T& item : items) {
    if (name_of(item) == name) return item;
    names += (names.empty() ? "" : ", ") + name_of(item);
  }
  throw ks::bad_input(what + "(\"" + name.substr(0, 60) + "\")", "no such " + what, "one of " + names);
}

const ks::FieldData& find_field(const ks::Snapshot& snap, const std::string& name) {
  return find_named(
      snap.fields, name, [](const ks::FieldData& f) { return f.desc.name; }, "field");
}

const ks::Series& find_series(const ks::Snapshot& snap, const std::string& name) {
  return find_named(
      snap.series, name, [](const ks::Series& s) { return s.name; }, "series");
}

// A read-only NumPy view of `values` that keeps `snap` alive: no copy.
pyb::array view(const std::shared_ptr<const ks::Snapshot>& snap, const double* values, std::vector<pyb::ssize_t> shape,
                std::vector<pyb::ssize_t> strides) {
  auto* owner = new std::shared_ptr<const ks::Snapshot>(snap);
  pyb::capsule base(owner, [](void* p) { delete static_cast<std::shared_ptr<const ks::Snapshot>*>(p); });
  pyb::array a(pyb::dtype::of<double>(), std::move(shape), std::move(strides), values, base);
  a.attr("flags").attr("writeable") = false;
  return a;
}

// Indexed [i, j, k(, component)] as the grid's axes x, y, z (x varies fastest in memory); with
// `squeeze` the axes of one cell are left out (a 2-D cavity gives [i, j]). Particles: [p(, component)].
pyb::array field_array(const std::shared_ptr<const ks::Snapshot>& snap, const ks::FieldData& f, bool squeeze) {
  const pyb::ssize_t c = f.desc.components, b = sizeof(double);
  std::vector<pyb::ssize_t> shape, strides;
  if (f.grid.kind == ks::Grid::Kind::Particles) {
    shape.push_back(static_cast<pyb::ssize_t>(f.values.size()) / c);
    strides.push_back(c * b);
  } else {
    pyb::ssize_t stride = c * b;
    for (int a = 0; a < 3; ++a) {
      if (!squeeze || f.grid.cells[a] > 1) {
        shape.push_back(f.grid.cells[a]);
        strides.push_back(stride);
      }
      stride *= f.grid.cells[a];
    }
  }
  if (c > 1) {
    shape.push_back(c);
    strides.push_back(b);
  }
  return view(snap, f.values.data(), std::move(shape), std::move(strides));
}

pyb::array copy_of(const std::vector<double>& v) { return pyb::array_t<double>(static_cast<pyb::ssize_t>(v.size()), v.data()); }

// Where the field's values sit: cell centres along each axis (all three, as the grid has them), or
// the particles' positions; with the axes' names and units.
pyb::dict grid_dict(const ks::FieldData& f) {
  pyb::dict d;
  const ks::Grid& g = f.grid;
  pyb::list axes;
  for (const auto& a : g.axes) axes.append(pyb::make_tuple(a.name, a.unit));
  d["axes"] = axes;
  d["unit"] = f.desc.unit;
  d["components"] = f.desc.components;
  if (g.kind == ks::Grid::Kind::Particles) {
    d["kind"] = "particles";
    pyb::array_t<double> pos({static_cast<pyb::ssize_t>(f.positions.size()), pyb::ssize_t(3)});
    auto w = pos.mutable_unchecked<2>();
    for (std::size_t p = 0; p < f.positions.size(); ++p)
      for (int a = 0; a < 3; ++a) w(p, a) = f.positions[p][a];
    d["positions"] = pos;
    return d;
  }
  d["kind"] = g.rectilinear() ? "rectilinear" : "uniform";
  d["cells"] = pyb::make_tuple(g.cells[0], g.cells[1], g.cells[2]);
  d["origin"] = pyb::make_tuple(g.origin[0], g.origin[1], g.origin[2]);
  d["spacing"] = pyb::make_tuple(g.spacing[0], g.spacing[1], g.spacing[2]);
  pyb::list centres;
  for (int a = 0; a < 3; ++a) {
    std::vector<double> c(g.cells[a]);
    for (int i = 0; i < g.cells[a]; ++i) c[i] = g.centre(a, i);
    centres.append(copy_of(c));
  }
  d["centres"] = centres;
  return d;
}

pyb::dict cuda_status() {
  const ks::CudaAvailability c = ks::query_cuda();
  pyb::dict d;
  d["compiled"] = c.compiled;
  d["usable"] = c.usable;
  d["device"] = c.device_name;
  d["reason"] = c.reason;
  return d;
}

// ks::Error as the Python exceptions of kinetic_studio.errors (BadInput is a ValueError,
// BackendUnavailable and RunFailed are RuntimeErrors).
void register_errors() {
  // Kept for the process's life: a static py::object would be released after the interpreter ended.
  static const pyb::object* errors = new pyb::object(pyb::module_::import("kinetic_studio.errors"));
  pyb::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ks::Error& e) {
      const char* name = e.kind() == ks::ErrorKind::BadInput             ? "BadInput"
                         : e.kind() == ks::ErrorKind::BackendUnavailable ? "BackendUnavailable"
                                                                         : "RunFailed";
      PyErr_SetString(errors->attr(name).ptr(), e.what());
    }
  });
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "Kinetic Studio's engine: methods, presets and simulations (use the kinetic_studio package)";
#ifdef KS_WITH_VTK_IO
  ks::vtk_io::install();  // temperature files VTK reads (.vtr, .vtu, every .vti), as kinetic-run does
#endif
  register_errors();
  m.def(
      "locate_data", [](const std::string& module_file) { ks::locate_data_from(module_file, KS_PYTHON_PREFIX_LEVELS); },
      "Finds the presets and resources from the module's own file (called by the package on import)");
  m.def(
      "methods", [] { return ks::builtin_registry().ids(); }, "The methods' ids");
  m.def(
      "describe", [](const std::string& id) { return to_python(ks::describe(ks::builtin_registry().info(id))); }, pyb::arg("method"),
      "A method's title, paper, parameters (with ranges), fields and series");
  m.def(
      "preset_dir", [] { return ks::preset_dir().string(); }, "The folder of the presets shipped with Kinetic Studio");
  m.def("cuda", &cuda_status, "Whether this build has CUDA and a usable GPU, and why not");
  m.attr("version") = KS_VERSION;

  pyb::class_<Session>(m, "Session")
      .def_static("from_preset",
                  [](const std::string& preset, const std::string& backend, const pyb::dict& overrides) {
                    const nlohmann::json o = to_json(overrides, "params");
                    pyb::gil_scoped_release release;
                    return Session::from_preset(preset, backend, o);
                  })
      .def_static("from_method",
                  [](const std::string& method, const std::string& backend, const pyb::dict& params) {
                    const nlohmann::json p = to_json(params, "params");
                    pyb::gil_scoped_release release;
                    return Session::from_method(method, backend, p);
                  })
      .def_static("restart", &Session::restart, pyb::call_guard<pyb::gil_scoped_release>())
      .def(
          "start",
          [](Session& s) {
            s.runner().start();
            // Returns once the worker took it, so that state says "running" (or already "finished").
            s.runner().wait_until([](ks::RunState r) { return r != ks::RunState::Idle && r != ks::RunState::Paused; },
                                  std::chrono::seconds(5));
          },
          pyb::call_guard<pyb::gil_scoped_release>())
      .def("pause", [](Session& s) { s.runner().pause(); })
      .def("step",
           [](Session& s, const pyb::handle& count) {
             const std::int64_t n = to_integer(count, "step(" + ks::cut(std::string(pyb::str(count)), 40) + ")");
             if (n < 1) throw ks::bad_input("step(" + std::to_string(n) + ")", "the number of iterations must be at least 1");
             s.runner().step(n);
           })
      .def("reset", [](Session& s) { s.runner().reset(); })
      .def("wait", &Session::wait, pyb::call_guard<pyb::gil_scoped_release>(),
           "Whether the run settled (paused, finished, failed) within the seconds given (< 0: no limit)")
      .def("throw_if_failed", &Session::throw_if_failed)
      .def("set",
           [](Session& s, const std::string& key, const pyb::handle& value) {
             const ks::SetResult r = s.runner().set(key, param_value(value, "set(" + key + "=...)"));
             if (r.status == ks::SetResult::Status::Refused) throw ks::bad_input("set(" + key + "=...)", r.message);
             return pyb::make_tuple(r.status == ks::SetResult::Status::Applied ? "applied" : "deferred", r.message);
           })
      .def_property_readonly("method", [](const Session& s) { return s.runner().info().id; })
      .def_property_readonly("title", [](const Session& s) { return s.preset().title; })
      .def_property_readonly("preset_file", [](const Session& s) { return s.preset().file; })
      .def_property_readonly("device", [](const Session& s) { return s.runner().context().device_name; })
      .def_property_readonly("backend", [](const Session& s) { return ks::to_string(s.runner().context().backend); })
      .def_property_readonly("cuda_unused", [](const Session& s) { return s.runner().context().cuda_unused_reason; })
      .def_property_readonly("params", [](const Session& s) { return params_dict(s.runner().params()); })
      .def_property_readonly("pending_params", [](const Session& s) { return params_dict(s.runner().pending_params()); })
      .def_property_readonly("state", [](const Session& s) { return ks::to_string(s.runner().state()); })
      .def_property_readonly("progress", [](const Session& s) { return progress_dict(s.runner().progress()); })
      .def_property_readonly("work_per_second", [](const Session& s) { return s.runner().work_per_second(); })
      .def_property_readonly("iteration_seconds", [](const Session& s) { return s.runner().iteration_seconds(); })
      .def("messages", [](Session& s) { return s.runner().take_messages(); })
      .def("field_names",
           [](const Session& s) {
             std::vector<std::string> names;
             for (const auto& f : s.snapshot()->fields) names.push_back(f.desc.name);
             return names;
           })
      .def("series_names",
           [](const Session& s) {
             std::vector<std::string> names;
             for (const auto& x : s.snapshot()->series) names.push_back(x.name);
             return names;
           })
      .def("field",
           [](const Session& s, const std::string& name, bool squeeze) {
             const auto snap = s.snapshot();
             return field_array(snap, find_field(*snap, name), squeeze);
           })
      .def("grid", [](const Session& s, const std::string& name) { return grid_dict(find_field(*s.snapshot(), name)); })
      .def("series",
           [](const Session& s, const std::string& name) {
             const auto snap = s.snapshot();
             const ks::Series& x = find_series(*snap, name);
             return pyb::make_tuple(copy_of(x.x), copy_of(x.y));
           })
      .def("series_info",
           [](const Session& s, const std::string& name) {
             const ks::Series& x = find_series(*s.snapshot(), name);
             pyb::dict d;
             d["x_label"] = x.x_label;
             d["y_label"] = x.y_label;
             d["y_err"] = x.y_err.empty() ? pyb::object(pyb::none()) : pyb::object(copy_of(x.y_err));
             d["log_x"] = x.log_x;
             d["log_y"] = x.log_y;
             return d;
           })
      .def("diagnostics", [](const Session& s) { return to_python(s.snapshot()->diagnostics); })
      .def("summary", [](const Session& s, const std::string& stop_reason) { return to_python(s.summary(stop_reason)); })
      .def("save", &Session::save, pyb::call_guard<pyb::gil_scoped_release>())
      .def("checkpoint", &Session::checkpoint, pyb::call_guard<pyb::gil_scoped_release>())
      .def(
          "close", [](Session& s) { s.runner().stop(); }, pyb::call_guard<pyb::gil_scoped_release>(),
          "Ends the worker after the current iteration (the last state stays readable)");
}
