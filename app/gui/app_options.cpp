#include "app_options.hpp"

#include <QFileInfo>
#include <QSettings>

#include "core/errors.hpp"
#include "core/registry.hpp"

namespace ks::gui {

QString app_usage() {
  return "usage: kinetic-studio [--preset FILE] [--set key=value]... [--backend auto|cuda|cpu] [--steps N]\n"
         "                      [--screenshot FILE.png] [--view field|plot|scene|window] [--export DIR] [--exit]\n"
         "Opens the window with the preset, runs N iterations, saves the screenshot and the exported\n"
         "fields, and with --exit closes when done. Then it prints one line on stdout:\n"
         "kinetic-studio: field view: backend=cpu|cuda host_uploads=N device_copies=N renderer=\"GL_RENDERER\"\n"
         "A script (any of --steps, --screenshot, --export, --exit) checks the preset and every --set before\n"
         "the window opens; errors go to stderr. Exit codes: 0 done, 1 a screenshot or export was not written,\n"
         "2 bad input (preset, option, --set key or value, or a set-up the method refuses), 3 backend\n"
         "unavailable (--backend cuda without a usable device), 4 the run failed or made no progress for 10 min.\n";
}

AppOptions parse_app_options(const QStringList& args) {
  AppOptions o;
  for (int i = 1; i < args.size(); ++i) {
    const QString a = args[i];
    auto value = [&]() -> QString {
      if (i + 1 >= args.size()) throw bad_input(a.toStdString(), "needs a value", app_usage().toStdString());
      return args[++i];
    };
    if (a == "--preset") o.preset = value();
    else if (a == "--set") {
      const QString kv = value();
      const int eq = kv.indexOf('=');
      if (eq <= 0) throw bad_input("--set", "'" + kv.toStdString() + "' is not key=value", "key=value");
      o.sets.emplace_back(kv.left(eq), kv.mid(eq + 1));
    } else if (a == "--backend") {
      o.backend = value();
      parse_backend(o.backend.toStdString(), "--backend");  // refused here, named with what is allowed
    } else if (a == "--steps") {
      bool ok = false;
      o.steps = value().toInt(&ok);
      if (!ok || o.steps < 0) throw bad_input("--steps", "'" + args[i].toStdString() + "' is not a count", "an integer >= 0");
    } else if (a == "--screenshot") o.screenshot = value();
    else if (a == "--view") {
      o.view = value();
      if (o.view != "field" && o.view != "plot" && o.view != "scene" && o.view != "window")
        throw bad_input("--view", "unknown view '" + o.view.toStdString() + "'", "field, plot, scene or window");
    } else if (a == "--export") o.export_dir = value();
    else if (a == "--exit") o.exit = true;
    else throw bad_input(a.toStdString(), "unknown option", app_usage().toStdString());
  }
  return o;
}

QString preset_dir() {
  const QByteArray env = qgetenv("KS_PRESET_DIR");
  return env.isEmpty() ? QString(KS_PRESET_DIR) : QString::fromLocal8Bit(env);
}

QString start_preset_path(const AppOptions& o) {
  if (!o.preset.isEmpty()) return o.preset;
  const QString last = QSettings().value("preset/last").toString();
  if (!last.isEmpty() && QFileInfo::exists(last)) return last;
  return preset_dir() + "/coagulation/teaching-demo.json";
}

StartPreset load_start_preset(const AppOptions& o) {
  StartPreset s;
  s.path = start_preset_path(o);
  s.preset = load_preset(s.path.toStdString(), builtin_registry());
  std::vector<std::pair<std::string, std::string>> sets;
  for (const auto& [key, value] : o.sets) sets.emplace_back(key.toStdString(), value.toStdString());
  apply_overrides(s.preset.params, sets, s.preset.method);
  const bool asked = !o.backend.isEmpty();
  const BackendRequest request =
      asked ? parse_backend(o.backend.toStdString(), "--backend") : s.preset.backend.value_or(BackendRequest::Auto);
  try {
    s.ctx = resolve_backend(request);
  } catch (const Error& e) {
    if (asked && o.scripted()) throw;
    s.backend_note = QString("%1; running on the CPU instead").arg(QString::fromStdString(e.what()));
    s.ctx = resolve_backend(BackendRequest::Cpu);
  }
  return s;
}

}  // namespace ks::gui
