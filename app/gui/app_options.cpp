#include "app_options.hpp"

#include "core/errors.hpp"

namespace ks::gui {

QString app_usage() {
  return "usage: kinetic-studio [--preset FILE] [--set key=value]... [--backend auto|cuda|cpu] [--steps N]\n"
         "                      [--screenshot FILE.png] [--view field|plot|scene|window] [--export DIR] [--exit]\n"
         "Opens the window with the preset, runs N iterations, saves the screenshot and the exported\n"
         "fields, and with --exit closes when done. Then it prints one line on stdout:\n"
         "kinetic-studio: field view: backend=cpu|cuda host_uploads=N device_copies=N renderer=\"GL_RENDERER\"\n";
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
    } else if (a == "--backend") o.backend = value();
    else if (a == "--steps") {
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

}  // namespace ks::gui
