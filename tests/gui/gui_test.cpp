// The desktop app driven as a person or a script would (runs under xvfb-run from ctest):
// scripted screenshots are not blank, exported fields read back with VTK equal the
// engine's, and a live parameter change while running is applied.
#include <gtest/gtest.h>

#include <QApplication>
#include <QImage>
#include <QSet>
#include <QSurfaceFormat>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>

#include <QAbstractScrollArea>
#include <QScrollBar>
#include <QDockWidget>
#include <QAction>
#include <QKeyEvent>
#include <QComboBox>
#include <QLabel>
#include <QFormLayout>
#include <QLineEdit>
#include <QMenuBar>
#include <QSlider>
#include <QTabWidget>
#include <QTextBrowser>
#include <QScreen>
#include <QProgressBar>
#include <QFileInfo>
#include <QSettings>
#include <QOpenGLWidget>
#include <QProcess>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QStatusBar>
#include <QToolBar>
#include <QWheelEvent>

#include "app/gui/app_options.hpp"
#include "app/gui/field_view.hpp"
#include "app/gui/help_menu.hpp"
#include "app/gui/progress_eta.hpp"
#include "app/gui/log_panel.hpp"
#include "app/gui/main_window.hpp"
#include "app/gui/parameter_panel.hpp"
#include "app/gui/plot_view.hpp"
#include "core/errors.hpp"
#include "core/registry.hpp"
#include "io/preset.hpp"
#include "temp_dir.hpp"
#include "methods/coagulation/coag_method.hpp"
#include "run/runner.hpp"

namespace {

const std::string kDemo = std::string(KS_SOURCE_DIR) + "/presets/coagulation/teaching-demo.json";
// Small and deterministic: CPU backend, 400 particles, 2 runs, 4 iterations.
const std::string kSmall = " --backend cpu --set n_s=400 --set n_runs=2 --steps 4 ";

using ks::test::temp_dir;

int run_app(const std::string& args) {
  const std::string cmd = std::string(KS_KINETIC_STUDIO) + " --preset " + kDemo + args + " > /dev/null 2>&1";
  return WEXITSTATUS(std::system(cmd.c_str()));
}

// kinetic-studio with exactly `args`: whether it ended within the timeout (else it is killed),
// its exit code (-1 for a crash or a kill), stdout and stderr.
struct AppRun {
  bool finished = false;
  int exit_code = -1;
  std::string out, err;
};

AppRun run_app_bounded(const QStringList& args, int timeout_ms = 60000,
                       const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  QProcess p;
  p.setProcessEnvironment(env);
  p.start(QString(KS_KINETIC_STUDIO), args);
  AppRun r;
  r.finished = p.waitForStarted(10000) && p.waitForFinished(timeout_ms);
  if (!r.finished) {
    p.kill();
    p.waitForFinished(10000);
  } else if (p.exitStatus() == QProcess::NormalExit) {
    r.exit_code = p.exitCode();
  }
  r.out = p.readAllStandardOutput().toStdString();
  r.err = p.readAllStandardError().toStdString();
  return r;
}

// A script with bad input ends at once with exit code 2 and the message (every one of `parts`) on
// stderr, and runs nothing: no field-view line on stdout, so no other preset ran instead.
void expect_script_refused(const QStringList& args, const std::vector<std::string>& parts) {
  const AppRun r = run_app_bounded(args);
  ASSERT_TRUE(r.finished) << "kinetic-studio " << args.join(' ').toStdString() << " did not end within 60 s";
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("kinetic-studio: error: "), std::string::npos) << r.err;
  for (const auto& part : parts) EXPECT_NE(r.err.find(part), std::string::npos) << "'" << part << "' is not in: " << r.err;
  EXPECT_EQ(r.out.find("field view"), std::string::npos) << r.out;
}

QString q(const std::string& s) { return QString::fromStdString(s); }

// The app's options for preset file `preset` on the CPU backend.
ks::gui::AppOptions cpu_options(const std::string& preset) {
  ks::gui::AppOptions options;
  options.preset = q(preset);
  options.backend = "cpu";
  return options;
}

// Distinct colours in a downsampled image: a blank or single-colour view has very few.
int distinct_colours(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
  return colours.size();
}

TEST(GuiScripted, FieldScreenshotShowsSeveralColormapColours) {
  const std::string dir = temp_dir("field");
  ASSERT_EQ(run_app(kSmall + "--screenshot " + dir + "/field.png --view field --exit"), 0);
  const QImage image(QString::fromStdString(dir + "/field.png"));
  ASSERT_FALSE(image.isNull());
  // Particles coloured by diameter over a colour bar: dozens of colours; blank would be 1-3.
  EXPECT_GE(distinct_colours(image), 16);
}

TEST(GuiScripted, PlotScreenshotIsNotBlank) {
  const std::string dir = temp_dir("plot");
  ASSERT_EQ(run_app(kSmall + "--screenshot " + dir + "/plot.png --view plot --exit"), 0);
  const QImage image(QString::fromStdString(dir + "/plot.png"));
  ASSERT_FALSE(image.isNull());
  EXPECT_GE(distinct_colours(image), 8);  // axes, labels, curves and legend in several colours
}

TEST(GuiScripted, SceneScreenshotIsNotBlank) {
  const std::string dir = temp_dir("scene");
  ASSERT_EQ(run_app(kSmall + "--screenshot " + dir + "/scene.png --view scene --exit"), 0);
  const QImage image(QString::fromStdString(dir + "/scene.png"));
  ASSERT_FALSE(image.isNull());
  EXPECT_GE(distinct_colours(image), 8);  // shaded particles, colour bar, outline, axes and labels
}

TEST(GuiScripted, ExportedParticlesReadBackEqualToTheEngine) {
  const std::string dir = temp_dir("export");
  ASSERT_EQ(run_app(kSmall + "--export " + dir + " --exit"), 0);
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName((dir + "/particles.vtp").c_str());  // diameter and weight
  reader->Update();
  vtkDataArray* read = reader->GetOutput()->GetPointData()->GetArray("diameter");
  ASSERT_NE(read, nullptr);

  // The same simulation in the engine directly: same parameters, 4 iterations, CPU.
  ks::coag::CoagulationMethod m;
  ks::ParamSet p = ks::load_preset(kDemo, ks::builtin_registry()).params;
  p.set("n_s", std::int64_t(400));
  p.set("n_runs", std::int64_t(2));
  m.setup(p, ks::resolve_backend(ks::BackendRequest::Cpu));
  for (int i = 0; i < 4; ++i) m.advance();
  const ks::Snapshot snap = m.snapshot();
  const ks::FieldData& engine = snap.fields.at(0);
  ASSERT_EQ(read->GetNumberOfTuples(), static_cast<vtkIdType>(engine.values.size()));
  for (std::size_t k = 0; k < engine.values.size(); ++k)
    ASSERT_EQ(read->GetTuple1(static_cast<vtkIdType>(k)), engine.values[k]) << "particle " << k;  // 17 digits: exact
}

TEST(GuiScriptedBadInput, MissingPresetEndsWithCodeTwoNamingTheFile) {
  const std::string missing = temp_dir("missing") + "/no-such-preset.json";
  expect_script_refused({"--preset", q(missing), "--backend", "cpu", "--steps", "1", "--exit"}, {missing});
}

TEST(GuiScriptedBadInput, PresetThatIsNotJsonEndsWithCodeTwoNamingTheFile) {
  const std::string broken = temp_dir("notjson") + "/broken.json";
  std::ofstream(broken) << R"({"method": "aerosol.coagulation", "params": {"n_s": )";
  expect_script_refused({"--preset", q(broken), "--backend", "cpu", "--steps", "1", "--exit"}, {broken});
}

TEST(GuiScriptedBadInput, UnknownSetKeyEndsWithCodeTwoListingTheKeys) {
  expect_script_refused({"--preset", q(kDemo), "--set", "no_such_key=1", "--steps", "1", "--exit"}, {"--set no_such_key", "n_s", "n_runs"});
}

TEST(GuiScriptedBadInput, OutOfRangeSetValueEndsWithCodeTwoNamingTheRange) {
  expect_script_refused({"--preset", q(kDemo), "--set", "n_s=-5", "--screenshot", q(temp_dir("range") + "/x.png"), "--exit"},
                        {"--set n_s", "-5", "out of range", "allowed"});
}

TEST(GuiScriptedBadInput, SetValueThatIsNotANumberEndsWithCodeTwo) {
  expect_script_refused({"--preset", q(kDemo), "--set", "n_runs=many", "--exit"}, {"--set n_runs", "'many'", "not a number"});
}

TEST(GuiScriptedBadInput, UnknownBackendEndsWithCodeTwo) {
  expect_script_refused({"--preset", q(kDemo), "--backend", "gpu", "--exit"}, {"--backend", "gpu", "auto, cuda or cpu"});
}

// Parameters within their ranges whose set-up the method refuses (the cavity's Courant limit on dt):
// the Runner fails with bad input, and the script ends with code 2 and the Runner's message.
TEST(GuiScriptedBadInput, SetupRefusedByTheMethodEndsWithCodeTwo) {
  const std::string cavity = temp_dir("setupfail") + "/cavity.json";
  std::ofstream(cavity) << R"({"method": "kinetic.bgk", "title": "too large a time step",
      "params": {"case": "cavity", "nx": 16, "ny": 16, "nv": 8, "vx_min": -3, "vx_max": 3, "vt_max": 3, "dt": 0.9}})";
  expect_script_refused({"--preset", q(cavity), "--backend", "cpu", "--steps", "1", "--exit"}, {"setup failed", "dt"});
}

// As on a machine without a display (ssh, CI): no X server, no Wayland, no platform chosen.
QProcessEnvironment without_display() {
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"}) env.remove(name);
  return env;
}

TEST(GuiCommandLine, HelpWithoutADisplayExitsZeroListingEveryOption) {
  const AppRun r = run_app_bounded({"--help"}, 60000, without_display());
  ASSERT_TRUE(r.finished);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* part :
       {"usage: kinetic-studio [options]", "--preset FILE", "--set key=value", "--backend B", "--steps N", "--screenshot FILE.png",
        "--view V", "--export DIR", "--exit", "-h, --help", "--version", "exit codes", "--steps=10"})
    EXPECT_NE(r.out.find(part), std::string::npos) << "'" << part << "' is not in: " << r.out;
  EXPECT_EQ(run_app_bounded({"-h"}, 60000, without_display()).out, r.out);
}

TEST(GuiCommandLine, VersionWithoutADisplayExitsZeroWithTheProjectVersion) {
  const AppRun r = run_app_bounded({"--version"}, 60000, without_display());
  ASSERT_TRUE(r.finished);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string("kinetic-studio ") + KS_VERSION + "\n");
}

// Opening a window without a display says so in one line (not Qt's abort and advice to reinstall).
TEST(GuiCommandLine, AWindowWithoutADisplaySaysWhatIsMissingAndWhatToUse) {
  const AppRun r = run_app_bounded({"--preset", QString::fromStdString(kDemo)}, 60000, without_display());
  ASSERT_TRUE(r.finished);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.rfind("kinetic-studio: error: no display found", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("kinetic-run"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// A bad option is answered before a window (or a display) is needed: exit 2, one line on stderr.
TEST(GuiCommandLine, BadOptionWithoutADisplayExitsTwoWithOneLine) {
  for (const QStringList& args : {QStringList{"--frobnicate"}, QStringList{"--steps=99999999999", "--exit"}, QStringList{"--view", "bogus"},
                                  QStringList{"--steps"}, QStringList{"preset.json"}}) {
    const AppRun r = run_app_bounded(args, 60000, without_display());
    ASSERT_TRUE(r.finished) << args.join(' ').toStdString();
    EXPECT_EQ(r.exit_code, 2) << args.join(' ').toStdString() << ": " << r.err;
    EXPECT_EQ(r.err.rfind("kinetic-studio: error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// Qt's own options are taken by the QApplication, the app's after it.
TEST(GuiCommandLine, QtOptionsAreAcceptedBesideTheAppsOwn) {
  QProcessEnvironment env = without_display();
  AppRun r = run_app_bounded({"-platform", "offscreen", "--version"}, 60000, env);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("kinetic-studio "), std::string::npos) << r.out;
  r = run_app_bounded({"-platform", "offscreen", "--frobnicate"}, 60000, env);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--frobnicate: unknown option"), std::string::npos) << r.err;
}

ks::gui::AppOptions parsed(QStringList args) {
  args.prepend("kinetic-studio");
  return ks::gui::parse_app_options(args);
}

// The message of the ks::Error that parsing args throws ("" when it does not throw).
std::string refusal(const QStringList& args) {
  try {
    parsed(args);
  } catch (const ks::Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    return e.what();
  }
  return "";
}

TEST(GuiCommandLine, ValuesJoinedByEqualsParseLikeSeparateOnes) {
  const ks::gui::AppOptions a = parsed({"--preset=p.json", "--set=n_s=400", "--set", "n_runs=2", "--backend=cpu", "--steps=4",
                                        "--screenshot=x.png", "--view=plot", "--export=out", "--exit"});
  const ks::gui::AppOptions b = parsed({"--preset", "p.json", "--set", "n_s=400", "--set=n_runs=2", "--backend", "cpu", "--steps", "4",
                                        "--screenshot", "x.png", "--view", "plot", "--export", "out", "--exit"});
  for (const ks::gui::AppOptions& o : {a, b}) {
    EXPECT_EQ(o.preset, "p.json");
    ASSERT_EQ(o.sets.size(), 2u);
    EXPECT_EQ(o.sets[0], std::make_pair(QString("n_s"), QString("400")));
    EXPECT_EQ(o.sets[1], std::make_pair(QString("n_runs"), QString("2")));
    EXPECT_EQ(o.backend, "cpu");
    EXPECT_EQ(o.steps, 4);
    EXPECT_EQ(o.screenshot, "x.png");
    EXPECT_EQ(o.view, "plot");
    EXPECT_EQ(o.export_dir, "out");
    EXPECT_TRUE(o.exit);
    EXPECT_TRUE(o.scripted());
  }
  EXPECT_FALSE(parsed({}).scripted());
  EXPECT_EQ(parsed({}).view, "window");
}

TEST(GuiCommandLine, RefusalsNameTheOptionTheValueAndWhatIsAllowed) {
  EXPECT_EQ(refusal({"--steps", "2147483648"}),
            "--steps: '2147483648' is not a valid value; allowed: an integer in [0, 2147483647]");  // 2^31: no wrap
  EXPECT_EQ(refusal({"--steps=-1"}), "--steps: '-1' is not a valid value; allowed: an integer in [0, 2147483647]");
  EXPECT_EQ(refusal({"--steps=2147483647"}), "");
  EXPECT_EQ(refusal({"--frobnicate=1"}), "--frobnicate: unknown option; allowed: see kinetic-studio --help");
  EXPECT_NE(refusal({"--steps"}).find("--steps"), std::string::npos);
  EXPECT_EQ(refusal({"--set", "n_s"}), "--set: 'n_s' is not key=value; allowed: key=value");
  EXPECT_EQ(refusal({"--view=map"}), "--view: unknown view 'map'; allowed: field, plot, scene or window");
  EXPECT_NE(refusal({"--backend=gpu"}).find("auto, cuda or cpu"), std::string::npos);
  // After "--" an argument is positional, and the app takes none.
  EXPECT_NE(refusal({"--", "--exit"}).find("'--exit': unexpected argument"), std::string::npos);
  EXPECT_TRUE(parsed({"--help"}).help);
  EXPECT_TRUE(parsed({"--version"}).version);
}

// Processes events until `done` holds or `limit` passes; says whether it held. Window activation
// and keyboard focus arrive from the X server, later under a loaded Xvfb than one pass of events.
template <class Done>
bool process_events_until(Done done, std::chrono::milliseconds limit = std::chrono::seconds(5)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done() && std::chrono::steady_clock::now() < deadline) QApplication::processEvents(QEventLoop::AllEvents, 20);
  return done();
}

// The main window on the teaching demo (CPU), shown.
std::unique_ptr<ks::gui::MainWindow> shown_demo_window() {
  ks::gui::AppOptions options = cpu_options(kDemo);
  auto window = std::make_unique<ks::gui::MainWindow>(options);
  window->show();
  return window;
}

TEST(GuiInProcess, LiveParameterChangeIsAppliedWhileRunning) {
  const auto window = shown_demo_window();
  ks::Runner* runner = window->runner();
  ASSERT_NE(runner, nullptr);
  ASSERT_TRUE(runner->wait_settled(std::chrono::seconds(30)));
  runner->start();
  ASSERT_TRUE(runner->wait_until([](ks::RunState s) { return s == ks::RunState::Running; }, std::chrono::seconds(10)));
  window->applyParameter("n_runs", std::int64_t(6));  // what the parameter panel emits
  process_events_until([&] { return runner->params().get_int("n_runs") == 6; }, std::chrono::seconds(30));
  EXPECT_EQ(runner->params().get_int("n_runs"), 6);
  EXPECT_NE(runner->state(), ks::RunState::Failed);
}

// A value typed into the parameter panel that its rules refuse is said in the log (and the status
// bar), with the rule, not only in the editor's tooltip; the run goes on with the old value.
TEST(GuiInProcess, RefusedPanelValueIsReportedInTheLog) {
  const auto window = shown_demo_window();
  ks::Runner* runner = window->runner();
  ASSERT_NE(runner, nullptr);
  ASSERT_TRUE(runner->wait_settled(std::chrono::seconds(30)));
  QLineEdit* n_s = nullptr;
  for (auto* line : window->findChild<ks::gui::ParameterPanel*>()->findChildren<QLineEdit*>())
    if (line->text() == "500") n_s = line;
  ASSERT_NE(n_s, nullptr);
  n_s->setText("-3");
  emit n_s->editingFinished();
  EXPECT_EQ(n_s->text(), QString("500"));
  const QString log = window->findChild<ks::gui::LogPanel*>()->toPlainText();
  EXPECT_TRUE(log.contains("n_s = -3 refused:")) << log.toStdString();
  EXPECT_TRUE(log.contains("allowed")) << log.toStdString();
  EXPECT_EQ(runner->params().get_int("n_s"), 500);
}

// The Help menu: each method's notes are found (here in the source tree), the About text names the
// version, the libraries and the device, and the window has the menu.
TEST(GuiInProcess, HelpMenuFindsEveryMethodsNotesAndAboutNamesTheDevice) {
  for (const std::string& id : ks::builtin_registry().ids()) {
    const QString path = ks::gui::method_notes_path(QString::fromStdString(id));
    EXPECT_TRUE(path.endsWith("/README.md")) << id << ": " << path.toStdString();
  }
  EXPECT_TRUE(ks::gui::method_notes_path("no.such.method").isEmpty());
  const QString about = ks::gui::about_text("NVIDIA H100 <80GB>");
  EXPECT_TRUE(about.contains(KS_VERSION));
  EXPECT_TRUE(about.contains("Qt ") && about.contains("VTK "));
  EXPECT_TRUE(about.contains("NVIDIA H100 &lt;80GB&gt;")) << about.toStdString();
  EXPECT_TRUE(ks::gui::shortcuts_text().contains("Space"));
  const auto window = shown_demo_window();
  QStringList menus;
  for (QAction* a : window->menuBar()->actions()) menus << a->text();
  EXPECT_TRUE(menus.contains("&Help")) << menus.join(", ").toStdString();
}

// Help > Method notes renders the method's README in a window of the app (a desktop without a .md
// handler has nothing to open it with); every key in the menus is in Help > Keyboard shortcuts and in
// its action's tooltip or menu text.
TEST(GuiInProcess, MethodNotesOpenInTheAppAndEveryMenuKeyIsListed) {
  const auto window = shown_demo_window();
  QAction* notes = nullptr;
  for (QAction* menu : window->menuBar()->actions())
    for (QAction* a : menu->menu() ? menu->menu()->actions() : QList<QAction*>{}) {
      if (a->text().startsWith("Method notes")) notes = a;
      const QString key = a->shortcut().toString();
      if (!key.isEmpty()) EXPECT_TRUE(ks::gui::shortcuts_text().contains(key + "\t")) << key.toStdString();
    }
  ASSERT_NE(notes, nullptr);
  notes->trigger();
  QTextBrowser* shown = nullptr;
  for (QWidget* w : QApplication::topLevelWidgets())
    if (auto* b = qobject_cast<QTextBrowser*>(w); b && b->isVisible()) shown = b;
  ASSERT_NE(shown, nullptr);
  EXPECT_TRUE(shown->toPlainText().contains("aerosol.coagulation")) << shown->toPlainText().left(300).toStdString();
  EXPECT_FALSE(shown->toPlainText().contains("# ")) << "Markdown shown as text";
  // File > Quit with the notes open ends the app: no window of it is left open (a window of its own
  // kept the app running after its main window had gone).
  QAction* quit = nullptr;
  for (QAction* menu : window->menuBar()->actions())
    for (QAction* a : menu->menu() ? menu->menu()->actions() : QList<QAction*>{})
      if (a->shortcut() == QKeySequence(QKeySequence::Quit)) quit = a;
  ASSERT_NE(quit, nullptr);
  quit->trigger();
  QApplication::processEvents();
  for (QWidget* w : QApplication::topLevelWidgets()) EXPECT_FALSE(w->isVisible()) << w->windowTitle().toStdString();
}

// Enter in a parameter's value gives the keyboard back to the view: Space, S and R act again.
TEST(GuiInProcess, EnterInAParameterReturnsTheKeysToTheView) {
  const auto window = shown_demo_window();
  window->activateWindow();
  process_events_until([&] { return window->isActiveWindow(); });
  auto* panel = window->findChild<QWidget*>("parameterPanel");
  ASSERT_NE(panel, nullptr);
  QLineEdit* value = nullptr;
  for (QLineEdit* line : panel->findChildren<QLineEdit*>())
    if (line->isEnabled() && line->objectName().isEmpty()) value = line;
  ASSERT_NE(value, nullptr);
  value->setFocus();
  ASSERT_TRUE(process_events_until([&] { return value->hasFocus(); }));
  QKeyEvent enter(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier);
  QApplication::sendEvent(value, &enter);
  QApplication::processEvents();
  EXPECT_FALSE(value->hasFocus());
  const auto* tabs = window->findChild<QTabWidget*>();
  ASSERT_NE(tabs, nullptr);
  const QWidget* focus = QApplication::focusWidget();
  ASSERT_NE(focus, nullptr);
  EXPECT_TRUE(focus == tabs->currentWidget() || tabs->currentWidget()->isAncestorOf(focus)) << focus->metaObject()->className();
}

// File > Save parameters as preset writes the open preset with the parameters of the next set-up,
// which loads back like any preset; File > Recent presets lists what was loaded, newest first.
TEST(GuiInProcess, ParametersSavedAsAPresetLoadBackAndAreRememberedAsRecent) {
  const auto window = shown_demo_window();
  ASSERT_TRUE(window->runner()->wait_settled(std::chrono::seconds(30)));
  window->applyParameter("n_s", std::int64_t(800));  // applies at the next reset
  const QString path = QString::fromStdString(temp_dir("saved-preset")) + "/mine.json";
  ASSERT_TRUE(window->saveParametersAsPreset(path));
  const ks::Preset saved = ks::load_preset(path.toStdString(), ks::builtin_registry());
  EXPECT_EQ(saved.method, "aerosol.coagulation");
  EXPECT_EQ(saved.params.get_int("n_s"), 800);
  EXPECT_EQ(saved.params.get_int("n_runs"), 4);
  EXPECT_TRUE(QString::fromStdString(saved.title).endsWith("(modified)")) << saved.title;
  ASSERT_TRUE(window->loadPreset(path));
  const QString canonical = QFileInfo(path).canonicalFilePath();
  process_events_until([&] { return QSettings().value("preset/recent").toStringList().value(0) == canonical; }, std::chrono::seconds(30));
  const QStringList recent = QSettings().value("preset/recent").toStringList();
  ASSERT_FALSE(recent.isEmpty());
  EXPECT_EQ(recent.first(), canonical);
  EXPECT_TRUE(recent.contains(QFileInfo(QString::fromStdString(kDemo)).canonicalFilePath())) << recent.join(", ").toStdString();
  EXPECT_FALSE(window->saveParametersAsPreset("/proc/no-such-dir/x.json"));
  EXPECT_TRUE(window->findChild<ks::gui::LogPanel*>()->toPlainText().contains("could not save the preset /proc/no-such-dir/x.json"));
}

// File > Record time series: the state shown, then every 2 iterations, as numbered particle files
// in a .pvd; a folder that cannot be written is refused with why, and the run goes on.
TEST(GuiInProcess, RecordingWritesEveryNthIterationAsATimeSeries) {
  auto window = shown_demo_window();
  ks::Runner* runner = window->runner();
  ASSERT_TRUE(runner->wait_settled(std::chrono::seconds(30)));
  const auto polled = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);  // the window shows the set-up state
  while (std::chrono::steady_clock::now() < polled) QApplication::processEvents(QEventLoop::AllEvents, 50);
  EXPECT_FALSE(window->recordTo("/proc/no-such-dir", 2));
  EXPECT_TRUE(window->findChild<ks::gui::LogPanel*>()->toPlainText().contains(
      "could not record: the recording's folder /proc/no-such-dir: cannot create the directory"));
  const std::string dir = temp_dir("record");
  ASSERT_TRUE(window->recordTo(QString::fromStdString(dir), 2));
  runner->step(5);
  ASSERT_TRUE(runner->wait_settled(std::chrono::seconds(60)));
  window->stopRecording();
  EXPECT_TRUE(window->findChild<ks::gui::LogPanel*>()->toPlainText().contains("recording stopped: 3 outputs in " +
                                                                              QString::fromStdString(dir) + "/particles.pvd"));
  std::ifstream in(dir + "/particles.pvd");
  const std::string pvd((std::istreambuf_iterator<char>(in)), {});
  for (const char* file : {"particles_00000000.vtp", "particles_00000002.vtp", "particles_00000004.vtp"}) {
    EXPECT_NE(pvd.find(file), std::string::npos) << file;
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + file)) << file;
  }
  EXPECT_EQ(runner->progress().iteration, 5);
}

// The status bar's time left: the recent rate of progress toward the end condition.
TEST(GuiProgress, TimeLeftFollowsTheRecentRateAndStartsOverAfterAReset) {
  ks::gui::ProgressEta eta;
  EXPECT_FALSE(eta.seconds_left());
  for (int t = 0; t <= 10; ++t) eta.add(t, 0.01 * t);  // 1 % a second
  ASSERT_TRUE(eta.seconds_left());
  EXPECT_NEAR(*eta.seconds_left(), 90.0, 1e-9);
  for (int t = 11; t <= 60; ++t) eta.add(t, 0.1 + 0.002 * (t - 10));  // slows to 0.2 % a second
  EXPECT_NEAR(*eta.seconds_left(), (1.0 - 0.2) / 0.002, 1e-6);        // the old rate has left the window
  eta.add(61, 0.0);                                                   // a reset
  EXPECT_FALSE(eta.seconds_left());
  EXPECT_EQ(ks::gui::format_duration(45.2), "45 s");
  EXPECT_EQ(ks::gui::format_duration(185), "3 min 05 s");
  EXPECT_EQ(ks::gui::format_duration(7800), "2 h 10 min");
}

// Starts the shown window's run once its preset is set up; `bar`: the status bar's progress bar.
void start_run(ks::gui::MainWindow& window, QProgressBar*& bar) {
  ks::Runner* runner = window.runner();
  ASSERT_NE(runner, nullptr);
  ASSERT_TRUE(runner->wait_settled(std::chrono::seconds(30)));
  runner->start();
  bar = window.findChild<QProgressBar*>("progressBar");
  ASSERT_NE(bar, nullptr);
}

void pause_run(ks::gui::MainWindow& window) {
  window.runner()->pause();
  window.runner()->wait_settled(std::chrono::seconds(30));
}

// While a run goes, the status bar shows its progress toward the end and, once the rate is known,
// the time left.
TEST(GuiInProcess, StatusBarShowsProgressAndTimeLeftWhileRunning) {
  // The BGK teaching cavity: minutes to its t_end on a CPU.
  ks::gui::MainWindow window(cpu_options(std::string(KS_SOURCE_DIR) + "/presets/bgk/teaching-cavity.json"));
  window.show();
  QProgressBar* bar = nullptr;
  ASSERT_NO_FATAL_FAILURE(start_run(window, bar));
  EXPECT_TRUE(bar->isVisible());
  process_events_until([&] { return bar->format().contains("left"); }, std::chrono::seconds(60));
  EXPECT_TRUE(bar->format().contains("left to ")) << bar->format().toStdString();  // and which end it counts to
  EXPECT_NE(window.runner()->state(), ks::RunState::Finished);
  pause_run(window);
}

// An end condition too long for the bar (the DVM's "steady state (residual 1e-07)") is cut from the
// bar's text, which stays inside the bar, and said in full in its tooltip.
TEST(GuiInProcess, ProgressTextFitsTheBarAndTheTooltipSaysTheEnd) {
  ks::gui::MainWindow window(cpu_options(std::string(KS_SOURCE_DIR) + "/presets/dvm/teaching-cavity.json"));
  window.show();
  QProgressBar* bar = nullptr;
  ASSERT_NO_FATAL_FAILURE(start_run(window, bar));
  // First toward max_iterations, then, once the residual falls steadily, toward the steady state.
  process_events_until([&] { return bar->toolTip().contains("left to steady state (residual"); }, std::chrono::seconds(90));
  EXPECT_TRUE(bar->toolTip().contains("left to steady state (residual")) << bar->toolTip().toStdString();
  EXPECT_TRUE(bar->format().contains("left")) << bar->format().toStdString();
  EXPECT_LE(bar->fontMetrics().horizontalAdvance(bar->format()), bar->contentsRect().width()) << bar->format().toStdString();
  pause_run(window);
}

// In a window too narrow for the whole status line its end (the rates) gives way to an ellipsis,
// not to a number cut in the middle ("5.9e+0" of 5.9e+07), and the tooltip says it all.
TEST(GuiInProcess, StatusLineTooLongForTheWindowEndsInAnEllipsisAndItsTooltipHasItAll) {
  ks::gui::MainWindow window(cpu_options(std::string(KS_SOURCE_DIR) + "/presets/bgk/teaching-cavity.json"));
  window.show();
  window.resize(1024, 700);
  QProgressBar* bar = nullptr;
  ASSERT_NO_FATAL_FAILURE(start_run(window, bar));
  auto* status = window.statusBar()->findChild<QLabel*>("progress");
  ASSERT_NE(status, nullptr);
  process_events_until([&] { return status->toolTip().contains("/s  |  view"); }, std::chrono::seconds(60));
  const QString whole = status->toolTip(), shown = status->text();
  ASSERT_TRUE(whole.contains("/s  |  view")) << whole.toStdString();
  EXPECT_GT(status->fontMetrics().horizontalAdvance(whole), status->contentsRect().width()) << whole.toStdString();
  EXPECT_LE(status->fontMetrics().horizontalAdvance(shown), status->contentsRect().width()) << shown.toStdString();
  ASSERT_TRUE(shown.endsWith(QChar(0x2026))) << shown.toStdString();
  EXPECT_TRUE(whole.startsWith(shown.chopped(1))) << shown.toStdString() << " / " << whole.toStdString();
  pause_run(window);
}

// The method with the most parameters (radiation, 27) fits a 1366x768 laptop screen: the parameter
// dock scrolls instead of making the window taller.
TEST(GuiInProcess, RadiationParametersFitALaptopScreen) {
  ks::gui::AppOptions options = cpu_options(std::string(KS_SOURCE_DIR) + "/presets/radiation/case02-grey-slab-parab1.json");
  ks::gui::MainWindow window(options);
  window.show();
  window.resize(1366, 768);
  QApplication::processEvents();
  auto* panel = window.findChild<ks::gui::ParameterPanel*>();
  ASSERT_NE(panel, nullptr);
  EXPECT_LE(window.minimumSizeHint().height(), 768);
  EXPECT_LE(window.height(), 768);
  // Every parameter is still reachable: the panel keeps its full height inside the scroll area.
  EXPECT_GE(panel->height(), panel->minimumSizeHint().height());
}

// The scroll area a widget lies in (the parameter panel's rows), where being outside the view is scrolling.
const QAbstractScrollArea* scroll_area_of(const QWidget* w) {
  for (const QWidget* p = w->parentWidget(); p; p = p->parentWidget())
    if (const auto* area = qobject_cast<const QAbstractScrollArea*>(p)) return area;
  return nullptr;
}

// At 1366 x 768 (a laptop, less a title bar) every teaching preset's window shows each visible
// widget whole inside it, the progress bar, and a field view with room for the field.
TEST(GuiInProcess, EveryTeachingPresetFitsALaptopScreenWithNothingClipped) {
  // Opened on the bed, whose labels are narrower than the coagulation's: the panel must widen later.
  ks::gui::AppOptions options = cpu_options(std::string(KS_SOURCE_DIR) + "/presets/lbm/teaching-packed-bed.json");
  ks::gui::MainWindow window(options);
  window.show();
  window.resize(1366, 768 - 32);
  // In this order the coagulation parameters follow LBM's and DVM's, after which their value boxes
  // were once cut behind a sideways scroll bar.
  for (const char* preset : {"bgk/teaching-cavity", "bgk/teaching-shock", "lbm/teaching-packed-bed", "dvm/teaching-cavity",
                             "coagulation/teaching-demo", "radiation/teaching-hot-cube"}) {
    ASSERT_TRUE(window.loadPreset(QString("%1/presets/%2.json").arg(KS_SOURCE_DIR, preset)));
    // Shown once set up (the demo before it opens on its plot, where the field view is not laid out).
    const auto set_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (window.settingUp() && std::chrono::steady_clock::now() < set_up) QApplication::processEvents(QEventLoop::AllEvents, 50);
    ASSERT_FALSE(window.settingUp()) << preset;
    // As a user may leave it: the parameters dock dragged as narrow as it goes.
    window.resizeDocks({window.findChild<QDockWidget*>("parameters")}, {1}, Qt::Horizontal);
    const auto settle = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
    while (std::chrono::steady_clock::now() < settle) QApplication::processEvents(QEventLoop::AllEvents, 50);
    EXPECT_LE(window.height(), 768 - 32) << preset;
    const QRect inside = window.rect();
    for (const QWidget* w : window.findChildren<QWidget*>()) {
      if (!w->isVisible() || w->isWindow() || scroll_area_of(w)) continue;
      const QRect r(w->mapTo(&window, QPoint(0, 0)), w->size());
      EXPECT_TRUE(inside.contains(r)) << preset << ": " << w->metaObject()->className() << " '" << w->objectName().toStdString() << "' at "
                                      << r.x() << "," << r.y() << " " << r.width() << "x" << r.height();
    }
    // The parameters scroll only up and down: every value box is whole in the panel's width.
    auto* panel = window.findChild<QWidget*>("parameterPanel");
    ASSERT_NE(panel, nullptr);
    const QAbstractScrollArea* area = scroll_area_of(panel);
    ASSERT_NE(area, nullptr);
    EXPECT_FALSE(area->horizontalScrollBar()->isVisible()) << preset;
    for (const QWidget* row : panel->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
      if (!row->isVisible()) continue;
      const QRect r(row->mapTo(area->viewport(), QPoint(0, 0)), row->size());
      EXPECT_LE(r.x() + r.width(), area->viewport()->width()) << preset << ": " << row->metaObject()->className();
    }
    auto* progress = window.findChild<QProgressBar*>();
    ASSERT_NE(progress, nullptr);
    EXPECT_TRUE(progress->isVisible()) << preset;
    auto* field = window.findChild<ks::gui::FieldView*>();
    ASSERT_NE(field, nullptr);
    EXPECT_GE(field->width(), 500) << preset;
    EXPECT_GE(field->height(), 380) << preset;
  }
}

// The window never opens taller or wider than the screen's free area, whatever size was saved.
TEST(GuiInProcess, WindowFitsTheScreenItOpensOn) {
  QSettings().setValue("window/geometry", QByteArray());  // as if saved by a larger screen below
  ks::gui::AppOptions options = cpu_options(kDemo);
  ks::gui::MainWindow window(options);
  window.resize(3000, 2000);
  window.fitToScreen();
  window.show();
  QApplication::processEvents();
  const QRect free = window.screen()->availableGeometry();
  EXPECT_LE(window.height(), free.height());
  EXPECT_LE(window.width(), free.width());
  EXPECT_TRUE(free.contains(window.geometry())) << window.geometry().width() << "x" << window.geometry().height();
}

// A 3D field's slice control says which slice is shown and where it lies. The packed bed opens
// along its flow (the x-z plane, normal y); another plane is one choice away.
TEST(GuiInProcess, SliceControlIsLabelledWithTheSliceAndItsPosition) {
  ks::gui::AppOptions options = cpu_options(std::string(KS_SOURCE_DIR) + "/presets/lbm/teaching-packed-bed.json");
  ks::gui::MainWindow window(options);
  window.show();
  auto* label = window.findChild<QLabel*>("sliceLabel");
  ASSERT_NE(label, nullptr);
  process_events_until([&] { return label->text().contains("slice"); }, std::chrono::seconds(60));
  EXPECT_EQ(label->text().trimmed(), QString("y slice 16 of 32, y = 16.5 dx")) << label->text().toStdString();
  auto* plane = label->parentWidget()->findChild<QComboBox*>();
  ASSERT_NE(plane, nullptr);
  plane->setCurrentText("x-y plane");
  EXPECT_EQ(label->text().trimmed(), QString("z slice 32 of 64, z = 32.5 dx"));
  auto* slider = label->parentWidget()->findChild<QSlider*>();
  ASSERT_NE(slider, nullptr);
  slider->setValue(3);
  EXPECT_EQ(label->text().trimmed(), QString("z slice 3 of 64, z = 3.5 dx"));
}

// A preset whose parameters pass their ranges but whose setup fails (the cavity's Courant limit):
// the running simulation stays, the log says why.
TEST(GuiInProcess, PresetWhoseSetupFailsKeepsTheRunningSimulation) {
  const auto window = shown_demo_window();
  ks::Runner* before = window->runner();
  ASSERT_NE(before, nullptr);
  ASSERT_TRUE(before->wait_settled(std::chrono::seconds(30)));
  const std::string bad = temp_dir("badsetup") + "/cavity.json";
  {
    std::ofstream out(bad);
    out << R"({"method": "kinetic.bgk", "title": "too large a time step",
               "params": {"case": "cavity", "nx": 16, "ny": 16, "nv": 8, "vx_min": -3, "vx_max": 3, "vt_max": 3, "dt": 0.9}})";
  }
  ASSERT_TRUE(window->loadPreset(QString::fromStdString(bad)));  // accepted: the failure comes from the set-up
  EXPECT_TRUE(window->settingUp());
  ASSERT_TRUE(process_events_until([&] { return !window->settingUp(); }, std::chrono::seconds(20)));
  EXPECT_EQ(window->runner(), before);
  EXPECT_EQ(window->runner()->state(), ks::RunState::Idle);
  EXPECT_EQ(window->runner()->params().get_int("n_s"), before->params().get_int("n_s"));
}

// Interactive start with a refused --set: the message is in the log and the status bar, nothing
// runs (Run and Step are off, and no simulation is claimed to be kept); a preset chosen then runs.
TEST(GuiInProcess, RefusedStartPresetIsReportedAndNothingRunsUntilAPresetIsChosen) {
  ks::gui::AppOptions options = cpu_options(kDemo);
  options.sets = {{"n_s", "-5"}};
  ks::gui::MainWindow window(options);
  window.show();
  EXPECT_EQ(window.runner(), nullptr);
  const QString status = window.statusBar()->currentMessage();
  EXPECT_TRUE(status.contains("--set n_s") && status.contains("no simulation is running")) << status.toStdString();
  // The message and the progress line do not share the bar's space: the progress sits on the right.
  window.resize(1280, 800);
  QApplication::processEvents();
  auto* progress = window.statusBar()->findChild<QLabel*>("progress");
  ASSERT_NE(progress, nullptr);
  EXPECT_GE(progress->geometry().left(), window.statusBar()->width() / 2) << progress->text().toStdString();
  auto* log = window.findChild<ks::gui::LogPanel*>();
  ASSERT_NE(log, nullptr);
  EXPECT_TRUE(log->toPlainText().contains("out of range")) << log->toPlainText().toStdString();
  EXPECT_FALSE(log->toPlainText().contains("kept")) << log->toPlainText().toStdString();
  auto* bar = window.findChild<QToolBar*>("run");
  ASSERT_NE(bar, nullptr);
  int run_actions = 0;
  for (QAction* a : bar->actions()) {
    if (a->text() != "Run" && a->text() != "Step" && a->text() != "Reset") continue;
    ++run_actions;
    EXPECT_FALSE(a->isEnabled()) << a->text().toStdString();
  }
  EXPECT_EQ(run_actions, 3);
  ASSERT_TRUE(window.loadPreset(q(kDemo)));
  ASSERT_NE(window.runner(), nullptr);
  EXPECT_TRUE(window.runner()->wait_settled(std::chrono::seconds(30)));
  EXPECT_NE(window.runner()->state(), ks::RunState::Failed);
}

// A change that needs a re-setup is checked against the memory estimate before the Runner sees
// it: one that would not fit is refused and the running simulation is kept.
TEST(GuiInProcess, ResetupChangeThatWouldNotFitInMemoryIsRefusedAndTheRunKept) {
  ks::gui::AppOptions options = cpu_options(kDemo);
  ks::gui::MainWindow window(options);
  window.show();
  ASSERT_NE(window.runner(), nullptr);
  ASSERT_TRUE(window.runner()->wait_settled(std::chrono::seconds(30)));
  window.applyParameter("n_runs", std::int64_t{10000});  // live: applies at the next iteration
  ASSERT_TRUE(window.runner()->wait_settled(std::chrono::seconds(30)));
  // 4e6 particles x 1e4 runs x 24 B, twice: about 1.9 TB on the host. Typed into the panel, which
  // then shows the value the run keeps, framed red, not the refused one.
  QLineEdit* n_s = nullptr;
  auto* form = window.findChild<ks::gui::ParameterPanel*>()->findChild<QFormLayout*>();
  for (int row = 0; form && row < form->rowCount(); ++row) {
    const auto* label = qobject_cast<QLabel*>(form->itemAt(row, QFormLayout::LabelRole)->widget());
    if (label && label->text().startsWith("Simulation particles per run"))
      n_s = qobject_cast<QLineEdit*>(form->itemAt(row, QFormLayout::FieldRole)->widget());
  }
  ASSERT_NE(n_s, nullptr);
  n_s->setText("4000000");
  emit n_s->editingFinished();
  const QString status = window.statusBar()->currentMessage();
  EXPECT_TRUE(status.contains("n_s = 4000000 refused") && status.contains("memory") && status.contains("kept")) << status.toStdString();
  EXPECT_EQ(n_s->text().toStdString(), "500");
  EXPECT_TRUE(n_s->styleSheet().contains("#c0392b")) << n_s->styleSheet().toStdString();
  EXPECT_TRUE(n_s->toolTip().contains("memory")) << n_s->toolTip().toStdString();
  ASSERT_TRUE(window.runner()->wait_settled(std::chrono::seconds(30)));
  EXPECT_NE(window.runner()->state(), ks::RunState::Failed) << window.runner()->error();
  EXPECT_EQ(window.runner()->pending_params().get_int("n_s"), 500);
  window.applyParameter("n_runs", std::int64_t{4});
  ASSERT_TRUE(window.runner()->wait_settled(std::chrono::seconds(30)));
  window.applyParameter("n_s", std::int64_t{1000});  // fits: accepted, and the log says what it needs
  EXPECT_EQ(window.runner()->pending_params().get_int("n_s"), 1000);
  auto* log = window.findChild<ks::gui::LogPanel*>();
  ASSERT_NE(log, nullptr);
  EXPECT_TRUE(log->toPlainText().contains("the set-up with n_s = 1000 needs about")) << log->toPlainText().toStdString();
}

// A file parameter is a line edit with a Browse… button; typed text goes through the engine's parser
// (a wrong ending is refused in the widget), and the value shown follows the parameter set.
TEST(GuiInProcess, PathParameterIsALineEditWithBrowseAndRefusesAWrongEnding) {
  ks::ParamSet params({ks::path_param("temperature_file", "Temperature file", {".csv", ".vti"}, "help")});
  ks::gui::ParameterPanel panel;
  panel.setParameters(params);
  panel.show();
  auto* line = panel.findChild<QLineEdit*>("path");
  ASSERT_NE(line, nullptr);
  QPushButton* browse = nullptr;
  for (auto* b : panel.findChildren<QPushButton*>())
    if (b->text().startsWith("Browse")) browse = b;
  ASSERT_NE(browse, nullptr);
  EXPECT_TRUE(line->text().isEmpty());
  QStringList edited;
  QObject::connect(&panel, &ks::gui::ParameterPanel::parameterEdited, [&](const QString& key, const ks::ParamValue& v) {
    edited << key + "=" + QString::fromStdString(std::get<std::string>(v));
  });
  line->setText("fields/dns.vti");
  emit line->editingFinished();
  EXPECT_EQ(edited, QStringList{"temperature_file=fields/dns.vti"});
  line->setText("fields/dns.txt");
  emit line->editingFinished();
  EXPECT_EQ(edited.size(), 1);                         // refused: nothing emitted
  EXPECT_EQ(line->text(), QString("fields/dns.vti"));  // the last good value is back
  EXPECT_TRUE(line->toolTip().contains("ending in .csv or .vti")) << line->toolTip().toStdString();
  params.set("temperature_file", std::string("/data/T.csv"));
  panel.showValues(params);
  EXPECT_EQ(line->text(), QString("/data/T.csv"));
}

// A spec that may change while running (a method's ParamTable sets this from its Change).
ks::ParamSpec live(ks::ParamSpec spec) {
  spec.live = true;
  return spec;
}

// Parameters that act only with some values of a choice are greyed out (label and editor) with the
// others, with a tooltip naming the values that use them, and come back when the choice changes.
TEST(GuiInProcess, ParametersOfAnotherCaseAreGreyedOutUntilTheCaseChanges) {
  ks::ParamSet params({ks::choice_param("case", "Problem", "cavity", {"shock", "cavity"}, "help"),
                       ks::only_when("case", {"shock"}, live(ks::real_param("mach", "Mach number", "", 1.5, 1.01, 10.0, "help"))),
                       live(ks::real_param("dt", "Time step", "", 0.05, 1e-6, 1.0, "help"))});
  ks::gui::ParameterPanel panel;
  panel.setParameters(params);
  panel.show();
  auto* combo = panel.findChild<QComboBox*>();
  ASSERT_NE(combo, nullptr);
  std::map<QString, QLineEdit*> lines;
  for (auto* line : panel.findChildren<QLineEdit*>()) lines[line->text()] = line;
  QLineEdit* mach = lines.at("1.5");
  QLineEdit* dt = lines.at("0.05");
  EXPECT_FALSE(mach->isEnabled());
  EXPECT_TRUE(mach->toolTip().contains("only with: shock")) << mach->toolTip().toStdString();
  EXPECT_TRUE(dt->isEnabled());
  combo->setCurrentText("shock");
  EXPECT_TRUE(mach->isEnabled());
  EXPECT_FALSE(mach->toolTip().contains("only with")) << mach->toolTip().toStdString();
  panel.setRunning(true);  // live parameters of the case stay editable while running
  EXPECT_TRUE(mach->isEnabled());
  params.set("case", std::string("cavity"));
  panel.showValues(params);
  EXPECT_FALSE(mach->isEnabled());
}

TEST(GuiInProcess, TimeStepIsGreyedOutWhileTheCourantNumberSetsIt) {
  ks::ParamSet params({ks::overridden_by("courant", live(ks::real_param("dt", "Time step", "", 0.05, 1e-6, 1.0, "help"))),
                       live(ks::real_param("courant", "Courant number", "", 0.0, 0.0, 1.0, "help"))});
  ks::gui::ParameterPanel panel;
  panel.setParameters(params);
  panel.show();
  std::map<QString, QLineEdit*> lines;
  for (auto* line : panel.findChildren<QLineEdit*>()) lines[line->text()] = line;
  QLineEdit* dt = lines.at("0.05");
  QLineEdit* courant = lines.at("0");
  EXPECT_TRUE(dt->isEnabled());
  courant->setText("0.9");
  emit courant->editingFinished();
  EXPECT_FALSE(dt->isEnabled());
  EXPECT_TRUE(dt->toolTip().contains("Set by courant while it is above 0 (now 0.9)")) << dt->toolTip().toStdString();
  params.set("courant", 0.0);  // the simulation reports it back at 0
  panel.showValues(params);
  EXPECT_TRUE(dt->isEnabled());
  EXPECT_FALSE(dt->toolTip().contains("Set by")) << dt->toolTip().toStdString();
}

// A snapshot with one series y = x on [0, 10].
std::shared_ptr<const ks::Snapshot> line_snapshot() {
  auto snap = std::make_shared<ks::Snapshot>();
  ks::Series s{"line", "x", "y"};
  for (int i = 0; i <= 100; ++i) {
    s.x.push_back(0.1 * i);
    s.y.push_back(0.1 * i);
  }
  snap->series.push_back(s);
  return snap;
}

void settle(ks::gui::PlotView& view) {
  for (int i = 0; i < 10; ++i) QApplication::processEvents(QEventLoop::AllEvents, 30);
  ASSERT_TRUE(view.saveScreenshot(QString::fromStdString(temp_dir("zoom") + "/plot.png")));  // renders a frame
}

TEST(GuiInProcess, PlotWheelZoomsAboutTheCursorAndKeepsTheWindowAsDataArrive) {
  ks::gui::PlotView view;
  view.resize(800, 500);
  view.show();
  view.showSnapshot(line_snapshot());
  settle(view);
  const auto all = view.axisRanges();
  ASSERT_LE(all[0], 0.0);
  ASSERT_GE(all[1], 10.0);
  // A wheel notch forward over the canvas's centre zooms in by 1.25 about it.
  auto* canvas = view.findChild<QOpenGLWidget*>();
  ASSERT_NE(canvas, nullptr);
  const QPointF centre(canvas->width() / 2.0, canvas->height() / 2.0);
  QWheelEvent wheel(centre, canvas->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(canvas, &wheel);
  EXPECT_TRUE(view.zoomed());
  const auto in = view.axisRanges();
  EXPECT_NEAR((in[1] - in[0]) / (all[1] - all[0]), 1.0 / 1.25, 1e-9);
  // Zoom about the lower left corner of the plot area keeps that corner.
  view.zoomAt(0.0, 0.0, 0.5);
  const auto corner = view.axisRanges();
  EXPECT_NEAR(corner[0], in[0], 1e-9);
  EXPECT_NEAR(corner[2], in[2], 1e-9);
  EXPECT_NEAR(corner[1] - corner[0], 0.5 * (in[1] - in[0]), 1e-9);
  // New data do not undo the zoom; a reset shows all of it again.
  view.showSnapshot(line_snapshot());
  settle(view);
  EXPECT_EQ(view.axisRanges(), corner);
  view.resetZoom();
  settle(view);
  EXPECT_FALSE(view.zoomed());
  EXPECT_LE(view.axisRanges()[0], 0.0);
  EXPECT_GE(view.axisRanges()[1], 10.0);
}

}  // namespace

int main(int argc, char** argv) {
  QSurfaceFormat format;
  format.setVersion(3, 3);
  format.setProfile(QSurfaceFormat::CoreProfile);
  QSurfaceFormat::setDefaultFormat(format);
  QApplication app(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
