// Command line of kinetic-studio: scripted use for teachers' figures and for tests.
#pragma once

#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

#include "core/backend.hpp"
#include "io/preset.hpp"

namespace ks::gui {

struct AppOptions {
  QString preset;                                 // --preset FILE
  std::vector<std::pair<QString, QString>> sets;  // --set key=value
  QString backend;                                // --backend auto|cuda|cpu
  int steps = -1;                                 // --steps N
  QString screenshot;                             // --screenshot FILE.png
  QString view = "window";                        // --view field|plot|scene|window
  QString export_dir;                             // --export DIR: fields (.vti/.vtp) and series (.csv)
  bool exit = false;                              // --exit when the script is done
  double quit_after = -1.0;                       // --quit-after S: run, then quit after S seconds (-1: not asked)
  bool help = false, version = false;             // --help, --version: print and exit 0

  // A script runs (any of --steps, --screenshot, --export, --exit, --quit-after): bad input ends the app with
  // its message on stderr instead of being shown in the window.
  bool scripted() const { return steps >= 0 || !screenshot.isEmpty() || !export_dir.isEmpty() || exit || quit_after >= 0.0; }
};

// Parses args (args[0] is the program) with QCommandLineParser: --opt value and --opt=value, "--"
// ends the options. Throws ks::Error (bad input) naming the option, the value and what is allowed.
AppOptions parse_app_options(const QStringList& args);
// The text of --help: every option from the parser's declarations, scripted use and exit codes.
QString app_usage();
QString app_version();  // "kinetic-studio <version>"
// Whether args may hold Qt's own options (-platform offscreen, -style fusion): words after a single
// dash, which only the QApplication knows and takes out of its arguments().
bool may_hold_qt_options(const QStringList& args);

// The folder of the preset browser: ks::preset_dir() (core/data_dir.hpp), empty when there is none.
QString preset_dir();

// The preset the window opens first, read and checked before the window runs anything.
struct StartPreset {
  QString path;
  Preset preset;         // --set applied
  ExecutionContext ctx;  // --backend, else the preset's backend, else auto
  QString backend_note;  // why the CPU runs it instead of the backend asked for; empty when it does not
};

// --preset as given (a missing file is an error, not a reason to open another preset), else the
// last preset used while it exists, else the teaching demo.
QString start_preset_path(const AppOptions& o);
// Reads start_preset_path(o) with the engine's load_preset, applies every --set through the
// method's ParamSet and parse_value, and resolves the backend. Throws ks::Error naming the file,
// key or value and what is allowed (bad input); also, in scripted use, backend_unavailable when
// --backend asks for CUDA and there is none (a script does not silently run on the CPU).
StartPreset load_start_preset(const AppOptions& o);

}  // namespace ks::gui
