#include "help_menu.hpp"

#include <QFileInfo>
#include <QtGlobal>
#include <vtkVersion.h>

#include <string>

#include "core/data_dir.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"

namespace ks::gui {

QString method_notes_path(const QString& method_id) {
  if (!builtin_registry().has(method_id.toStdString())) return {};
  const QString folder = QString::fromStdString(builtin_registry().info(method_id.toStdString()).folder);
  try {
    const QString data = QString::fromStdString(data_dir().path.string());
    // The source tree (a build-tree binary), or share/kinetic-studio/methods of an install.
    for (const QString& path : {data + "/engine/methods/" + folder + "/README.md", data + "/methods/" + folder + "/README.md"})
      if (QFileInfo::exists(path)) return QFileInfo(path).canonicalFilePath();
  } catch (const Error&) {
  }
  return {};
}

QString shortcuts_text() {
  return "Space\trun or pause\n"
         "S\tone iteration\n"
         "R\treset (set up again with the pending parameters)\n"
         "Ctrl+S\tscreenshot of the shown view\n"
         "Ctrl+E\texport fields and series\n"
         "Ctrl+Shift+S\tsave the parameters as a preset\n"
         "Ctrl+O\topen a preset file\n"
         "Enter in a parameter\tapply it and give the keys back to the view\n"
         "Ctrl+Q\tquit\n"
         "Mouse wheel on a plot\tzoom about the cursor";
}

QString about_text(const QString& device) {
  return QString(
             "<b>Kinetic Studio %1</b><br>Five GPU methods of kinetic and Monte Carlo transport physics: reciprocal "
             "Monte Carlo radiation, discrete-velocity and BGK kinetic solvers, Monte Carlo aerosol coagulation and an "
             "entropic binary lattice Boltzmann solver.<br><br>Running on: %2<br>Qt %3, VTK %4")
      .arg(KS_VERSION, device.toHtmlEscaped(), qVersion(), vtkVersion::GetVTKVersion());
}

}  // namespace ks::gui
