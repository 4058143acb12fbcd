// The main window: preset browser, parameter panel, run toolbar, field, plot and scene views,
// log. It drives the engine's Runner by commands and polls its snapshots; it never
// calls a method directly and never waits for a solver step.
#pragma once

#include <QMainWindow>
#include <memory>

#include "app_options.hpp"
#include "core/backend.hpp"
#include "io/preset.hpp"
#include "run/runner.hpp"

class QAction;
class QComboBox;
class QLineEdit;
class QSlider;
class QLabel;
class QTabWidget;
class QTimer;

namespace ks::gui {

class FieldView;
class LogPanel;
class ParameterPanel;
class PlotView;
class PresetBrowser;
class SceneView;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(AppOptions options, QWidget* parent = nullptr);
  ~MainWindow() override;

  bool loadPreset(const QString& path);  // false (and a log entry) when the preset is refused
  // Screenshot of a view ("field", "plot", "scene") or the whole window; false on failure.
  bool saveScreenshot(const QString& path, const QString& view);
  // Fields as VTK XML (.vti/.vtp) and series as CSV into dir; false on failure.
  bool exportTo(const QString& dir);
  // What the parameter panel calls: live parameters apply at the next iteration.
  void applyParameter(const QString& key, const ks::ParamValue& value);
  Runner* runner() const { return runner_.get(); }

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void buildActions();
  void buildDocks();
  void poll();
  void applyFixedRange();
  void updateSliceRange();
  void updateStatus();
  void runScriptStep();
  void saveScreenshotDialog();
  void exportDialog();

  AppOptions options_;
  std::unique_ptr<Runner> runner_;
  std::unique_ptr<Preset> preset_;
  std::shared_ptr<const Snapshot> shown_;
  int script_stage_ = 0;

  PresetBrowser* browser_ = nullptr;
  ParameterPanel* params_ = nullptr;
  LogPanel* log_ = nullptr;
  QTabWidget* views_ = nullptr;
  FieldView* field_ = nullptr;
  PlotView* plot_ = nullptr;
  SceneView* scene_ = nullptr;
  QAction *run_ = nullptr, *pause_ = nullptr, *step_ = nullptr, *reset_ = nullptr;
  QLabel *backend_label_ = nullptr, *status_ = nullptr;
  QComboBox *field_box_ = nullptr, *colormap_box_ = nullptr;
  QLineEdit *range_lo_ = nullptr, *range_hi_ = nullptr;
  QSlider* slice_ = nullptr;
  QAction* slice_action_ = nullptr;
  QTimer* timer_ = nullptr;
};

}  // namespace ks::gui
