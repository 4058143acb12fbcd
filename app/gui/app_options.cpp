#include "app_options.hpp"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QSettings>
#include <limits>

#include "core/data_dir.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "core/text.hpp"

namespace ks::gui {

namespace {

// Every option once: the parser and --help both come from these declarations.
struct Declared {
  QCommandLineOption preset{"preset", "the preset to open (default: the last one used while it exists, else the teaching demo)", "FILE"};
  QCommandLineOption set{"set",
                         "override a parameter of the preset (repeatable; kinetic-run --describe METHOD lists the keys "
                         "and ranges)",
                         "key=value"};
  QCommandLineOption backend{"backend", "auto (default: CUDA if a device is usable), cuda or cpu", "B"};
  QCommandLineOption steps{"steps", "run N iterations, then stop", "N"};
  QCommandLineOption screenshot{"screenshot", "save the view as a PNG image when the iterations are done", "FILE.png"};
  QCommandLineOption view{"view", "what the screenshot shows: field, plot, scene or window (the default)", "V"};
  QCommandLineOption export_dir{"export", "write the fields (.vti/.vtp) and the series (.csv) to DIR when the iterations are done", "DIR"};
  QCommandLineOption exit{"exit", "close the window when the script is done"};
  QCommandLineOption quit_after{"quit-after",
                                "press Run once the preset is set up (or at once while it sets up), quit after S seconds "
                                "and print how long quitting took and the event loop's longest stall",
                                "S"};
  QCommandLineOption help{QStringList{"h", "help"}, "print this help and exit"};
  QCommandLineOption version{"version", "print the version and exit"};

  QList<QCommandLineOption> all() const {
    return {preset, set, backend, steps, screenshot, view, export_dir, exit, quit_after, help, version};
  }
};

constexpr char kDescription[] = R"(kinetic-studio: the Kinetic Studio desktop app.

usage: kinetic-studio [options]
An option's value follows it (--steps 10) or is joined to it by '=' (--steps=10).
)";

constexpr char kFooter[] = R"(
A script (any of --steps, --screenshot, --export, --exit, --quit-after) opens the window with the preset, runs N
iterations, saves the screenshot and the exported fields, and with --exit closes when done; then it
prints on stdout:
  kinetic-studio: field view: backend=cpu|cuda host_uploads=N device_copies=N paints=N paint_ms_p50=T
      paint_ms_p99=T renderer="GL_RENDERER"
  (paint_ms: how long the field view's paints took, the GPU's work included, ms)
  kinetic-studio: event loop: longest_gap_ms=T over S s gap_gui_cpu_ms=T gap_runqueue_ms=T
  (the GUI thread's longest stall, the thread's own CPU time in it and its wait for a core, -1 where
  not known; with --quit-after also quit_ms=T runs_ended_ms=T)
  kinetic-studio: run: iterations=N work_done=W iterations_time_s=T work_unit="U"
  (as kinetic-run's summary.json: the iterations' work and their own time, set-up and snapshots excluded)
It checks the preset and every --set before the window opens; errors go to stderr.
exit codes:
  0    done
  1    a screenshot or export was not written
  2    bad input: a preset, option, --set key or value, or a set-up the method refuses
  3    backend unavailable: --backend cuda without a usable device
  4    the run failed or made no progress for 10 min
Qt's own options (-platform offscreen, -style fusion ...) are accepted too.
)";

// `text` broken into lines of at most `width` characters at spaces.
QStringList wrap(const QString& text, int width) {
  QStringList lines;
  QString line;
  for (const QString& word : text.split(' ', Qt::SkipEmptyParts)) {
    if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
      lines << line;
      line.clear();
    }
    line += (line.isEmpty() ? "" : " ") + word;
  }
  if (!line.isEmpty()) lines << line;
  return lines;
}

// A value quoted in a message: cut to a short excerpt.
std::string excerpt(const QString& s) { return cut(s.toStdString(), 60); }

}  // namespace

QString app_usage() {
  constexpr int kColumn = 25, kWidth = 100;
  QString out = QString(kDescription) + "\noptions:\n";
  for (const QCommandLineOption& opt : Declared().all()) {
    QStringList names;
    for (const QString& n : opt.names()) names << (n.size() == 1 ? "-" : "--") + n;
    QString head = "  " + names.join(", ") + (opt.valueName().isEmpty() ? "" : " " + opt.valueName());
    if (head.size() + 2 > kColumn) {
      out += head + '\n';
      head.clear();
    }
    const QStringList lines = wrap(opt.description(), kWidth - kColumn);
    for (int i = 0; i < lines.size(); ++i) out += (i == 0 ? head : QString()).leftJustified(kColumn) + lines[i] + '\n';
  }
  return out + kFooter;
}

QString app_version() { return QString("kinetic-studio %1").arg(KS_VERSION); }

bool may_hold_qt_options(const QStringList& args) {
  for (int i = 1; i < args.size() && args[i] != "--"; ++i)
    if (args[i].size() > 2 && args[i][0] == '-' && args[i][1] != '-') return true;
  return false;
}

AppOptions parse_app_options(const QStringList& args) {
  const Declared d;
  QCommandLineParser parser;
  parser.addOptions(d.all());
  if (!parser.parse(args)) {
    const QStringList unknown = parser.unknownOptionNames();
    if (!unknown.isEmpty())
      throw bad_input(excerpt((unknown[0].size() == 1 ? "-" : "--") + unknown[0]), "unknown option", "see kinetic-studio --help");
    QString message = parser.errorText();  // "Missing value after '--steps'.", "Unexpected value after '--exit'."
    if (message.endsWith('.')) message.chop(1);
    throw bad_input("", message.toStdString(), "see kinetic-studio --help");
  }
  if (!parser.positionalArguments().isEmpty())
    throw bad_input("'" + excerpt(parser.positionalArguments()[0]) + "'", "unexpected argument",
                    "options only (a preset is opened with --preset FILE); see kinetic-studio --help");
  AppOptions o;
  o.help = parser.isSet(d.help);
  o.version = parser.isSet(d.version);
  o.preset = parser.value(d.preset);
  for (const QString& kv : parser.values(d.set)) {
    const int eq = kv.indexOf('=');
    if (eq <= 0) throw bad_input("--set", "'" + excerpt(kv) + "' is not key=value", "key=value");
    o.sets.emplace_back(kv.left(eq), kv.mid(eq + 1));
  }
  if (parser.isSet(d.backend)) {
    o.backend = parser.value(d.backend);
    parse_backend(o.backend.toStdString(), "--backend");  // refused here, named with what is allowed
  }
  if (parser.isSet(d.steps)) {
    // A count beyond int is refused, never wrapped.
    bool ok = false;
    const qlonglong steps = parser.value(d.steps).toLongLong(&ok);
    if (!ok || steps < 0 || steps > std::numeric_limits<int>::max())
      throw bad_input("--steps", "'" + excerpt(parser.value(d.steps)) + "' is not a valid value",
                      "an integer in [0, " + std::to_string(std::numeric_limits<int>::max()) + "]");
    o.steps = int(steps);
  }
  o.screenshot = parser.value(d.screenshot);
  if (parser.isSet(d.view)) {
    o.view = parser.value(d.view);
    if (o.view != "field" && o.view != "plot" && o.view != "scene" && o.view != "window")
      throw bad_input("--view", "unknown view '" + excerpt(o.view) + "'", "field, plot, scene or window");
  }
  o.export_dir = parser.value(d.export_dir);
  o.exit = parser.isSet(d.exit);
  if (parser.isSet(d.quit_after)) {
    bool ok = false;
    o.quit_after = parser.value(d.quit_after).toDouble(&ok);
    if (!ok || !(o.quit_after >= 0.0 && o.quit_after <= 86400.0))
      throw bad_input("--quit-after", "'" + excerpt(parser.value(d.quit_after)) + "' is not a valid value", "seconds in [0, 86400]");
  }
  return o;
}

QString preset_dir() {
  try {
    return QString::fromStdString(ks::preset_dir().string());
  } catch (const Error&) {
    return {};  // no data folder: the browser stays empty; the start preset's load names KS_DATA_DIR
  }
}

QString start_preset_path(const AppOptions& o) {
  if (!o.preset.isEmpty()) return QString::fromStdString(preset_file(o.preset.toStdString()));
  const QString last = QSettings().value("preset/last").toString();
  if (!last.isEmpty() && QFileInfo::exists(last)) return last;
  return QString::fromStdString((ks::preset_dir() / "coagulation" / "teaching-demo.json").string());
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
