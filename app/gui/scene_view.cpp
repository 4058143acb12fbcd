#include "scene_view.hpp"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QPainter>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <cmath>
#include <functional>
#include <utility>
#include <vector>

#include "scene_renderer.hpp"

namespace ks::gui {

namespace {

constexpr int kRedrawIntervalMs = 250;  // at most 4 scene updates per second
constexpr double kWheelNotch = 120.0;   // QWheelEvent::angleDelta units per notch
const QColor kBackground(26, 28, 36);   // the scene's background at its foot, until a frame comes
constexpr const char* kNoContext = "no OpenGL 3.3 context could be made for the 3D scene";

}  // namespace

// Paints the newest frame the renderer drew and hands the mouse's moves and its size to it.
class SceneFrame final : public QWidget {
 public:
  explicit SceneFrame(QWidget* parent) : QWidget(parent) { setAttribute(Qt::WA_OpaquePaintEvent); }

  std::function<void(QPointF)> turned;  // a left drag, in pixels
  std::function<void(double)> zoomed;   // wheel notches, forward positive
  std::function<void()> reset;          // a double-click: back to the first view
  std::function<void(QSize)> resized;   // device pixels
  QString text;                         // shown instead of a frame (no context)

  void show(const QImage& frame) {
    frame_ = frame;
    frame_.setDevicePixelRatio(devicePixelRatioF());
    update();
  }
  QSize pixels() const { return (QSizeF(size()) * devicePixelRatioF()).toSize(); }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter painter(this);
    painter.fillRect(rect(), kBackground);  // where a frame of the size before a resize leaves room
    painter.drawImage(0, 0, frame_);
    if (!text.isEmpty()) {
      painter.setPen(Qt::lightGray);
      painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, text);
    }
  }
  void resizeEvent(QResizeEvent*) override { resized(pixels()); }
  void mousePressEvent(QMouseEvent* event) override { last_drag_ = event->position(); }
  void mouseMoveEvent(QMouseEvent* event) override {
    if (!(event->buttons() & Qt::LeftButton)) return;
    turned(event->position() - last_drag_);
    last_drag_ = event->position();
  }
  void mouseDoubleClickEvent(QMouseEvent*) override { reset(); }
  void wheelEvent(QWheelEvent* event) override { zoomed(event->angleDelta().y() / kWheelNotch); }

 private:
  QImage frame_;
  QPointF last_drag_;
};

SceneView::SceneView(QWidget* parent)
    : QWidget(parent),
      iso_surface_(new QCheckBox("iso-surface", this)),
      volume_(new QCheckBox("volume", this)),
      frame_(new SceneFrame(this)),
      context_(std::make_unique<QOpenGLContext>()),
      surface_(std::make_unique<QOffscreenSurface>()),
      snapshots_(kRedrawIntervalMs, [this] { redraw(); }) {
  iso_surface_->setToolTip("3D fields: the surface where the field equals its mean");
  volume_->setToolTip("3D fields: volume rendering instead of the slices, low values transparent");
  auto* controls = new QHBoxLayout;
  controls->addWidget(iso_surface_);
  controls->addWidget(volume_);
  controls->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(frame_, 1);

  // The surface is made here (the GUI thread), the context on the renderer's thread (prepare).
  context_->setFormat(QSurfaceFormat::defaultFormat());
  surface_->setFormat(QSurfaceFormat::defaultFormat());
  surface_->create();
  renderer_ = std::make_unique<SceneRenderer>(context_.get(), surface_.get());
  if (QOpenGLContext::supportsThreadedOpenGL()) {
    render_thread_.setObjectName("scene renderer");
    context_->moveToThread(&render_thread_);
    renderer_->moveToThread(&render_thread_);
    render_thread_.start();
  }  // else the renderer draws on this thread, between events
  connect(renderer_.get(), &SceneRenderer::frameReady, frame_, [this](const QImage& frame) { frame_->show(frame); });
  connect(renderer_.get(), &SceneRenderer::unavailable, frame_, [this] {
    frame_->text = kNoContext;
    frame_->update();
  });

  frame_->turned = [this](QPointF pixels) { post([r = renderer_.get(), pixels] { r->turn(pixels); }); };
  frame_->zoomed = [this](double notches) { post([r = renderer_.get(), notches] { r->zoom(notches); }); };
  frame_->reset = [this] { post([r = renderer_.get()] { r->resetCamera(); }); };
  frame_->resized = [this](QSize pixels) { post([r = renderer_.get(), pixels] { r->resize(pixels); }); };
  connect(iso_surface_, &QCheckBox::toggled, this, [this](bool on) { post([r = renderer_.get(), on] { r->setIsoSurface(on); }); });
  connect(volume_, &QCheckBox::toggled, this, [this](bool on) { post([r = renderer_.get(), on] { r->setVolume(on); }); });
  post([r = renderer_.get()] { r->prepare(); });
  redraw();
  snapshots_.setHeld(true);  // until the view is first shown
}

SceneView::~SceneView() {
  post([r = renderer_.get(), gui = thread()] { r->release(gui); }, true);
  render_thread_.quit();
  render_thread_.wait();
  renderer_.reset();
  context_.reset();  // before its surface
}

template <class Call>
void SceneView::post(Call&& call, bool wait) {
  const bool here = renderer_->thread() == QThread::currentThread();
  const Qt::ConnectionType how = !wait ? Qt::QueuedConnection : here ? Qt::DirectConnection : Qt::BlockingQueuedConnection;
  QMetaObject::invokeMethod(renderer_.get(), std::forward<Call>(call), how);
}

void SceneView::showSnapshot(std::shared_ptr<const ks::Snapshot> snapshot) { snapshots_.offer(std::move(snapshot)); }

void SceneView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  post([r = renderer_.get()] { r->setShown(true); });
  snapshots_.setHeld(false);
}

void SceneView::hideEvent(QHideEvent* event) {
  snapshots_.setHeld(true);
  post([r = renderer_.get()] { r->setShown(false); });
  QWidget::hideEvent(event);
}

void SceneView::resetForPreset() {
  snapshots_.clear();
  wanted_.clear();
  iso_surface_->setChecked(false);
  volume_->setChecked(false);
  post([r = renderer_.get()] { r->forgetObstacles(); });
  redraw();  // "no field": the next data is framed afresh (a new shape resets the camera)
}

void SceneView::setField(const QString& name) {
  if (name == wanted_) return;
  wanted_ = name;
  redraw();
}

bool SceneView::saveScreenshot(const QString& png_path) {
  snapshots_.flush();  // the picture shows the newest data, not the one 250 ms old
  QImage frame;
  const QSize pixels = frame_->pixels();
  post(
      [r = renderer_.get(), pixels, &frame] {
        r->resize(pixels);
        frame = r->drawNow();
      },
      true);
  return !frame.isNull() && frame.save(png_path, "PNG");
}

// The wanted field, or the snapshot's first one while the wanted one is absent.
void SceneView::redraw() {
  static const std::vector<FieldData> kNoFields;
  const std::shared_ptr<const Snapshot>& snapshot = snapshots_.current();
  const std::vector<FieldData>& fields = snapshot ? snapshot->fields : kNoFields;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (QString::fromStdString(fields[i].desc.name) == wanted_) shown = i;
  const bool volumetric = !fields.empty() && scene_volumetric(fields[shown]);
  iso_surface_->setEnabled(volumetric);
  volume_->setEnabled(volumetric);
  if (fields.empty() || fields[shown].grid.count() == 0) {
    post([r = renderer_.get()] { r->showMessage("no field"); });
  } else {
    post([r = renderer_.get(), snapshot, shown] { r->showField(snapshot, shown); });
  }
}

}  // namespace ks::gui
