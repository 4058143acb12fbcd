// Presets grouped by method, with the selected one's paper, case and teaching text.
#pragma once

#include <QSplitter>

class QTextBrowser;
class QTreeWidget;

namespace ks::gui {

class PresetBrowser : public QSplitter {
  Q_OBJECT
 public:
  explicit PresetBrowser(QWidget* parent = nullptr);
  // Scans dir/<method folder>/*.json; presets that fail to load are listed greyed with the reason.
  void scan(const QString& dir);
  void select(const QString& path);
 signals:
  void presetActivated(const QString& path);  // double-click or Enter
 private:
  void describe(const QString& path);
  QTreeWidget* tree_;
  QTextBrowser* text_;
};

}  // namespace ks::gui
