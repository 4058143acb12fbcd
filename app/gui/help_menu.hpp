// The Help menu's contents: where the open method's notes (its README: equations, cases, measured
// numbers) are, the keyboard shortcuts, and the About text (versions and the device).
#pragma once

#include <QString>

namespace ks::gui {

// The method's README in the source tree or the installed documentation; "" when neither has it.
QString method_notes_path(const QString& method_id);
QString shortcuts_text();
QString about_text(const QString& device);

}  // namespace ks::gui
