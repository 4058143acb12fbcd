#include "parameter_panel.hpp"

#include <algorithm>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QStringList>

#include "core/errors.hpp"
#include "notation.hpp"

namespace ks::gui {
namespace {

// A text set again resets the cursor and redraws the editor: only a changed one.
void set_text(QLineEdit* line, const QString& text) {
  if (line->text() != text) line->setText(text);
}

}  // namespace

ParameterPanel::ParameterPanel(QWidget* parent) : QWidget(parent) {
  form_ = new QFormLayout(this);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

void ParameterPanel::setParameters(const ParamSet& params) {
  // Rebuilt hidden and shown once: each editor added to a shown form would be shown by its own
  // queued event, and each show asks the X server where the pointer is (a round trip a widget:
  // dozens at a preset switch, in the same stall of the GUI thread as the window's repaint).
  const bool shown = isVisible();
  if (shown) hide();
  while (form_->rowCount() > 0) form_->removeRow(0);
  editors_.clear();
  shown_.clear();
  specs_ = params.specs();
  for (const ParamSpec& spec : specs_) {
    // In notation ("v<sub>x</sub> box, lower end [v<sub>ref</sub>]"); "1" marks counts.
    auto* name = new QLabel(rich_axis_title(spec.label, spec.unit != "1" ? spec.unit : std::string()));
    const QString tip =
        QString("<b>%1</b> (%2)<br>%3<br>allowed: %4%5")
            .arg(QString::fromStdString(spec.key), QString::fromStdString(to_string(spec.type)),
                 QString::fromStdString(spec.help).toHtmlEscaped(), QString::fromStdString(allowed_range(spec)).toHtmlEscaped(),
                 spec.live ? "<br>changes apply at the next iteration" : "<br>applies on Reset while a run is in progress");
    name->setToolTip(tip);
    QWidget* editor = makeEditor(spec, params.value(spec.key));
    editor->setToolTip(tip);
    tips_[spec.key] = tip;
    editors_[spec.key] = editor;
    shown_[spec.key] = params.value(spec.key);
    form_->addRow(name, editor);
  }
  refreshEnabled();
  if (shown) show();
}

QWidget* ParameterPanel::makeEditor(const ParamSpec& spec, const ParamValue& value) {
  QWidget* editor = nullptr;
  switch (spec.type) {
    case ParamType::Bool: {
      auto* box = new QCheckBox;
      connect(box, &QCheckBox::toggled, this, [this, spec](bool on) { emit parameterEdited(QString::fromStdString(spec.key), on); });
      editor = box;
      break;
    }
    case ParamType::Choice: {
      auto* combo = new QComboBox;
      for (const auto& c : spec.choices) combo->addItem(QString::fromStdString(c));
      connect(combo, &QComboBox::currentTextChanged, this, [this, spec](const QString& text) {
        emit parameterEdited(QString::fromStdString(spec.key), text.toStdString());
        refreshEnabled();  // parameters may depend on this choice
      });
      connect(combo, &QComboBox::activated, this, &ParameterPanel::editingDone);
      editor = combo;
      break;
    }
    case ParamType::Int:
    case ParamType::Real: {
      // A line edit validated by the engine's own parser: exponents (1e-15) and the exact
      // range message, which spin boxes cannot give.
      auto* line = new QLineEdit;
      connect(line, &QLineEdit::editingFinished, this, [this, spec, line] { commitText(spec, line, line->text()); });
      connect(line, &QLineEdit::returnPressed, this, &ParameterPanel::editingDone);
      editor = line;
      break;
    }
    case ParamType::Path: {
      // A file name typed (relative to the current folder) or picked with Browse…; the engine's
      // parser checks the ending, the method reads the file on Reset.
      auto* box = new QWidget;
      auto* row = new QHBoxLayout(box);
      row->setContentsMargins(0, 0, 0, 0);
      auto* line = new QLineEdit;
      line->setObjectName("path");
      line->setPlaceholderText("no file");
      line->setClearButtonEnabled(true);
      auto* browse = new QPushButton(tr("Browse…"));
      row->addWidget(line, 1);
      row->addWidget(browse);
      connect(line, &QLineEdit::editingFinished, this, [this, spec, line] { commitText(spec, line, line->text()); });
      connect(browse, &QPushButton::clicked, this, [this, spec, line] {
        QStringList patterns;
        for (const auto& e : spec.extensions) patterns << "*" + QString::fromStdString(e);
        QString filter = patterns.isEmpty()
                             ? tr("All files (*)")
                             : QString("%1 (%2);;%3").arg(QString::fromStdString(spec.label), patterns.join(' '), tr("All files (*)"));
        const QString start = line->text().isEmpty() ? QString() : QFileInfo(line->text()).absolutePath();
        const QString path = QFileDialog::getOpenFileName(this, QString::fromStdString(spec.label), start, filter);
        if (path.isEmpty()) return;
        line->setText(path);
        commitText(spec, line, path);
      });
      editor = box;
      break;
    }
  }
  setEditorValue(editor, spec, value);
  return editor;
}

void ParameterPanel::commitText(const ParamSpec& spec, QLineEdit* line, const QString& text) {
  QWidget* editor = editors_.count(spec.key) ? editors_[spec.key] : line;
  try {
    const ParamValue v = parse_value(spec, text.trimmed().toStdString(), spec.key);
    line->setStyleSheet({});
    if (to_string(v) == to_string(shown_[spec.key])) return;
    shown_[spec.key] = v;
    refreshEnabled();  // parameters may be set by this one
    emit parameterEdited(QString::fromStdString(spec.key), v);
  } catch (const Error& e) {
    // Refused in the widget: red frame, the reason in the tooltip, the last good value back.
    line->setStyleSheet("QLineEdit { border: 2px solid #c0392b; }");
    line->setToolTip(QString::fromStdString(e.what()));
    setEditorValue(editor, spec, shown_[spec.key]);
    emit parameterRefused(QString::fromStdString(spec.key), text, QString::fromStdString(e.what()));
  }
}

void ParameterPanel::refuse(const std::string& key, const ParamValue& kept, const QString& reason) {
  const auto editor = editors_.find(key);
  const auto spec = std::find_if(specs_.begin(), specs_.end(), [&key](const ParamSpec& s) { return s.key == key; });
  if (editor == editors_.end() || spec == specs_.end()) return;
  shown_[key] = kept;
  setEditorValue(editor->second, *spec, kept);
  refreshEnabled();  // before the tooltip: it restores every editor's own
  auto* line = qobject_cast<QLineEdit*>(editor->second);
  if (!line) line = editor->second->findChild<QLineEdit*>();
  if (line) {
    line->setStyleSheet("QLineEdit { border: 2px solid #c0392b; }");
    line->setToolTip(reason);
  }
}

void ParameterPanel::setEditorValue(QWidget* editor, const ParamSpec& spec, const ParamValue& value) {
  const QSignalBlocker block(editor);
  switch (spec.type) {
    case ParamType::Bool: static_cast<QCheckBox*>(editor)->setChecked(std::get<bool>(value)); break;
    case ParamType::Choice: static_cast<QComboBox*>(editor)->setCurrentText(QString::fromStdString(std::get<std::string>(value))); break;
    case ParamType::Path: {
      QLineEdit* line = editor->findChild<QLineEdit*>("path");
      const QSignalBlocker block_line(line);
      set_text(line, QString::fromStdString(std::get<std::string>(value)));
      break;
    }
    default: set_text(static_cast<QLineEdit*>(editor), QString::fromStdString(to_string(value))); break;
  }
}

void ParameterPanel::showValues(const ParamSet& params) {
  for (const ParamSpec& spec : specs_) {
    auto it = editors_.find(spec.key);
    if (it == editors_.end() || !params.has(spec.key)) continue;
    const QWidget* focus = QApplication::focusWidget();
    if (focus && (focus == it->second || it->second->isAncestorOf(focus))) continue;  // never overwrite what the user is typing
    shown_[spec.key] = params.value(spec.key);
    setEditorValue(it->second, spec, params.value(spec.key));
  }
  refreshEnabled();
}

void ParameterPanel::setRunning(bool running) {
  if (running == running_) return;
  running_ = running;
  refreshEnabled();
}

std::string ParameterPanel::shownChoice(const std::string& key) const {
  const auto it = editors_.find(key);
  const auto* combo = it == editors_.end() ? nullptr : qobject_cast<const QComboBox*>(it->second);
  return combo ? combo->currentText().toStdString() : std::string();
}

double ParameterPanel::shownNumber(const std::string& key) const {
  const auto it = editors_.find(key);
  const auto* line = it == editors_.end() ? nullptr : qobject_cast<const QLineEdit*>(it->second);
  return line ? line->text().toDouble() : 0.0;
}

void ParameterPanel::refreshEnabled() {
  for (const ParamSpec& spec : specs_) {
    QWidget* editor = editors_[spec.key];
    QWidget* label = form_->labelForField(editor);
    const std::string choice = shownChoice(spec.when_key);
    const bool used = acts_when(spec, choice);
    const double setter = shownNumber(spec.overridden_by);
    const bool acts = used && !(setter > 0.0);
    QString tip = tips_[spec.key];
    if (!used) {
      QStringList values;
      for (const auto& v : spec.when_values) values << QString::fromStdString(v);
      tip = QString("Not used while %1 is %2 (only with: %3)<br>")
                .arg(QString::fromStdString(spec.when_key), QString::fromStdString(choice), values.join(", ")) +
            tip;
    } else if (!acts) {
      tip = QString("Set by %1 while it is above 0 (now %2)<br>").arg(QString::fromStdString(spec.overridden_by)).arg(setter) + tip;
    } else if (!spec.live && running_) {
      tip = "Not live: pause, change it, then Reset to apply";
    }
    // Each change restyles the widget (milliseconds under a software renderer): only what changed.
    const bool editable = acts && (spec.live || !running_);
    if (editor->isEnabled() != editable) editor->setEnabled(editable);
    if (label && label->isEnabled() != acts) label->setEnabled(acts);
    if (editor->toolTip() != tip) editor->setToolTip(tip);
  }
}

ParameterScrollArea::ParameterScrollArea(ParameterPanel* panel, QWidget* parent) : QScrollArea(parent) {
  setWidget(panel);
  setWidgetResizable(true);
  setFrameShape(QFrame::NoFrame);
  setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

// The rows of a new preset are shown (and counted by the layout) after setParameters, when the panel
// asks for a new layout: then the dock is asked for its size again.
bool ParameterScrollArea::eventFilter(QObject* watched, QEvent* event) {
  if (watched == widget() && event->type() == QEvent::LayoutRequest) updateGeometry();
  return QScrollArea::eventFilter(watched, event);
}

QSize ParameterScrollArea::minimumSizeHint() const {
  const QSize inner = widget()->minimumSizeHint();
  return {inner.width() + verticalScrollBar()->sizeHint().width(), QScrollArea::minimumSizeHint().height()};
}

}  // namespace ks::gui
