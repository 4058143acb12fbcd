#include "preset_browser.hpp"

#include <QDir>
#include <QDirIterator>
#include <QHeaderView>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTreeWidget>
#include <algorithm>

#include "core/backend.hpp"
#include "core/memory.hpp"
#include "core/registry.hpp"
#include "io/preset.hpp"
#include "iteration_time.hpp"
#include "preset_cost_gate.hpp"

namespace ks::gui {

namespace {
constexpr int kPathRole = Qt::UserRole;
}

PresetBrowser::PresetBrowser(QWidget* parent) : QSplitter(Qt::Vertical, parent) {
  tree_ = new QTreeWidget(this);
  tree_->setHeaderHidden(true);
  text_ = new QTextBrowser(this);
  text_->setOpenExternalLinks(false);
  addWidget(tree_);
  addWidget(text_);
  setStretchFactor(0, 1);
  setStretchFactor(1, 1);
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    if (item && !item->data(0, kPathRole).toString().isEmpty()) describe(item->data(0, kPathRole).toString());
  });
  connect(tree_, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
    const QString path = item->data(0, kPathRole).toString();
    if (!path.isEmpty()) emit presetActivated(path);
  });
}

// "Needs 1.2 GB of memory (and 0.8 GB on the GPU) on CPU, 2 threads", from the method's estimate.
QString PresetBrowser::memoryText(const Registry& registry, const Preset& preset, const ExecutionContext& ctx) {
  try {
    const MemoryEstimate m = registry.create(preset.method)->estimate_memory(preset.params, ctx);
    QString text = QString("Needs %1 of memory").arg(QString::fromStdString(format_bytes(m.host_bytes)));
    if (m.device_bytes) text += QString(" and %1 on the GPU").arg(QString::fromStdString(format_bytes(m.device_bytes)));
    return text + " on " + QString::fromStdString(ctx.device_name);
  } catch (const std::exception& e) {
    return QString("Memory not estimated: %1").arg(e.what());
  }
}

void PresetBrowser::scan(const QString& dir) {
  tree_->clear();
  const Registry& registry = builtin_registry();
  QMap<QString, QTreeWidgetItem*> methods;
  QStringList files;
  QDirIterator it(dir, {"*.json"}, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) files << QFileInfo(it.next()).canonicalFilePath();
  // Teaching presets first in each method, then the paper's cases by name.
  const auto teaching = [](const QString& path) { return QFileInfo(path).fileName().startsWith("teaching"); };
  std::sort(files.begin(), files.end(), [&](const QString& a, const QString& b) {
    const QString da = QFileInfo(a).path(), db = QFileInfo(b).path();
    if (da != db) return da < db;
    if (teaching(a) != teaching(b)) return teaching(a);
    return a < b;
  });
  // What each preset would take here, before the user commits to it (the Runner's own estimate).
  for (const QString& path : files) {
    QString method, title, problem, cost;
    try {
      const Preset p = load_preset(path.toStdString(), registry);
      method = QString::fromStdString(p.method);
      title = QString::fromStdString(p.title);
      cost = memoryText(registry, p, preset_context(p));
    } catch (const std::exception& e) {
      method = "(presets with errors)";
      title = QFileInfo(path).fileName();
      problem = e.what();
    }
    if (!methods.contains(method)) {
      QString label = method;
      if (registry.has(method.toStdString())) label = QString::fromStdString(registry.info(method.toStdString()).title);
      auto* top = new QTreeWidgetItem(tree_, {label});
      top->setToolTip(0, label);  // the whole title where the dock cuts it
      top->setExpanded(true);
      methods[method] = top;
    }
    auto* item = new QTreeWidgetItem(methods[method], {title});
    item->setData(0, kPathRole, path);
    item->setToolTip(0, problem.isEmpty() ? title + (cost.isEmpty() ? QString() : "\n" + cost) : problem);
    if (!problem.isEmpty()) item->setForeground(0, Qt::gray);
  }
}

void PresetBrowser::select(const QString& path) {
  for (QTreeWidgetItemIterator it(tree_); *it; ++it)
    if ((*it)->data(0, kPathRole).toString() == path) tree_->setCurrentItem(*it);
}

void PresetBrowser::describeSelected() {
  if (const QTreeWidgetItem* item = tree_->currentItem(); item && !item->data(0, kPathRole).toString().isEmpty())
    describe(item->data(0, kPathRole).toString());
}

void PresetBrowser::describe(const QString& path) {
  try {
    const Preset p = load_preset(path.toStdString(), builtin_registry());
    QString html = QString("<h3>%1</h3>").arg(QString::fromStdString(p.title).toHtmlEscaped());
    // Cost before commitment: next to the title, where it is read before a double-click.
    const ExecutionContext ctx = preset_context(p);
    html += QString("<p><b>Cost here:</b> %1.<br>%2.</p>")
                .arg(iteration_time_text(iteration_time(path, p.method, p.params, ctx), ctx).toHtmlEscaped(),
                     memoryText(builtin_registry(), p, ctx).toHtmlEscaped());
    if (!p.paper.empty())
      html += QString("<p><b>Paper:</b> %1<br><b>Case:</b> %2</p>")
                  .arg(QString::fromStdString(p.paper).toHtmlEscaped(), QString::fromStdString(p.case_name).toHtmlEscaped());
    html += QString("<p>%1</p>").arg(QString::fromStdString(p.description).toHtmlEscaped());
    if (!p.reference.empty())
      html +=
          QString("<p><b>Reference:</b> %1 (series %2)</p>")
              .arg(QString::fromStdString(p.reference.source).toHtmlEscaped(), QString::fromStdString(p.reference.series).toHtmlEscaped());
    html += QString("<p style='color:#888'>%1 — double-click to load</p>").arg(path.toHtmlEscaped());
    showDescription(path, html);
  } catch (const std::exception& e) {
    showDescription(
        path, QString("<p style='color:#c0392b'><b>This preset cannot be loaded:</b><br>%1</p>").arg(QString(e.what()).toHtmlEscaped()));
  }
}

// Described again (a new time estimate), the same preset keeps the reader's place in its text.
void PresetBrowser::showDescription(const QString& path, const QString& html) {
  if (path == described_ && html == described_html_) return;
  const int place = path == described_ ? text_->verticalScrollBar()->value() : 0;
  text_->setHtml(html);
  text_->verticalScrollBar()->setValue(place);
  described_ = path;
  described_html_ = html;
}

}  // namespace ks::gui
