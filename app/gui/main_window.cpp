#include "main_window.hpp"

#include <cstdio>

#include <QApplication>
#include <QGuiApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFile>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QProgressBar>
#include <QScreen>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QOpenGLWidget>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTabWidget>
#include <QThread>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/errors.hpp"
#include "core/registry.hpp"
#include "colormaps.hpp"
#include "field_view.hpp"
#include "freed_elsewhere.hpp"
#include "help_menu.hpp"
#include "io/output_file.hpp"
#include "io/field_writer.hpp"
#include "io/vtk_xml_writer.hpp"
#include "log_panel.hpp"
#include "notation.hpp"
#include "parameter_panel.hpp"
#include "plot_view.hpp"
#include "iteration_time.hpp"
#include "preset_browser.hpp"
#include "preset_cost_gate.hpp"
#include "preset_saver.hpp"
#include "quick_sliders.hpp"
#include "scene_view.hpp"
#include "settings_writer.hpp"
#include "speed_probe.hpp"
#include "slice_control.hpp"

// The shaders are compiled into the kinetic-studio-lib static library, whose resource
// initialiser the linker may drop: register them explicitly (must be at global scope).
static void register_resources() { Q_INIT_RESOURCE(kinetic_studio); }

namespace ks::gui {

namespace {

constexpr int kStatusMinimumWidth = 300;  // px; the status line takes the bar's right half beside the progress
constexpr int kPollMs = 33;               // ~30 Hz: snapshots, progress, log
constexpr qint64 kStatusMs = 250;         // the status line and progress bar: 4 Hz
constexpr int kScreenshotSettleMs = 400;  // lets throttled views draw the final snapshot
constexpr auto kSnapshotInterval = std::chrono::milliseconds(50);
constexpr int kFirstLogHeight = 90;  // pixels: about four lines
// A script gives up when the simulation has made no progress (no new iteration, not settled) for
// this long: generous for the slowest single iteration or set-up of any preset, still a bound.
constexpr qint64 kScriptStallMs = 10 * 60 * 1000;
const QString kNothingRuns = "no simulation is running: choose a preset in the Presets panel";
const QString kProgressTip =
    "Progress toward the end condition (t_end, the ray count, the maximum steps), and the time left at the recent rate";
constexpr int kProgressTextMarginPx = 8;  // the style's room around the bar's text

// load_start_preset's preset, or the message of the error it threw.
std::variant<StartPreset, QString> start_or_refusal(const AppOptions& options) {
  try {
    return load_start_preset(options);
  } catch (const std::exception& e) {
    return QString::fromStdString(e.what());
  }
}

// The field the preset shows first; empty when it names none.
std::string preset_field(const Preset& preset) {
  return preset.view.contains("field") ? preset.view["field"].get<std::string>() : std::string();
}

}  // namespace

MainWindow::MainWindow(AppOptions options, QWidget* parent) : MainWindow(options, start_or_refusal(options), parent) {}

MainWindow::MainWindow(AppOptions options, std::variant<StartPreset, QString> start, QWidget* parent)
    : QMainWindow(parent), options_(std::move(options)) {
  register_resources();
  setWindowTitle("Kinetic Studio");
  views_ = new QTabWidget(this);
  field_ = new FieldView(views_);
  plot_ = new PlotView(views_);
  scene_ = new SceneView(views_);
  // The field with its quick sliders under it (outside the picture: they cover no axis or legend).
  field_page_ = new QWidget(views_);
  auto* field_column = new QVBoxLayout(field_page_);
  field_column->setContentsMargins(0, 0, 0, 0);
  field_column->setSpacing(0);
  field_column->addWidget(field_, 1);
  quick_ = new QuickSliders(field_page_);
  field_column->addWidget(quick_);
  views_->addTab(field_page_, "Field");
  views_->addTab(plot_, "Plot");
  views_->addTab(scene_, "Scene");
  setCentralWidget(views_);
  buildDocks();
  buildActions();
  // The progress line on the right, as a permanent widget: messages (hover values, refusals) take the
  // left of the bar instead of being drawn over it.
  progress_bar_ = new QProgressBar(this);
  progress_bar_->setObjectName("progressBar");
  progress_bar_->setRange(0, 1000);
  progress_bar_->setFixedSize(220, progress_bar_->sizeHint().height());  // its text changes too
  progress_bar_->setToolTip(kProgressTip);
  statusBar()->addPermanentWidget(progress_bar_);
  status_ = new QLabel(this);
  status_->setObjectName("progress");
  // Its text changes at every poll, its size only with the window's (resizeEvent): a widget of fixed
  // size relayouts nothing when its text changes, where a label sized to its text relayouted the
  // window, whose views redraw on a resize (100-300 ms under a software renderer when a longer set-up
  // stage widened it). What does not fit ends in an ellipsis; the tooltip holds the whole line.
  status_->setFixedSize(kStatusMinimumWidth, status_->sizeHint().height());
  statusBar()->addPermanentWidget(status_);
  clock_.start();
  probe_ = std::make_unique<SpeedProbe>(preset_dir(), retired_);
  cost_gate_ = new PresetCostGate(*probe_, this);
  connect(cost_gate_, &PresetCostGate::message, this, [this](const QString& text) { log_->appendMessage(text); });
  connect(probe_.get(), &SpeedProbe::finished, this, [this] { browser_->describeSelected(); });
  connect(plot_, &PlotView::comparisonChanged, field_, &FieldView::setComparison);
  field_->timePaints(options_.scripted());  // for the summary line a script ends with
  connect(field_, &FieldView::hovered, this, [this](const QString& text) { statusBar()->showMessage(text, 2000); });
  connect(quick_, &QuickSliders::parameterChanged, this, &MainWindow::applyParameter);
  connect(quick_, &QuickSliders::editingDone, this, &MainWindow::focusShownView);
  connect(quick_, &QuickSliders::parameterRefused, this, [this](const QString& key, const QString& text, const QString& reason) {
    reportError(QString("%1 = %2 refused: %3 (the run goes on unchanged)").arg(key, text.trimmed(), reason));
  });
  connect(field_, &FieldView::deviceSelectionWanted, this, [this](const QString& field, int component) {
    if (runner_) runner_->show_on_device(field.toStdString(), component);
  });

  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  // On a first start the log takes a few lines: the views get the height (a 768-pixel screen too).
  if (!restoreState(settings.value("window/state").toByteArray())) resizeDocks({log_dock_}, {kFirstLogHeight}, Qt::Vertical);
  if (settings.contains("view/colormap")) colormap_box_->setCurrentText(settings.value("view/colormap").toString());

  browser_->scan(preset_dir());
  if (auto* s = std::get_if<StartPreset>(&start)) {
    if (!s->backend_note.isEmpty()) {
      log_->appendError(s->backend_note);
      if (options_.scripted()) std::fprintf(stderr, "kinetic-studio: warning: %s\n", s->backend_note.toLocal8Bit().constData());
    }
    try {
      startRunner(std::make_unique<Preset>(std::move(s->preset)), s->path, s->ctx);
    } catch (const std::exception& e) {
      start_refused_ = QString::fromStdString(e.what());
    }
  } else {
    start_refused_ = std::get<QString>(start);
  }
  if (!start_refused_.isEmpty()) reportError(options_.scripted() ? start_refused_ : start_refused_ + " (" + kNothingRuns + ")");
  updateActions();

  timer_ = new QTimer(this);
  connect(timer_, &QTimer::timeout, this, &MainWindow::poll);
  timer_->start(kPollMs);
  gap_.startAfterFirstFrame(this, [this] { prepareHiddenViews(); });
  if (options_.quit_after >= 0.0) QTimer::singleShot(int(1000.0 * options_.quit_after), this, &MainWindow::quitScript);
}

// --quit-after: quits as a user would, whatever runs (set-up or iteration), and says how long the
// window took to close, how long the runs took to end after it, and the GUI thread's longest stall.
void MainWindow::quitScript() {
  const std::string gap = eventLoopSummary();
  if (runner_) {
    const WorkStage w = runner_->work_stage();
    std::printf("kinetic-studio: quit during: %s%s%s\n", runner_->setting_up() ? "set-up" : to_string(runner_->state()).c_str(),
                w.stage.empty() ? "" : ", ", w.stage.c_str());
  }
  QElapsedTimer t;
  t.start();
  close();
  const qint64 quit_ms = t.elapsed();
  while (retired_.ending() > 0 && t.elapsed() < kScriptStallMs) QThread::msleep(1);
  std::printf("kinetic-studio: event loop: %s quit_ms=%lld runs_ended_ms=%lld\n", gap.c_str(), (long long)quit_ms,
              (long long)(t.elapsed() - quit_ms));
  std::fflush(stdout);
  script_stage_ = 3;
  QApplication::exit(retired_.ending() > 0 ? static_cast<int>(ErrorKind::RunFailed) : 0);
}

MainWindow::~MainWindow() = default;

// An OpenGL view's first frame compiles its shaders and builds its glyph cache: 50-70 ms under a
// software renderer, a stall when a preset first shows that tab. The hidden tabs draw one frame
// off screen while the window appears instead.
void MainWindow::prepareHiddenViews() {
  for (QOpenGLWidget* view : findChildren<QOpenGLWidget*>())
    if (!view->isVisible()) view->grabFramebuffer();
}

void MainWindow::buildDocks() {
  browser_ = new PresetBrowser(this);
  auto* presets = new QDockWidget("Presets", this);
  presets->setObjectName("presets");
  presets->setWidget(browser_);
  addDockWidget(Qt::LeftDockWidgetArea, presets);
  connect(browser_, &PresetBrowser::presetActivated, this, &MainWindow::openPreset);

  params_ = new ParameterPanel(this);
  params_->setObjectName("parameterPanel");
  // Scrolls: radiation's 27 parameters would otherwise make the window taller than a laptop screen.
  auto* params_scroll = new ParameterScrollArea(params_, this);
  auto* params = new QDockWidget("Parameters", this);
  params->setObjectName("parameters");
  params->setWidget(params_scroll);
  addDockWidget(Qt::RightDockWidgetArea, params);
  connect(params_, &ParameterPanel::parameterEdited, this, &MainWindow::applyParameter);
  connect(params_, &ParameterPanel::editingDone, this, &MainWindow::focusShownView);
  connect(params_, &ParameterPanel::parameterRefused, this, [this](const QString& key, const QString& text, const QString& reason) {
    reportError(QString("%1 = %2 refused: %3 (%4)").arg(key, text.trimmed(), reason, runner_ ? "the run goes on unchanged" : kNothingRuns));
  });

  log_ = new LogPanel(this);
  log_dock_ = new QDockWidget("Log", this);
  log_dock_->setObjectName("log");
  log_dock_->setWidget(log_);
  addDockWidget(Qt::BottomDockWidgetArea, log_dock_);
}

void MainWindow::buildActions() {
  QToolBar* bar = addToolBar("Run");
  bar->setObjectName("run");
  run_ = bar->addAction("Run", this, [this] {
    if (runner_) runner_->start();
  });
  pause_ = bar->addAction("Pause", this, [this] {
    if (runner_) runner_->pause();
  });
  step_ = bar->addAction("Step", this, [this] {
    if (runner_) runner_->step(1);
  });
  reset_ = bar->addAction("Reset", this, [this] {
    if (runner_) runner_->reset();
  });
  step_->setShortcut(Qt::Key_S);
  reset_->setShortcut(Qt::Key_R);
  run_->setToolTip("Run to the end condition (Space)");
  pause_->setToolTip("Pause at the next step, sweep or batch (Space)");
  step_->setToolTip("One iteration, then pause (S)");
  reset_->setToolTip("Set up again with the pending parameters (R)");
  auto* toggle = new QAction(this);
  toggle->setShortcut(Qt::Key_Space);
  connect(toggle, &QAction::triggered, this, [this] {
    if (!runner_) return;
    if (runner_->state() == RunState::Running) runner_->pause();
    else runner_->start();
  });
  addAction(toggle);
  bar->addSeparator();
  backend_label_ = new QLabel(this);
  bar->addWidget(backend_label_);

  // How the field view shows the field: which field, colour map, scale, range.
  QToolBar* view = addToolBar("View");
  view->setObjectName("view");
  field_box_ = new QComboBox(this);
  field_box_->setToolTip("Field shown in the field and scene views");
  field_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // "f(x, vx)" whole
  connect(field_box_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
    if (name.isEmpty()) return;
    field_->setField(name);
    scene_->setField(name);
    if (shown_) updateSliceControl();
  });
  view->addWidget(field_box_);
  auto* colormap = new QComboBox(this);
  colormap->addItems(colormap_names());
  colormap->setToolTip("Colour map");
  connect(colormap, &QComboBox::currentTextChanged, field_, &FieldView::setColormap);
  view->addWidget(colormap);
  log_scale_ = new QCheckBox("log", this);
  connect(log_scale_, &QCheckBox::toggled, field_, &FieldView::setLogScale);
  view->addWidget(log_scale_);
  auto_range_ = new QCheckBox("auto range", this);
  auto_range_->setChecked(true);
  view->addWidget(auto_range_);
  // Fixed range: two bounds, refused in place (red) unless both are numbers with min < max.
  range_lo_ = new QLineEdit(this);
  range_hi_ = new QLineEdit(this);
  for (QLineEdit* edit : {range_lo_, range_hi_}) {
    edit->setFixedWidth(80);
    edit->setEnabled(false);
    edit->setToolTip("Colour range used when auto range is off");
    view->addWidget(edit);
    connect(edit, &QLineEdit::editingFinished, this, &MainWindow::applyFixedRange);
  }
  range_lo_->setPlaceholderText("min");
  range_hi_->setPlaceholderText("max");
  connect(auto_range_, &QCheckBox::toggled, this, [this](bool on) {
    field_->setAutoRange(on);
    range_lo_->setEnabled(!on);
    range_hi_->setEnabled(!on);
    if (!on) applyFixedRange();
  });
  // The plane of 3D image fields (hidden for 2D fields and particles).
  slice_ = new SliceControl(this);
  connect(slice_, &SliceControl::planeChanged, field_, &FieldView::setSlice);
  slice_action_ = view->addWidget(slice_);
  slice_action_->setVisible(false);
  colormap_box_ = colormap;

  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("Open preset…", QKeySequence::Open, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open preset", preset_dir(), "Presets (*.json)");
    if (!path.isEmpty()) openPreset(path);
  });
  file->addAction("Screenshot…", QKeySequence("Ctrl+S"), this, &MainWindow::saveScreenshotDialog);
  file->addAction("Export fields and series…", QKeySequence("Ctrl+E"), this, &MainWindow::exportDialog);
  record_ = file->addAction("Record time series…", this, &MainWindow::recordDialog);
  record_->setCheckable(true);
  record_->setToolTip("write the fields every N iterations as a time series (.pvd) that ParaView plays");
  file->addAction("Save parameters as preset…", QKeySequence("Ctrl+Shift+S"), this, [this] {
    if (!preset_) return reportError(kNothingRuns);
    const QString path = QFileDialog::getSaveFileName(this, "Save parameters as preset", preset_dir(), "Presets (*.json)");
    if (!path.isEmpty()) saveParametersAsPreset(path.endsWith(".json") ? path : path + ".json");
  });
  QMenu* recent = file->addMenu("Recent presets");
  connect(recent, &QMenu::aboutToShow, this, [this, recent] {
    recent->clear();
    for (const QString& path : QSettings().value("preset/recent").toStringList())
      recent->addAction(path, this, [this, path] { openPreset(path); });
    if (recent->isEmpty()) recent->addAction("(none yet)")->setEnabled(false);
  });
  file->addSeparator();
  file->addAction("Quit", QKeySequence::Quit, this, &QWidget::close);

  QMenu* help = menuBar()->addMenu("&Help");
  help->addAction("Method notes (equations, cases, measured numbers)", this, [this] {
    const QString path = preset_ ? method_notes_path(QString::fromStdString(preset_->method)) : QString();
    if (path.isEmpty())
      reportError(preset_ ? "no notes found for " + QString::fromStdString(preset_->method) + " in the data directory" : kNothingRuns);
    else showMethodNotes(path);
  });
  help->addAction("Keyboard shortcuts", this, [this] { QMessageBox::information(this, "Keyboard shortcuts", shortcuts_text()); });
  help->addAction("About Kinetic Studio", this,
                  [this] { QMessageBox::about(this, "About Kinetic Studio", about_text(backend_label_->text().trimmed())); });
}

// --preset, --set and --backend apply only to the start preset (load_start_preset), not to presets
// chosen later in the browser.
bool MainWindow::loadPreset(const QString& path) {
  try {
    auto preset = std::make_unique<Preset>(load_preset(path.toStdString(), builtin_registry()));
    QString fallback;
    const ExecutionContext ctx = preset_context(*preset, &fallback);
    if (!fallback.isEmpty()) log_->appendError(fallback);
    startRunner(std::move(preset), path, ctx);
    return true;
  } catch (const std::exception& e) {
    reportError(QString("%1 (%2)").arg(QString::fromStdString(e.what()), runner_ ? "the current simulation is kept" : kNothingRuns));
    return false;
  }
}

void MainWindow::openPreset(const QString& path) {
  cost_gate_->request(path, [this, path] { loadPreset(path); });
}

// The shown run's time an iteration, for the time estimates of this preset and its method
// (iteration_time.hpp): once a second of iterations has passed, again every tenth iteration, and at
// the run's end. After the first of these and the last, the browser's cost line says what was
// measured (a fast run records at every poll; describing a preset reads its file and the settings).
void MainWindow::recordIterationTime() {
  const std::int64_t iterations = runner_->progress().iteration;
  const double seconds = runner_->iteration_seconds();
  if (iterations < timed_iteration_) timed_iteration_ = 0;  // set up again
  const bool ended = runner_->state() == RunState::Finished;
  if (iterations <= timed_iteration_ || (!ended && (seconds < 1.0 || (timed_iteration_ > 0 && iterations < timed_iteration_ + 10)))) return;
  const bool first = timed_iteration_ == 0;
  timed_iteration_ = iterations;
  std::function<void()> describe;
  if (first || ended) describe = [this] { browser_->describeSelected(); };
  record_iteration_time_in_background(QString::fromStdString(preset_->file), preset_->method, runner_->params(), runner_->context(),
                                      iterations, seconds, this, std::move(describe));
}

// Sets `preset` up on a new Runner: shown at once when nothing runs yet, else pending until settled.
void MainWindow::startRunner(std::unique_ptr<Preset> preset, const QString& path, const ExecutionContext& ctx) {
  RunnerOptions ropt;
  ropt.snapshot_interval = kSnapshotInterval;
  ropt.yield_to_gui = true;
  ropt.device_field = preset_field(*preset);  // the CUDA backend keeps it on the device for the field view
  ropt.after_iteration = [recorder = recorder_](const Method& m, const ExecutionContext&) { recorder->after_iteration(m); };
  auto runner = std::make_unique<Runner>(builtin_registry().create(preset->method), preset->params, ctx, ropt);
  if (!runner_) {
    adopt(std::move(runner), std::move(preset), path, ctx);  // nothing to keep: show its state, even a failed setup
  } else {
    // The shown run waits while the new one sets up (both would share the cores); a set-up still
    // pending is given up.
    runner_->pause();
    if (pending_) retired_.retire(std::move(std::exchange(pending_, nullptr)->runner));
    pending_ = std::make_unique<PendingLoad>(PendingLoad{std::move(runner), std::move(preset), path, ctx});
    log_->appendMessage(QString("setting up %1 …").arg(path));
  }
}

// In the log and, until the next one, in the status bar; on stderr too while a script runs.
void MainWindow::reportError(const QString& message) {
  log_->appendError(message);
  statusBar()->showMessage(message);
  if (options_.scripted()) std::fprintf(stderr, "kinetic-studio: error: %s\n", message.toLocal8Bit().constData());
}

// The keyboard back to the shown view, so that the window's shortcuts (Space, S, R) act again.
void MainWindow::focusShownView() {
  QWidget* page = views_->currentWidget();
  (page == field_page_ ? static_cast<QWidget*>(field_) : page)->setFocus(Qt::OtherFocusReason);
}

// Every view as in a new window (slice, plot axes and zoom, field and colour range, quick sliders),
// before the preset's own view settings: nothing of the last preset's view carries over. The colour
// map is the user's preference and stays.
void MainWindow::resetViewsForPreset() {
  field_->resetForPreset();
  quick_->clear();
  plot_->resetForPreset();
  scene_->resetForPreset();
  slice_->resetForPreset();
  slice_action_->setVisible(false);
  {
    const QSignalBlocker block(field_box_);
    field_box_->clear();
  }
  log_scale_->setChecked(false);
  auto_range_->setChecked(true);  // its handler disables the bounds
  for (QLineEdit* bound : {range_lo_, range_hi_}) {
    bound->clear();
    bound->setStyleSheet(QString());
  }
}

// Makes `runner` the current simulation and shows it.
void MainWindow::adopt(std::unique_ptr<Runner> runner, std::unique_ptr<Preset> preset, const QString& path, const ExecutionContext& ctx) {
  const QString field = QString::fromStdString(preset_field(*preset));
  field_->setDeviceField(runner->device_field());  // before the old runner and its device copy go
  recorder_->stop("another simulation was opened");
  retired_.retire(std::move(runner_));
  runner_ = std::move(runner);
  preset_ = std::move(preset);
  timed_iteration_ = 0;
  shown_.reset();
  resetViewsForPreset();
  params_->setParameters(preset_->params);
  quick_->setParameters(preset_->params.specs(), preset_->params);
  plot_->setReference(preset_->reference);
  if (!field.isEmpty()) {
    field_->setField(field);
    scene_->setField(field);
  }
  if (preset_->view.contains("series")) plot_->setSeries(QString::fromStdString(preset_->view["series"].get<std::string>()));
  // The preset's teaching picture first (the coagulation presets' size distribution on the plot).
  const std::string tab = preset_->view.value("tab", "field");
  views_->setCurrentWidget(tab == "plot" ? static_cast<QWidget*>(plot_) : tab == "scene" ? static_cast<QWidget*>(scene_) : field_page_);
  backend_label_->setText(" " + QString::fromStdString(ctx.device_name) + " ");
  if (!ctx.cuda_unused_reason.empty()) {
    const QString why = QString("CUDA not used (%1): running on the CPU").arg(QString::fromStdString(ctx.cuda_unused_reason));
    log_->appendMessage(why);
    statusBar()->showMessage(why);
  }
  browser_->select(QFileInfo(path).canonicalFilePath());
  setWindowTitle(QString("Kinetic Studio — %1").arg(QString::fromStdString(preset_->title)));
  log_->appendMessage(
      QString("loaded %1 (%2) on %3").arg(path, QString::fromStdString(preset_->method), QString::fromStdString(ctx.device_name)));
  write_settings_later([path](QSettings& settings) { settings.setValue("preset/last", path); });
  rememberRecent(path);
}

void MainWindow::fitToScreen() {
  if (!QSettings().contains("window/geometry")) resize(1280, 800);
  const QScreen* screen = this->screen();
  if (!screen) return;
  const QRect free = screen->availableGeometry();
  // A window manager adds a title bar to the height asked for: leave it room where there is one.
  const int frame = isVisible() ? frameGeometry().height() - height() : (QGuiApplication::platformName() == "xcb" ? 32 : 0);
  resize(std::min(width(), free.width()), std::min(height(), free.height() - frame));
  if (!free.contains(frameGeometry())) move(free.topLeft());
}

void MainWindow::rememberRecent(const QString& path) {
  constexpr int kRecent = 8;
  write_settings_later([canonical = QFileInfo(path).canonicalFilePath()](QSettings& settings) {
    QStringList list = settings.value("preset/recent").toStringList();
    list.removeAll(canonical);
    list.prepend(canonical);
    while (list.size() > kRecent) list.removeLast();
    settings.setValue("preset/recent", list);
  });
}

bool MainWindow::saveParametersAsPreset(const QString& path) {
  if (!preset_ || !runner_) {
    reportError(kNothingRuns);
    return false;
  }
  try {
    const nlohmann::json doc = modified_preset(*preset_, runner_->pending_params());
    write_file_atomically(path.toStdString(), doc.dump(2) + "\n", "preset");
    log_->appendMessage("parameters saved as the preset " + path);
    browser_->scan(preset_dir());  // it may have been saved among them
    browser_->select(QFileInfo(QString::fromStdString(preset_->file)).canonicalFilePath());
    return true;
  } catch (const std::exception& e) {
    reportError(QString("could not save the preset %1: %2").arg(path, QString::fromStdString(e.what())));
    return false;
  }
}

// The pending simulation replaces the current one once set up; a failed setup is reported and dropped.
void MainWindow::adoptPendingWhenSettled() {
  if (!pending_ || !pending_->runner->wait_settled(std::chrono::milliseconds(0))) return;
  std::unique_ptr<PendingLoad> p = std::move(pending_);
  if (p->runner->state() == RunState::Failed) {
    reportError(QString("%1: %2 (the current simulation is kept)").arg(p->path, QString::fromStdString(p->runner->error())));
    browser_->select(QFileInfo(preset_ ? QString::fromStdString(preset_->file) : QString()).canonicalFilePath());
    return;
  }
  adopt(std::move(p->runner), std::move(p->preset), p->path, p->ctx);
}

void MainWindow::applyParameter(const QString& key, const ParamValue& value) {
  if (!runner_) return;
  if (!nextSetupFits(key.toStdString(), value)) return;
  const SetResult r = runner_->set(key.toStdString(), value);
  if (r.status == SetResult::Status::Refused) log_->appendError(QString::fromStdString(r.message));
  else log_->appendMessage(QString::fromStdString(r.message));
}

// A change that needs a re-setup is refused here when the set-up it leads to would not fit in
// memory (the estimate the Runner checks before allocating), so the current simulation is kept;
// otherwise the log says what the next set-up will need. Live changes allocate nothing.
bool MainWindow::nextSetupFits(const std::string& key, const ParamValue& value) {
  ParamSet next = runner_->pending_params();
  if (!next.has(key) || next.spec(key).live) return true;
  try {
    next.set(key, validate(next.spec(key), to_json(value), "parameter '" + key + "'"));
    const MemoryEstimate m = builtin_registry().create(preset_->method)->estimate_memory(next, runner_->context());
    check_memory(preset_->method, m, runner_->context());
    log_->appendMessage(
        QString("the set-up with %1 = %2 needs about %3 of host memory%4 (%5)")
            .arg(QString::fromStdString(key), QString::fromStdString(to_string(value)), QString::fromStdString(format_bytes(m.host_bytes)),
                 m.device_bytes ? " and " + QString::fromStdString(format_bytes(m.device_bytes)) + " on the device" : QString(),
                 QString::fromStdString(m.detail)));
    return true;
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::BadInput) return true;
    reportError(QString("%1 = %2 refused: %3 (the current simulation is kept)")
                    .arg(QString::fromStdString(key), QString::fromStdString(to_string(value)), QString::fromStdString(e.what())));
    params_->refuse(key, runner_->pending_params().value(key), QString::fromStdString(e.what()));  // not shown as if taken
    quick_->showValues(runner_->params());
    return false;
  } catch (const std::exception&) {
    return true;  // the Runner validates again and reports
  }
}

void MainWindow::poll() {
  adoptPendingWhenSettled();
  if (!runner_) {
    runScriptStep();
    return;
  }
  for (const auto& m : runner_->take_messages()) {
    if (m.rfind("run failed", 0) == 0 || m.rfind("could not", 0) == 0) log_->appendError(QString::fromStdString(m));
    else log_->appendMessage(QString::fromStdString(m));
  }
  for (const auto& m : recorder_->take_messages()) {
    if (m.find("could not write") != std::string::npos) reportError(QString::fromStdString(m));
    else log_->appendMessage(QString::fromStdString(m));
  }
  record_->setChecked(recorder_->active());
  const auto newest = runner_->snapshot();
  if (newest && newest.get() != shown_.get()) {
    const auto snap = freed_elsewhere(newest);
    shown_ = snap;
    field_->showSnapshot(snap);
    plot_->showSnapshot(snap);
    scene_->showSnapshot(snap);
    updateSliceControl();
    // The snapshot's fields, listed again whenever their names change, and the one drawn.
    const QStringList names = field_->fieldNames();
    QStringList listed;
    for (int i = 0; i < field_box_->count(); ++i) listed << field_box_->itemText(i);
    const QSignalBlocker block(field_box_);
    if (listed != names) {
      field_box_->clear();
      field_box_->addItems(names);
    }
    field_box_->setCurrentText(field_->field());
    params_->showValues(runner_->params());
    quick_->showValues(runner_->params());
  }
  recordIterationTime();
  const RunStatus status = runner_->status();
  field_->setSimulationRate(status.iterations_per_second, status.work_per_second, QString::fromStdString(status.progress.work_unit));
  updateActions();
  params_->setRunning(status.state == RunState::Running);
  // A changed status line recomposes the whole window (25-45 ms of software GL over both cores,
  // which the solver's threads then wait for): at most kStatusMs apart, and at once on a new state.
  const bool new_state = status.state != status_state_ || status.setting_up != status_setting_up_;
  if (new_state || !status_age_.isValid() || status_age_.elapsed() >= kStatusMs) {
    updateStatus(status);
    status_state_ = status.state;
    status_setting_up_ = status.setting_up;
    status_age_.start();
  }
  runScriptStep();
}

// Run, Pause, Step and Reset as the state allows; all off while no simulation is loaded.
void MainWindow::updateActions() {
  const bool loaded = runner_ != nullptr;
  const RunState state = loaded ? runner_->state() : RunState::Failed;
  run_->setEnabled(loaded && (state == RunState::Idle || state == RunState::Paused));
  pause_->setEnabled(loaded && state == RunState::Running);
  step_->setEnabled(loaded && state != RunState::Running && state != RunState::Failed);
  reset_->setEnabled(loaded);
  if (!loaded) status_->setText(kNothingRuns);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  // The left half of the status bar stays for messages (hover values, refusals).
  status_->setFixedWidth(std::max(kStatusMinimumWidth, width() / 2 - progress_bar_->width()));
}

void MainWindow::updateStatus(const RunStatus& status) {
  const Progress& p = status.progress;
  // Set-ups and long iterations say where they are, next to the state: a narrow window cuts the
  // line's end (the rates), not that.
  const auto stage_text = [](const WorkStage& w) {
    return QString("%1 (%2 %)").arg(unicode_notation(w.stage)).arg(100.0 * w.fraction, 0, 'f', 0);
  };
  const WorkStage work = runner_->work_stage();
  QString state_text = QString::fromStdString(to_string(status.state));
  if (status.state == RunState::Failed) state_text += ": " + QString::fromStdString(status.error);
  if (!work.stage.empty()) state_text += ", " + stage_text(work);
  QString text = QString("%1  |  iteration %2  |  t = %3 %4  |  residual %5  |  %6 %7/s  |  view %8 fps  |  uploads %9")
                     .arg(state_text)
                     .arg(p.iteration)
                     .arg(p.sim_time, 0, 'g', 5)
                     .arg(unicode_notation(p.time_unit))
                     .arg(p.residual, 0, 'g', 3)
                     .arg(status.work_per_second, 0, 'g', 3)
                     .arg(QString::fromStdString(p.work_unit))
                     .arg(field_->framesPerSecond(), 0, 'f', 0)
                     .arg(field_->hostUploads());
  QString waiting;
  if (status.setting_up) waiting = "setting up: " + (work.stage.empty() ? QString("…") : stage_text(work));
  if (pending_) {
    const WorkStage next = pending_->runner->work_stage();
    const QString name = QFileInfo(pending_->path).completeBaseName();
    text = QString("setting up %1: %2  |  ").arg(name, next.stage.empty() ? QString("…") : stage_text(next)) + text;
  }
  field_->setWaitingMessage(waiting);
  status_->setText(status_->fontMetrics().elidedText(text, Qt::ElideRight, status_->contentsRect().width()));
  status_->setToolTip(text);
  const RunState state = status.state;
  eta_.add(1e-3 * double(clock_.elapsed()), p.fraction_done);
  progress_bar_->setValue(int(std::lround(1000.0 * std::clamp(p.fraction_done, 0.0, 1.0))));
  const std::optional<double> left = eta_.seconds_left();
  QString bar = QString("%1 %").arg(100.0 * p.fraction_done, 0, 'f', 1);
  QString whole;  // the bar's text with the end condition, where that is known
  if (state == RunState::Finished) bar = "done";
  else if (state == RunState::Running && left) {
    bar += "  ·  " + QString::fromStdString(format_duration(*left)) + " left";
    if (!p.end_condition.empty()) whole = bar + " to " + QString::fromStdString(p.end_condition);
  } else if (state != RunState::Running) eta_.clear();  // a pause does not count in the rate
  // The bar keeps its width: an end condition too long for it ("steady state (residual 1e-07)")
  // goes to the tooltip only.
  const bool fits = !whole.isEmpty() &&
                    progress_bar_->fontMetrics().horizontalAdvance(whole) <= progress_bar_->contentsRect().width() - kProgressTextMarginPx;
  progress_bar_->setFormat(fits ? whole : bar);
  progress_bar_->setToolTip(kProgressTip + (whole.isEmpty() ? QString() : "\n" + whole));
}

// --steps / --screenshot / --export / --exit, in that order, once the runner is set up. Exit codes
// as kinetic-run's: 2 bad input (also a set-up the method refuses), 4 the run failed; 1 when a
// screenshot or export was not written. Every wait is bounded by scriptStalled().
void MainWindow::runScriptStep() {
  if (!options_.scripted() || script_stage_ >= 3) return;
  if (options_.quit_after >= 0.0) {  // --quit-after: Run once set up; quitScript() ends it
    if (script_stage_ == 0 && runner_ && runner_->wait_settled(std::chrono::milliseconds(0)) &&
        (runner_->state() == RunState::Idle || runner_->state() == RunState::Paused)) {
      script_stage_ = 1;
      runner_->start();
    }
    return;
  }
  if (!runner_) {  // the start preset was refused (reported already): nothing to run
    endScript({}, static_cast<int>(ErrorKind::BadInput));
    return;
  }
  if (scriptStalled() || !runner_->wait_settled(std::chrono::milliseconds(0))) return;
  if (!shown_ && runner_->state() == RunState::Failed) {  // the setup failed: nothing to step or show
    endScript(runner_->error(), static_cast<int>(runner_->error_kind()));
    return;
  }
  if (!shown_) return;
  if (script_stage_ == 0) {
    script_stage_ = 1;
    if (options_.steps > 0) {
      runner_->step(options_.steps);
      return;
    }
  }
  if (script_stage_ == 1) {
    script_stage_ = 2;
    QTimer::singleShot(kScreenshotSettleMs, this, [this] {
      bool ok = true;
      if (!options_.screenshot.isEmpty()) ok = saveScreenshot(options_.screenshot, options_.view) && ok;
      if (!options_.export_dir.isEmpty()) ok = exportTo(options_.export_dir) && ok;
      printFieldViewSummary();
      if (runner_->state() == RunState::Failed)  // the screenshot and export show the last good state
        endScript("the run failed: " + runner_->error(), static_cast<int>(runner_->error_kind()));
      else endScript({}, ok ? 0 : 1);
    });
  }
}

// True (and the script ended with exit code 4) once the runner has neither settled nor finished an
// iteration for kScriptStallMs. Exits at once: a worker stuck in an iteration would also hold up
// the Runner's destructor.
bool MainWindow::scriptStalled() {
  const std::int64_t iteration = runner_->progress().iteration;
  if (iteration != script_iteration_ || !script_idle_.isValid()) {
    script_iteration_ = iteration;
    script_idle_.start();
    return false;
  }
  if (script_idle_.elapsed() < kScriptStallMs) return false;
  const std::string why = "the simulation made no progress for " + std::to_string(kScriptStallMs / 1000) + " s (" +
                          to_string(runner_->state()) + " at iteration " + std::to_string(iteration) + "); the script gives up";
  endScript(why, static_cast<int>(ErrorKind::RunFailed));
  if (options_.exit) {
    std::fflush(stdout);
    std::fflush(stderr);
    std::_Exit(static_cast<int>(ErrorKind::RunFailed));
  }
  return true;
}

// The script is done: `error` (if any) on stderr and in the log, and with --exit the app ends with `exit_code`.
void MainWindow::endScript(const std::string& error, int exit_code) {
  script_stage_ = 3;
  if (!error.empty()) {
    std::fprintf(stderr, "kinetic-studio: error: %s\n", error.c_str());
    log_->appendError(QString::fromStdString(error));
  }
  if (options_.exit) QApplication::exit(exit_code);
}

// The longest stall of the GUI thread, over how long it was watched, and where that stall's time went
// (EventLoopGap::Stall; the run-queue part is -1 where the system does not say).
std::string MainWindow::eventLoopSummary() const {
  const EventLoopGap::Stall s = gap_.longest();
  char text[160];
  std::snprintf(text, sizeof text, "longest_gap_ms=%.1f over %.1f s gap_gui_cpu_ms=%.1f gap_runqueue_ms=%.1f", s.ms, gap_.secondsWatched(),
                s.gui_cpu_ms, s.runqueue_ms);
  return text;
}

// Three lines on stdout for scripts: how the field view got its data, and on which GL renderer; the
// event loop's longest stall; the run's work and the iterations' time.
void MainWindow::printFieldViewSummary() const {
  const PaintTimes& paints = field_->paintTimes();
  std::printf(
      "kinetic-studio: field view: backend=%s host_uploads=%d device_copies=%d paints=%zu paint_ms_p50=%.3g "
      "paint_ms_p99=%.3g renderer=\"%s\"\n",
      to_string(runner_->context().backend).c_str(), field_->hostUploads(), field_->deviceCopies(), paints.count(), paints.quantile(0.5),
      paints.quantile(0.99), field_->glRenderer().toLocal8Bit().constData());
  std::printf("kinetic-studio: event loop: %s\n", eventLoopSummary().c_str());
  // As kinetic-run's summary.json counts them: the work of the iterations over their own time.
  const Progress p = runner_->progress();
  std::printf("kinetic-studio: run: iterations=%lld work_done=%.6g iterations_time_s=%.6g work_unit=\"%s\"\n", (long long)p.iteration,
              p.work_done, runner_->iteration_seconds(), p.work_unit.c_str());
  std::fflush(stdout);
}

void MainWindow::applyFixedRange() {
  bool ok_lo = false, ok_hi = false;
  const double lo = range_lo_->text().toDouble(&ok_lo), hi = range_hi_->text().toDouble(&ok_hi);
  const bool valid = ok_lo && ok_hi && std::isfinite(lo) && std::isfinite(hi) && lo < hi;
  const QString style = valid ? QString() : QString("QLineEdit { border: 2px solid #c0392b; }");
  range_lo_->setStyleSheet(range_lo_->text().isEmpty() ? QString() : style);
  range_hi_->setStyleSheet(range_hi_->text().isEmpty() ? QString() : style);
  if (valid) field_->setRange(lo, hi);
}

// The slice control follows the shown field: visible for 3D image fields.
void MainWindow::updateSliceControl() {
  const FieldData* shown = nullptr;
  for (const auto& f : shown_->fields)
    if (QString::fromStdString(f.desc.name) == field_->field()) shown = &f;
  slice_action_->setVisible(slice_->follow(shown));
}

bool MainWindow::saveScreenshot(const QString& path, const QString& view) {
  bool ok = false;
  if (view == "field") {
    views_->setCurrentWidget(field_page_);
    ok = field_->grabImage().save(path);
  } else if (view == "plot") {
    views_->setCurrentWidget(plot_);
    ok = plot_->saveScreenshot(path);
  } else if (view == "scene") {
    views_->setCurrentWidget(scene_);
    ok = scene_->saveScreenshot(path);
  } else {
    // QWidget::grab leaves out what the OpenGL views paint over their frames (colour bar,
    // labels): draw the visible view's own grab over it.
    QPixmap window = grab();
    QPainter painter(&window);
    if (field_->isVisible()) painter.drawImage(field_->mapTo(this, QPoint(0, 0)), field_->grabImage());
    painter.end();
    ok = window.save(path);
  }
  if (ok) log_->appendMessage("screenshot saved: " + path);
  else reportError("could not save the screenshot " + path);
  return ok;
}

bool MainWindow::exportTo(const QString& dir) {
  if (!shown_) return false;
  try {
    QDir().mkpath(dir);
    QStringList written;
    const std::shared_ptr<const Snapshot> files = fileSnapshot();
    const Snapshot& snap = *files;
    for (const Dataset& d : datasets_of(snap.fields))
      written << QString::fromStdString(
          write_dataset_vtk(d, dir.toStdString() + "/" + d.name, VtkEncoding::Binary, snap.progress.sim_time));
    for (const auto& s : snap.series) {
      const QString path = dir + "/series_" + QString::fromStdString(file_safe(s.name)) + ".csv";
      write_series_csv(s, path.toStdString());
      written << path;
    }
    log_->appendMessage(QString("exported %1 files to %2").arg(written.size()).arg(dir));
    return true;
  } catch (const std::exception& e) {
    reportError(QString::fromStdString(e.what()));
    return false;
  }
}

// The fields as files take them (a stretched grid at its own cells), of the state shown or a later
// one; the shown snapshot where the runner has none yet.
std::shared_ptr<const Snapshot> MainWindow::fileSnapshot() const {
  std::shared_ptr<const Snapshot> files = runner_ ? runner_->file_snapshot() : nullptr;
  return files ? files : shown_;
}

bool MainWindow::recordTo(const QString& dir, int every) {
  if (!shown_) {
    reportError(kNothingRuns);
    return false;
  }
  try {
    recorder_->start(dir.toStdString(), every, *fileSnapshot());
    log_->appendMessage(QString("recording every %1 iterations to %2 (a .pvd per dataset, for ParaView)").arg(every).arg(dir));
  } catch (const std::exception& e) {
    reportError(QString("could not record: %1").arg(e.what()));
  }
  record_->setChecked(recorder_->active());
  return recorder_->active();
}

void MainWindow::stopRecording() {
  recorder_->stop();
  record_->setChecked(false);
  for (const auto& m : recorder_->take_messages()) log_->appendMessage(QString::fromStdString(m));
}

void MainWindow::recordDialog() {
  if (recorder_->active()) return stopRecording();
  record_->setChecked(false);
  const QString dir = QFileDialog::getExistingDirectory(this, "Record the fields as a time series (.pvd) into", dialogFolder());
  if (dir.isEmpty()) return;
  rememberDialogFolder(dir);
  bool ok = false;
  const int every = QInputDialog::getInt(this, "Record time series", "Write the fields every N iterations, N =", 10, 1, 1000000000, 1, &ok);
  if (ok) recordTo(dir, every);
}

void MainWindow::saveScreenshotDialog() {
  const QString path = QFileDialog::getSaveFileName(this, "Save screenshot", dialogFolder() + "/screenshot.png", "PNG images (*.png)");
  if (path.isEmpty()) return;
  rememberDialogFolder(QFileInfo(path).absolutePath());
  const QWidget* current = views_->currentWidget();
  saveScreenshot(path, current == plot_ ? "plot" : current == scene_ ? "scene" : "field");
}

void MainWindow::exportDialog() {
  const QString dir = QFileDialog::getExistingDirectory(this, "Export fields (.vti/.vtp) and series (.csv) to", dialogFolder());
  if (dir.isEmpty()) return;
  rememberDialogFolder(dir);
  exportTo(dir);
}

// Where the save and export dialogs open: the folder last used, else the user's documents (never the
// folder the app was started from, often the source tree).
QString MainWindow::dialogFolder() const {
  const QString last = QSettings().value("dialog/folder").toString();
  if (!last.isEmpty() && QFileInfo(last).isDir()) return last;
  return QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
}

void MainWindow::rememberDialogFolder(const QString& dir) {
  write_settings_later([dir](QSettings& settings) { settings.setValue("dialog/folder", dir); });
}

// The method's README rendered as Markdown in a window of the app (no .md handler needed), a window
// this one owns: Quit closes it too (a window of its own kept the app running without its main window).
void MainWindow::showMethodNotes(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return reportError("could not read " + path + ": " + file.errorString());
  auto* notes = new QTextBrowser(this);
  notes->setWindowFlag(Qt::Window);
  notes->setAttribute(Qt::WA_DeleteOnClose);
  notes->setWindowTitle("Method notes — " + QFileInfo(path).dir().dirName());
  notes->setOpenExternalLinks(true);
  notes->setSearchPaths({QFileInfo(path).absolutePath()});
  notes->setMarkdown(QString::fromUtf8(file.readAll()));
  notes->resize(std::min(900, width()), std::min(700, height()));
  notes->show();
  log_->appendMessage("method notes: " + path);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  write_settings_later([geometry = saveGeometry(), state = saveState(), colormap = field_->colormap()](QSettings& settings) {
    settings.setValue("window/geometry", geometry);
    settings.setValue("window/state", state);
    settings.setValue("view/colormap", colormap);
  });
  field_->setDeviceField(nullptr);
  timer_->stop();                       // nothing left to poll
  retired_.retire(std::move(runner_));  // they stop at once; the window does not wait for them
  if (pending_) retired_.retire(std::move(std::exchange(pending_, nullptr)->runner));
  for (QTextBrowser* notes : findChildren<QTextBrowser*>(Qt::FindDirectChildrenOnly)) notes->close();
  event->accept();
}

}  // namespace ks::gui
