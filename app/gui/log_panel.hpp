// The log: messages of the runner and of the app, errors in red.
#pragma once

#include <QPlainTextEdit>

namespace ks::gui {

class LogPanel : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit LogPanel(QWidget* parent = nullptr);
 public slots:
  void appendMessage(const QString& text);
  void appendError(const QString& text);
};

}  // namespace ks::gui
