// kinetic-studio: the desktop app. See app_options.hpp for scripted use.
#include <QApplication>
#include <QSurfaceFormat>
#include <cstdio>
#include <exception>
#include <optional>
#include <variant>

#include "app_options.hpp"
#include "core/errors.hpp"
#include "main_window.hpp"
#include "vtk_grid_file.hpp"

namespace {

int print(const QString& text) {
  std::fputs(text.toLocal8Bit().constData(), stdout);
  return 0;
}

int refuse(const ks::Error& e) {
  std::fprintf(stderr, "kinetic-studio: error: %s\n", e.what());
  return e.exit_code();
}

}  // namespace

int main(int argc, char** argv) {
  ks::vtk_io::install();  // input files VTK reads (.pvti, .vtr, .vtu, every .vti) beside the engine's readers
  // The command line is read before the QApplication exists, which needs a display: --help,
  // --version and a bad option are answered without one. Qt's own options (-platform ...) are
  // known only to the QApplication: a command line that may hold them is read again from its
  // arguments(), which no longer do.
  QStringList args;
  for (int i = 0; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
  std::optional<ks::gui::AppOptions> early;
  try {
    early = ks::gui::parse_app_options(args);
  } catch (const ks::Error& e) {
    if (!ks::gui::may_hold_qt_options(args)) return refuse(e);
  }
  if (early && early->help) return print(ks::gui::app_usage());
  if (early && early->version) return print(ks::gui::app_version() + '\n');

  // VTK and the field view need a 3.2+ core profile, requested before the QApplication exists.
  QSurfaceFormat format;
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(8);
  QSurfaceFormat::setDefaultFormat(format);
  // Without a display Qt aborts with advice to reinstall: say what is missing instead.
  const bool qt_platform_given = qEnvironmentVariableIsSet("QT_QPA_PLATFORM") || args.contains("-platform");
  if (!qt_platform_given && !qEnvironmentVariableIsSet("DISPLAY") && !qEnvironmentVariableIsSet("WAYLAND_DISPLAY")) {
    std::fprintf(stderr,
                 "kinetic-studio: error: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set); run it in a desktop "
                 "session, set DISPLAY, or use kinetic-run for runs without a window (xvfb-run kinetic-studio for scripted "
                 "screenshots)\n");
    return 1;
  }
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KineticStudio");
  QApplication::setApplicationName("Kinetic Studio");
  QApplication::setApplicationVersion(KS_VERSION);

  ks::gui::AppOptions options;
  try {
    options = early ? *early : ks::gui::parse_app_options(QApplication::arguments());
  } catch (const ks::Error& e) {
    return refuse(e);
  }
  if (options.help) return print(ks::gui::app_usage());
  if (options.version) return print(ks::gui::app_version() + '\n');

  // Every input of the start preset is read and checked before the window opens. A script ends
  // here on the first bad one; an interactive window opens and shows why nothing runs.
  std::variant<ks::gui::StartPreset, QString> start;
  try {
    start = ks::gui::load_start_preset(options);
  } catch (const ks::Error& e) {
    if (options.scripted()) return refuse(e);
    start = QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    if (options.scripted()) {
      std::fprintf(stderr, "kinetic-studio: unexpected error: %s\n", e.what());
      return static_cast<int>(ks::ErrorKind::RunFailed);
    }
    start = QString::fromStdString(e.what());
  }
  ks::gui::MainWindow window(options, std::move(start));
  window.fitToScreen();
  window.show();
  return app.exec();
}
