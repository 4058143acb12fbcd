// kinetic-studio: the desktop app. See app_options.hpp for scripted use.
#include <QApplication>
#include <QSurfaceFormat>
#include <cstdio>
#include <exception>
#include <variant>

#include "app_options.hpp"
#include "core/errors.hpp"
#include "main_window.hpp"

int main(int argc, char** argv) {
  // VTK and the field view need a 3.2+ core profile, requested before the QApplication exists.
  QSurfaceFormat format;
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  format.setDepthBufferSize(24);
  format.setStencilBufferSize(8);
  QSurfaceFormat::setDefaultFormat(format);
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KineticStudio");
  QApplication::setApplicationName("Kinetic Studio");

  ks::gui::AppOptions options;
  try {
    options = ks::gui::parse_app_options(QApplication::arguments());
  } catch (const ks::Error& e) {
    std::fprintf(stderr, "kinetic-studio: error: %s\n%s", e.what(), ks::gui::app_usage().toLocal8Bit().constData());
    return e.exit_code();
  }
  // Every input of the start preset is read and checked before the window opens. A script ends
  // here on the first bad one; an interactive window opens and shows why nothing runs.
  std::variant<ks::gui::StartPreset, QString> start;
  try {
    start = ks::gui::load_start_preset(options);
  } catch (const ks::Error& e) {
    if (options.scripted()) {
      std::fprintf(stderr, "kinetic-studio: error: %s\n", e.what());
      return e.exit_code();
    }
    start = QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    if (options.scripted()) {
      std::fprintf(stderr, "kinetic-studio: unexpected error: %s\n", e.what());
      return static_cast<int>(ks::ErrorKind::RunFailed);
    }
    start = QString::fromStdString(e.what());
  }
  ks::gui::MainWindow window(options, std::move(start));
  window.resize(1280, 800);
  window.show();
  return app.exec();
}
