#include "main_window.hpp"

#include <cstdio>

#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSlider>
#include <QPainter>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <cmath>

#include "core/errors.hpp"
#include "core/registry.hpp"
#include "colormaps.hpp"
#include "field_view.hpp"
#include "io/field_writer.hpp"
#include "io/vtk_xml_writer.hpp"
#include "log_panel.hpp"
#include "parameter_panel.hpp"
#include "plot_view.hpp"
#include "preset_browser.hpp"
#include "scene_view.hpp"

// The shaders are compiled into the kinetic-studio-lib static library, whose resource
// initialiser the linker may drop: register them explicitly (must be at global scope).
static void register_resources() { Q_INIT_RESOURCE(kinetic_studio); }

namespace ks::gui {

namespace {

constexpr int kPollMs = 33;                  // ~30 Hz: snapshots, progress, log
constexpr int kScreenshotSettleMs = 400;     // lets throttled views draw the final snapshot
constexpr auto kSnapshotInterval = std::chrono::milliseconds(50);

QString preset_dir() {
  const QByteArray env = qgetenv("KS_PRESET_DIR");
  return env.isEmpty() ? QString(KS_PRESET_DIR) : QString::fromLocal8Bit(env);
}

// The field the preset shows first; empty when it names none.
std::string preset_field(const Preset& preset) {
  return preset.view.contains("field") ? preset.view["field"].get<std::string>() : std::string();
}

}  // namespace

MainWindow::MainWindow(AppOptions options, QWidget* parent) : QMainWindow(parent), options_(std::move(options)) {
  register_resources();
  setWindowTitle("Kinetic Studio");
  views_ = new QTabWidget(this);
  field_ = new FieldView(views_);
  plot_ = new PlotView(views_);
  scene_ = new SceneView(views_);
  views_->addTab(field_, "Field");
  views_->addTab(plot_, "Plot");
  views_->addTab(scene_, "Scene");
  setCentralWidget(views_);
  buildDocks();
  buildActions();
  status_ = new QLabel(this);
  statusBar()->addWidget(status_, 1);
  connect(field_, &FieldView::hovered, this, [this](const QString& text) { statusBar()->showMessage(text, 2000); });
  connect(field_, &FieldView::quickParameterChanged, this, &MainWindow::applyParameter);
  connect(field_, &FieldView::deviceSelectionWanted, this, [this](const QString& field, int component) {
    if (runner_) runner_->show_on_device(field.toStdString(), component);
  });

  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
  if (settings.contains("view/colormap")) colormap_box_->setCurrentText(settings.value("view/colormap").toString());

  browser_->scan(preset_dir());
  QString first = options_.preset;
  if (first.isEmpty()) first = settings.value("preset/last").toString();
  if (first.isEmpty() || !QFileInfo::exists(first)) first = preset_dir() + "/coagulation/teaching-demo.json";
  loadPreset(first);

  timer_ = new QTimer(this);
  connect(timer_, &QTimer::timeout, this, &MainWindow::poll);
  timer_->start(kPollMs);
}

MainWindow::~MainWindow() = default;

void MainWindow::buildDocks() {
  browser_ = new PresetBrowser(this);
  auto* presets = new QDockWidget("Presets", this);
  presets->setObjectName("presets");
  presets->setWidget(browser_);
  addDockWidget(Qt::LeftDockWidgetArea, presets);
  connect(browser_, &PresetBrowser::presetActivated, this, [this](const QString& path) { loadPreset(path); });

  params_ = new ParameterPanel(this);
  auto* params = new QDockWidget("Parameters", this);
  params->setObjectName("parameters");
  params->setWidget(params_);
  addDockWidget(Qt::RightDockWidgetArea, params);
  connect(params_, &ParameterPanel::parameterEdited, this, &MainWindow::applyParameter);

  log_ = new LogPanel(this);
  auto* log = new QDockWidget("Log", this);
  log->setObjectName("log");
  log->setWidget(log_);
  addDockWidget(Qt::BottomDockWidgetArea, log);
}

void MainWindow::buildActions() {
  QToolBar* bar = addToolBar("Run");
  bar->setObjectName("run");
  run_ = bar->addAction("Run", this, [this] { if (runner_) runner_->start(); });
  pause_ = bar->addAction("Pause", this, [this] { if (runner_) runner_->pause(); });
  step_ = bar->addAction("Step", this, [this] { if (runner_) runner_->step(1); });
  reset_ = bar->addAction("Reset", this, [this] { if (runner_) runner_->reset(); });
  step_->setShortcut(Qt::Key_S);
  reset_->setShortcut(Qt::Key_R);
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
  connect(field_box_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
    if (name.isEmpty()) return;
    field_->setField(name);
    scene_->setField(name);
    if (shown_) updateSliceRange();
  });
  view->addWidget(field_box_);
  auto* colormap = new QComboBox(this);
  colormap->addItems(colormap_names());
  colormap->setToolTip("Colour map");
  connect(colormap, &QComboBox::currentTextChanged, field_, &FieldView::setColormap);
  view->addWidget(colormap);
  auto* log_scale = new QCheckBox("log", this);
  connect(log_scale, &QCheckBox::toggled, field_, &FieldView::setLogScale);
  view->addWidget(log_scale);
  auto* auto_range = new QCheckBox("auto range", this);
  auto_range->setChecked(true);
  view->addWidget(auto_range);
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
  connect(auto_range, &QCheckBox::toggled, this, [this](bool on) {
    field_->setAutoRange(on);
    range_lo_->setEnabled(!on);
    range_hi_->setEnabled(!on);
    if (!on) applyFixedRange();
  });
  // z slice of 3D image fields (hidden for 2D fields and particles).
  slice_ = new QSlider(Qt::Horizontal, this);
  slice_->setFixedWidth(140);
  slice_->setToolTip("z slice of a 3D field");
  connect(slice_, &QSlider::valueChanged, field_, &FieldView::setSlice);
  slice_action_ = view->addWidget(slice_);
  slice_action_->setVisible(false);
  colormap_box_ = colormap;

  QMenu* file = menuBar()->addMenu("&File");
  file->addAction("Screenshot…", QKeySequence("Ctrl+S"), this, &MainWindow::saveScreenshotDialog);
  file->addAction("Export fields and series…", QKeySequence("Ctrl+E"), this, &MainWindow::exportDialog);
  file->addSeparator();
  file->addAction("Quit", QKeySequence::Quit, this, &QWidget::close);
}

bool MainWindow::loadPreset(const QString& path) {
  try {
    auto preset = std::make_unique<Preset>(load_preset(path.toStdString(), builtin_registry()));
    const bool first_load = !runner_;
    if (first_load) {
      for (const auto& [key, text] : options_.sets) {
        const std::string k = key.toStdString();
        if (!preset->params.has(k)) throw bad_input("--set " + k, "unknown parameter '" + k + "'");
        preset->params.set(k, parse_value(preset->params.spec(k), text.toStdString(), "--set " + k));
      }
    }
    BackendRequest request = preset->backend.value_or(BackendRequest::Auto);
    if (first_load && !options_.backend.isEmpty()) request = parse_backend(options_.backend.toStdString(), "--backend");
    ExecutionContext ctx;
    try {
      ctx = resolve_backend(request);
    } catch (const Error& e) {
      log_->appendError(QString("%1; running on the CPU instead").arg(e.what()));
      ctx = resolve_backend(BackendRequest::Cpu);
    }
    RunnerOptions ropt;
    ropt.snapshot_interval = kSnapshotInterval;
    ropt.device_field = preset_field(*preset);  // the CUDA backend keeps it on the device for the field view
    auto runner = std::make_unique<Runner>(builtin_registry().create(preset->method), preset->params, ctx, ropt);
    if (first_load) {
      adopt(std::move(runner), std::move(preset), path, ctx);  // nothing to keep: show its state, even a failed setup
    } else {
      pending_ = std::make_unique<PendingLoad>(PendingLoad{std::move(runner), std::move(preset), path, ctx});
      log_->appendMessage(QString("setting up %1 …").arg(path));
    }
    return true;
  } catch (const std::exception& e) {
    log_->appendError(QString("%1 (the current simulation is kept)").arg(e.what()));
    return false;
  }
}

// Makes `runner` the current simulation and shows it.
void MainWindow::adopt(std::unique_ptr<Runner> runner, std::unique_ptr<Preset> preset, const QString& path,
                       const ExecutionContext& ctx) {
  const QString field = QString::fromStdString(preset_field(*preset));
  field_->setDeviceField(runner->device_field());  // before the old runner and its device copy go
  runner_ = std::move(runner);
  preset_ = std::move(preset);
  shown_.reset();
  params_->setParameters(preset_->params);
  field_->setQuickParameters(preset_->params.specs(), preset_->params);
  plot_->setReference(preset_->reference);
  if (!field.isEmpty()) {
    field_->setField(field);
    scene_->setField(field);
  }
  if (preset_->view.contains("series")) plot_->setSeries(QString::fromStdString(preset_->view["series"].get<std::string>()));
  backend_label_->setText(" " + QString::fromStdString(ctx.device_name) + " ");
  browser_->select(QFileInfo(path).canonicalFilePath());
  setWindowTitle(QString("Kinetic Studio — %1").arg(QString::fromStdString(preset_->title)));
  log_->appendMessage(QString("loaded %1 (%2) on %3")
                          .arg(path, QString::fromStdString(preset_->method), QString::fromStdString(ctx.device_name)));
  QSettings().setValue("preset/last", path);
}

// The pending simulation replaces the current one once set up; a failed setup is reported and dropped.
void MainWindow::adoptPendingWhenSettled() {
  if (!pending_ || !pending_->runner->wait_settled(std::chrono::milliseconds(0))) return;
  std::unique_ptr<PendingLoad> p = std::move(pending_);
  if (p->runner->state() == RunState::Failed) {
    log_->appendError(QString("%1: %2 (the current simulation is kept)")
                          .arg(p->path, QString::fromStdString(p->runner->error())));
    browser_->select(QFileInfo(preset_ ? QString::fromStdString(preset_->file) : QString()).canonicalFilePath());
    return;
  }
  adopt(std::move(p->runner), std::move(p->preset), p->path, p->ctx);
}

void MainWindow::applyParameter(const QString& key, const ParamValue& value) {
  if (!runner_) return;
  const SetResult r = runner_->set(key.toStdString(), value);
  if (r.status == SetResult::Status::Refused) log_->appendError(QString::fromStdString(r.message));
  else log_->appendMessage(QString::fromStdString(r.message));
}

void MainWindow::poll() {
  adoptPendingWhenSettled();
  if (!runner_) return;
  for (const auto& m : runner_->take_messages()) {
    if (m.rfind("run failed", 0) == 0 || m.rfind("could not", 0) == 0) log_->appendError(QString::fromStdString(m));
    else log_->appendMessage(QString::fromStdString(m));
  }
  const auto snap = runner_->snapshot();
  if (snap && snap != shown_) {
    shown_ = snap;
    field_->showSnapshot(snap);
    plot_->showSnapshot(snap);
    scene_->showSnapshot(snap);
    updateSliceRange();
    if (field_box_->count() != field_->fieldNames().size()) {
      const QSignalBlocker block(field_box_);
      field_box_->clear();
      field_box_->addItems(field_->fieldNames());
      field_box_->setCurrentText(field_->field());
    }
    params_->showValues(runner_->params());
    field_->showValues(runner_->params());
  }
  field_->setSimulationRate(runner_->iterations_per_second(), runner_->work_per_second(),
                            QString::fromStdString(runner_->progress().work_unit));
  const RunState state = runner_->state();
  run_->setEnabled(state == RunState::Idle || state == RunState::Paused);
  pause_->setEnabled(state == RunState::Running);
  step_->setEnabled(state != RunState::Running && state != RunState::Failed);
  params_->setRunning(state == RunState::Running);
  updateStatus();
  runScriptStep();
}

void MainWindow::updateStatus() {
  const Progress p = runner_->progress();
  QString text = QString("%1  |  iteration %2  |  t = %3 %4  |  residual %5  |  %6 %7/s  |  view %8 fps  |  uploads %9")
                     .arg(QString::fromStdString(to_string(runner_->state())))
                     .arg(p.iteration)
                     .arg(p.sim_time, 0, 'g', 5)
                     .arg(QString::fromStdString(p.time_unit))
                     .arg(p.residual, 0, 'g', 3)
                     .arg(runner_->work_per_second(), 0, 'g', 3)
                     .arg(QString::fromStdString(p.work_unit))
                     .arg(field_->framesPerSecond(), 0, 'f', 0)
                     .arg(field_->hostUploads());
  if (runner_->state() == RunState::Failed) text += "  |  " + QString::fromStdString(runner_->error());
  status_->setText(text);
}

// --steps / --screenshot / --export / --exit, in that order, once the runner is set up.
void MainWindow::runScriptStep() {
  const bool scripted = options_.steps >= 0 || !options_.screenshot.isEmpty() || !options_.export_dir.isEmpty() || options_.exit;
  if (!scripted || script_stage_ >= 3 || !runner_->wait_settled(std::chrono::milliseconds(0))) return;
  if (!shown_ && runner_->state() == RunState::Failed) {  // the setup failed: nothing to step or show
    std::fprintf(stderr, "kinetic-studio: %s\n", runner_->error().c_str());
    script_stage_ = 3;
    if (options_.exit) QApplication::exit(1);
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
      script_stage_ = 3;
      if (options_.exit) QApplication::exit(ok && runner_->state() != RunState::Failed ? 0 : 1);
    });
  }
}

// One line on stdout for scripts: how the field view got its data, and on which GL renderer.
void MainWindow::printFieldViewSummary() const {
  std::printf("kinetic-studio: field view: backend=%s host_uploads=%d device_copies=%d renderer=\"%s\"\n",
              to_string(runner_->context().backend).c_str(), field_->hostUploads(), field_->deviceCopies(),
              field_->glRenderer().toLocal8Bit().constData());
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

// The slider follows the shown field: visible for 3D image fields, range 0 .. nz - 1.
void MainWindow::updateSliceRange() {
  int nz = 1;
  for (const auto& f : shown_->fields)
    if (QString::fromStdString(f.desc.name) == field_->field() && f.grid.kind == Grid::Kind::Image) nz = f.grid.cells[2];
  slice_action_->setVisible(nz > 1);
  if (nz > 1 && slice_->maximum() != nz - 1) {
    slice_->setRange(0, nz - 1);
    slice_->setValue(nz / 2);
  }
}

bool MainWindow::saveScreenshot(const QString& path, const QString& view) {
  bool ok = false;
  if (view == "field") {
    views_->setCurrentWidget(field_);
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
  else log_->appendError("could not save the screenshot " + path);
  return ok;
}

bool MainWindow::exportTo(const QString& dir) {
  if (!shown_) return false;
  try {
    QDir().mkpath(dir);
    QStringList written;
    for (const auto& f : shown_->fields)
      written << QString::fromStdString(write_field_vtk(f, (dir + "/" + QString::fromStdString(file_safe(f.desc.name))).toStdString()));
    for (const auto& s : shown_->series) {
      const QString path = dir + "/series_" + QString::fromStdString(file_safe(s.name)) + ".csv";
      write_series_csv(s, path.toStdString());
      written << path;
    }
    log_->appendMessage(QString("exported %1 files to %2").arg(written.size()).arg(dir));
    return true;
  } catch (const std::exception& e) {
    log_->appendError(e.what());
    return false;
  }
}

void MainWindow::saveScreenshotDialog() {
  const QString path = QFileDialog::getSaveFileName(this, "Save screenshot", "screenshot.png", "PNG images (*.png)");
  if (path.isEmpty()) return;
  const QWidget* current = views_->currentWidget();
  saveScreenshot(path, current == plot_ ? "plot" : current == scene_ ? "scene" : "field");
}

void MainWindow::exportDialog() {
  const QString dir = QFileDialog::getExistingDirectory(this, "Export fields (.vti/.vtp) and series (.csv) to");
  if (!dir.isEmpty()) exportTo(dir);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  QSettings settings;
  settings.setValue("window/geometry", saveGeometry());
  settings.setValue("window/state", saveState());
  settings.setValue("view/colormap", field_->colormap());
  field_->setDeviceField(nullptr);
  runner_.reset();  // stops the worker after its current iteration
  event->accept();
}

}  // namespace ks::gui
