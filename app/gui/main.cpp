// kinetic-studio: the desktop app. See app_options.hpp for scripted use.
#include <QApplication>
#include <QSurfaceFormat>
#include <cstdio>

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
  ks::gui::MainWindow window(options);
  window.resize(1280, 800);
  window.show();
  return app.exec();
}
