// What the window shows on screen is what its OpenGL views draw. Qt composes a QOpenGLWidget's
// texture into the window: once (an earlier change, reverted) a field view first drawn while its
// tab was hidden kept no texture, and after the coagulation demo -> Scene tab -> the BGK cavity the
// screen showed a flipped copy of the window where the field should be (seen only by hand). Here the
// screen under the field view, as the X server holds it, is compared with the view's own frame.
#include <gtest/gtest.h>

#include <QApplication>
#include <QGuiApplication>
#include <QImage>
#include <QPixmap>
#include <QScreen>
#include <QTabWidget>
#include <memory>

#include "field_view.hpp"
#include "main_window.hpp"
#include "serve_events.hpp"

namespace {

using ks::gui::testing::serve_for;
using ks::gui::testing::serve_until;

const QString kPresets = QString(KS_SOURCE_DIR) + "/presets/";

void show_tab(QTabWidget& views, const QString& name) {
  for (int i = 0; i < views.count(); ++i)
    if (views.tabText(i) == name) views.setCurrentIndex(i);
}

// The fraction of pixels whose colour differs by more than `tolerance` in some channel.
double differing_fraction(const QImage& a, const QImage& b, int tolerance) {
  const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
  long long differ = 0;
  for (int j = 0; j < x.height(); ++j)
    for (int i = 0; i < x.width(); ++i) {
      const QRgb p = x.pixel(i, j), q = y.pixel(i, j);
      if (std::abs(qRed(p) - qRed(q)) > tolerance || std::abs(qGreen(p) - qGreen(q)) > tolerance ||
          std::abs(qBlue(p) - qBlue(q)) > tolerance)
        ++differ;
    }
  return double(differ) / double(x.width() * x.height());
}

TEST(GuiComposition, FieldViewOnScreenIsWhatItDrawsAfterTheSceneTabAndAPresetSwitch) {
  if (QGuiApplication::platformName() != "xcb")
    GTEST_SKIP() << "needs a screen to read back (xcb), not " << QGuiApplication::platformName().toStdString();
  ks::gui::AppOptions options;
  options.preset = kPresets + "coagulation/teaching-demo.json";
  options.backend = "cpu";
  auto window = std::make_unique<ks::gui::MainWindow>(options);
  window->resize(1280, 760);
  window->show();
  ASSERT_LT(serve_until([&] { return window->runner() && window->runner()->wait_settled(std::chrono::milliseconds(0)); }, 60000), 60000);
  auto* views = window->findChild<QTabWidget*>();
  ASSERT_NE(views, nullptr);
  show_tab(*views, "Scene");
  serve_for(1500);

  ASSERT_TRUE(window->loadPreset(kPresets + "bgk/teaching-cavity.json"));
  ASSERT_LT(serve_until([&] { return !window->settingUp(); }, 60000), 60000);
  show_tab(*views, "Field");
  window->runner()->start();
  serve_for(2500);
  window->runner()->pause();
  ASSERT_LT(serve_until([&] { return window->runner()->state() == ks::RunState::Paused; }, 10000), 10000);
  serve_for(1000);  // the last snapshot drawn and composed

  auto* field = window->findChild<ks::gui::FieldView*>();
  ASSERT_NE(field, nullptr);
  ASSERT_TRUE(field->isVisible());
  const QImage drawn = field->grabImage(/*with_rates=*/true);
  const QPoint at = field->mapTo(window.get(), QPoint(0, 0));
  const QImage screen = window->screen()->grabWindow(window->winId(), at.x(), at.y(), field->width(), field->height()).toImage();
  ASSERT_EQ(screen.size(), drawn.size());
  // The overlay's numbers (frame rate) may change between the two frames; a wrong composition
  // differs almost everywhere.
  const double differ = differing_fraction(screen, drawn, 40);
  EXPECT_LT(differ, 0.05) << "the screen under the field view differs from its frame in " << 100.0 * differ << " % of the pixels";
  if (differ >= 0.05) {
    screen.save(QString::fromStdString(::testing::TempDir()) + "/composition-screen.png");
    drawn.save(QString::fromStdString(::testing::TempDir()) + "/composition-drawn.png");
  }
}

}  // namespace
