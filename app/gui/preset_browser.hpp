// Presets grouped by method, with the selected one's paper, case and teaching text.
#pragma once

#include <QSplitter>

class QTextBrowser;
class QTreeWidget;

namespace ks {
class Registry;
struct Preset;
struct ExecutionContext;
}  // namespace ks

namespace ks::gui {

class PresetBrowser : public QSplitter {
  Q_OBJECT
 public:
  explicit PresetBrowser(QWidget* parent = nullptr);
  // Scans dir/<method folder>/*.json, teaching presets first; presets that fail to load are listed
  // greyed with the reason. A preset's tooltip says the memory it needs on this machine's backend; its
  // description, that and the time an iteration takes here (iteration_time.hpp).
  void scan(const QString& dir);
  void select(const QString& path);
  void describeSelected();  // again, once this machine's speed is known (the cost line)
 signals:
  void presetActivated(const QString& path);  // double-click or Enter
 private:
  void describe(const QString& path);
  void showDescription(const QString& path, const QString& html);
  static QString memoryText(const Registry& registry, const Preset& preset, const ExecutionContext& ctx);
  QTreeWidget* tree_;
  QTextBrowser* text_;
  QString described_, described_html_;  // the preset whose description text_ shows, and that text
};

}  // namespace ks::gui
