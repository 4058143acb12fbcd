// Parameter widgets generated from a method's ParamSpecs: the right widget per type (a file path:
// a line edit and a Browse… button),
// units and ranges in the label, help as tooltips. Non-live parameters are disabled
// while running; invalid input is refused in the widget with the allowed range shown.
#pragma once

#include <QScrollArea>
#include <QWidget>
#include <map>

#include "core/param.hpp"

class QFormLayout;
class QLineEdit;

namespace ks::gui {

class ParameterPanel : public QWidget {
  Q_OBJECT
 public:
  explicit ParameterPanel(QWidget* parent = nullptr);
  void setParameters(const ParamSet& params);  // rebuilds the widgets
  void showValues(const ParamSet& params);     // updates the values without rebuilding
  void setRunning(bool running);
  // A value the window refused after the panel took it (the set-up it leads to would not fit): the
  // editor shows `kept` again, framed red with `reason` as its tooltip, as for a value the
  // parameter's own rules refuse.
  void refuse(const std::string& key, const ParamValue& kept, const QString& reason);
 signals:
  void parameterEdited(const QString& key, const ks::ParamValue& value);
  // A typed value the parameter's rules refuse (the widget shows the last good value again).
  void parameterRefused(const QString& key, const QString& text, const QString& reason);
  // Enter in a value, or a choice made: the window gives the keyboard back to its view, so that its
  // shortcuts (Space, S, R) act again instead of typing into the editor.
  void editingDone();

 private:
  QWidget* makeEditor(const ParamSpec& spec, const ParamValue& value);
  void commitText(const ParamSpec& spec, QLineEdit* line, const QString& text);
  void setEditorValue(QWidget* editor, const ParamSpec& spec, const ParamValue& value);
  std::string shownChoice(const std::string& key) const;  // the value a choice's editor shows ("" if none)
  double shownNumber(const std::string& key) const;       // the number a numeric editor shows (0 if none)
  void refreshEnabled();  // editors of parameters the shown choices do not use, or a shown number sets, are greyed out

  QFormLayout* form_;
  std::vector<ParamSpec> specs_;
  std::map<std::string, QWidget*> editors_;
  std::map<std::string, ParamValue> shown_;
  std::map<std::string, QString> tips_;
  bool running_ = false;
};

// Scrolls a panel up and down, never sideways: as wide as the panel's widest row, so the dock
// holding it widens when a preset's labels are longer than the last one's.
class ParameterScrollArea : public QScrollArea {
 public:
  explicit ParameterScrollArea(ParameterPanel* panel, QWidget* parent = nullptr);
  QSize minimumSizeHint() const override;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace ks::gui
