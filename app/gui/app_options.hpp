// Command line of kinetic-studio: scripted use for teachers' figures and for tests.
#pragma once

#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

namespace ks::gui {

struct AppOptions {
  QString preset;                                  // --preset FILE
  std::vector<std::pair<QString, QString>> sets;   // --set key=value
  QString backend;                                 // --backend auto|cuda|cpu
  int steps = -1;                                  // --steps N
  QString screenshot;                              // --screenshot FILE.png
  QString view = "window";                         // --view field|plot|scene|window
  QString export_dir;                              // --export DIR: fields (.vti/.vtp) and series (.csv)
  bool exit = false;                               // --exit when the script is done
};

// Throws ks::Error (bad input) naming the option and what it allows.
AppOptions parse_app_options(const QStringList& args);
QString app_usage();

}  // namespace ks::gui
