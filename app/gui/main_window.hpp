// The main window: preset browser, parameter panel, run toolbar, field, plot and scene views,
// log. It drives the engine's Runner by commands and polls its snapshots; it never
// calls a method directly and never waits for a solver step.
#pragma once

#include <QElapsedTimer>
#include <QMainWindow>
#include <memory>
#include <string>
#include <variant>

#include "app_options.hpp"
#include "event_loop_gap.hpp"
#include "progress_eta.hpp"
#include "recorder.hpp"
#include "retired_runners.hpp"
#include "core/backend.hpp"
#include "io/preset.hpp"
#include "run/runner.hpp"

class QAction;
class QCheckBox;
class QComboBox;
class QDockWidget;
class QLineEdit;
class QLabel;
class QProgressBar;
class QTabWidget;
class QTimer;

namespace ks::gui {

class FieldView;
class LogPanel;
class ParameterPanel;
class PlotView;
class PresetBrowser;
class PresetCostGate;
class SpeedProbe;
class QuickSliders;
class SceneView;
class SliceControl;

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  // Opens `start` (see load_start_preset). When it is the message of a refused start preset instead,
  // the window shows it in the log and the status bar and runs nothing (a script ends with exit code 2).
  MainWindow(AppOptions options, std::variant<StartPreset, QString> start, QWidget* parent = nullptr);
  // Reads the start preset itself (load_start_preset), as above.
  explicit MainWindow(AppOptions options, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Starts setting up the preset's simulation; false (and the message in the log and the status
  // bar) when the preset is refused. The new simulation replaces the current one once its setup
  // has succeeded; a setup that fails (say, a grid the method cannot run) is logged and the
  // current simulation is kept. With none running yet, the new one is shown at once, failed or not.
  bool loadPreset(const QString& path);
  // What the browser, File > Open and Recent do: loadPreset() once the preset's cost is known and,
  // where an iteration takes over a minute here, the user has agreed (preset_cost_gate.hpp).
  void openPreset(const QString& path);
  // Screenshot of a view ("field", "plot", "scene") or the whole window; false on failure.
  bool saveScreenshot(const QString& path, const QString& view);
  // Fields as VTK XML (.vti/.vtp) and series as CSV into dir; false on failure.
  bool exportTo(const QString& dir);
  // Records the fields every `every` iterations into `dir` as a time series (.pvd), starting with the
  // state shown; false (and why in the log) when nothing runs or the folder cannot be written.
  bool recordTo(const QString& dir, int every);
  void stopRecording();
  // The open preset's file with the current parameters (those of the next reset) at `path`; the
  // error in the log when it cannot.
  bool saveParametersAsPreset(const QString& path);
  // 1280 x 800 on the first start, else the saved size; never more than the screen's free area
  // (a 1366 x 768 laptop keeps the status bar and its progress in view).
  void fitToScreen();
  // What the parameter panel calls: live parameters apply at the next iteration.
  void applyParameter(const QString& key, const ks::ParamValue& value);
  Runner* runner() const { return runner_.get(); }
  // The GUI thread's longest stall since the window opened, and where its time went (event_loop_gap.hpp).
  EventLoopGap::Stall longestEventLoopStall() const { return gap_.longest(); }
  void restartEventLoopGap() { gap_.start(); }
  int runnersEnding() const { return retired_.ending(); }
  bool settingUp() const { return pending_ != nullptr; }  // a loaded preset is still being set up

 protected:
  void closeEvent(QCloseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void prepareHiddenViews();  // the hidden tabs' OpenGL views draw a first frame off screen
  void buildActions();
  void buildDocks();
  void poll();
  void recordIterationTime();
  void applyFixedRange();
  void resetViewsForPreset();
  void focusShownView();
  void updateSliceControl();
  void updateStatus(const RunStatus& status);
  void updateActions();
  void runScriptStep();
  void quitScript();
  bool scriptStalled();
  void endScript(const std::string& error, int exit_code);
  bool nextSetupFits(const std::string& key, const ks::ParamValue& value);
  void reportError(const QString& message);
  void startRunner(std::unique_ptr<Preset> preset, const QString& path, const ExecutionContext& ctx);
  void printFieldViewSummary() const;
  std::string eventLoopSummary() const;
  void adoptPendingWhenSettled();
  void adopt(std::unique_ptr<Runner> runner, std::unique_ptr<Preset> preset, const QString& path, const ExecutionContext& ctx);
  void saveScreenshotDialog();
  void exportDialog();
  void recordDialog();
  std::shared_ptr<const Snapshot> fileSnapshot() const;
  void rememberRecent(const QString& path);
  QString dialogFolder() const;
  void rememberDialogFolder(const QString& dir);
  void showMethodNotes(const QString& path);  // File > Recent presets, most recent first

  AppOptions options_;
  RetiredRunners retired_;             // before runner_ and pending_: joined after they are handed to it
  std::unique_ptr<SpeedProbe> probe_;  // hands its runner to retired_
  PresetCostGate* cost_gate_ = nullptr;
  std::int64_t timed_iteration_ = 0;  // the shown run's iterations when its time was last recorded
  std::unique_ptr<Runner> runner_;
  std::unique_ptr<Preset> preset_;
  // A simulation still setting up, to replace the current one when its setup succeeds.
  struct PendingLoad {
    std::unique_ptr<Runner> runner;
    std::unique_ptr<Preset> preset;
    QString path;
    ExecutionContext ctx;
  };
  std::unique_ptr<PendingLoad> pending_;
  std::shared_ptr<const Snapshot> shown_;
  std::shared_ptr<Recorder> recorder_ = std::make_shared<Recorder>();  // every runner's after_iteration writes through it
  QAction* record_ = nullptr;
  int script_stage_ = 0;
  QString start_refused_;               // why the start preset was refused; empty when it was opened
  std::int64_t script_iteration_ = -1;  // the iteration when the script last saw progress ...
  QElapsedTimer script_idle_;           // ... and the time since

  PresetBrowser* browser_ = nullptr;
  ParameterPanel* params_ = nullptr;
  LogPanel* log_ = nullptr;
  QDockWidget* log_dock_ = nullptr;
  QTabWidget* views_ = nullptr;
  QWidget* field_page_ = nullptr;  // the Field tab: the field view over its quick sliders
  FieldView* field_ = nullptr;
  QuickSliders* quick_ = nullptr;
  PlotView* plot_ = nullptr;
  SceneView* scene_ = nullptr;
  QAction *run_ = nullptr, *pause_ = nullptr, *step_ = nullptr, *reset_ = nullptr;
  QLabel *backend_label_ = nullptr, *status_ = nullptr;
  QProgressBar* progress_bar_ = nullptr;  // toward the end condition, with the time left
  ProgressEta eta_;
  QElapsedTimer clock_;       // the ETA's time base
  QElapsedTimer status_age_;  // since the status line was last written
  RunState status_state_ = RunState::Idle;
  bool status_setting_up_ = false;
  QComboBox *field_box_ = nullptr, *colormap_box_ = nullptr;
  QLineEdit *range_lo_ = nullptr, *range_hi_ = nullptr;
  QCheckBox *log_scale_ = nullptr, *auto_range_ = nullptr;
  SliceControl* slice_ = nullptr;
  QAction* slice_action_ = nullptr;  // the control's place in the view toolbar
  QTimer* timer_ = nullptr;
  EventLoopGap gap_;
};

}  // namespace ks::gui
