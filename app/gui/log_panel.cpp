#include "log_panel.hpp"

#include <QTime>

namespace ks::gui {

LogPanel::LogPanel(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setMaximumBlockCount(5000);
}

void LogPanel::appendMessage(const QString& text) {
  appendHtml(QString("<span style='color:#666'>%1</span> %2").arg(QTime::currentTime().toString("HH:mm:ss"), text.toHtmlEscaped()));
}

void LogPanel::appendError(const QString& text) {
  appendHtml(QString("<span style='color:#666'>%1</span> <span style='color:#c0392b'><b>error:</b> %2</span>")
                 .arg(QTime::currentTime().toString("HH:mm:ss"), text.toHtmlEscaped()));
}

}  // namespace ks::gui
