#include "field_view.hpp"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QWheelEvent>
#include <QtDebug>
#include <limits>
#include <utility>

#include "colour_bar.hpp"
#include "field_axes.hpp"
#include "imgui_overlay.hpp"

namespace ks::gui {

namespace {

const QColor kBackground(72, 72, 72);  // mid grey: the dark and the light ends of a map both show
const QColor kOverlayText(235, 235, 235);

}  // namespace

// --- public interface ----------------------------------------------------------------------

FieldView::FieldView(QWidget* parent) : QOpenGLWidget(parent), overlay_(std::make_unique<ImGuiOverlay>()) {
  setMouseTracking(true);          // hover text without a button held
  setFocusPolicy(Qt::ClickFocus);  // keys for a slider's typed value (Ctrl+click)
  setMinimumSize(240, 180);
  connect(&device_feed_, &DeviceFieldFeed::selectionWanted, this, &FieldView::deviceSelectionWanted);
  connect(&device_feed_, &DeviceFieldFeed::repaintWanted, this, [this] { update(); });
}

FieldView::~FieldView() {
  // The context outlives this destructor (QOpenGLWidget's owns it): its aboutToBeDestroyed
  // must not call back into a FieldView that is gone.
  if (context()) disconnect(context(), nullptr, this, nullptr);
  cleanup();
}

void FieldView::showSnapshot(std::shared_ptr<const ks::Snapshot> snapshot) {
  shown_.setSnapshot(std::move(snapshot));
  shownValuesChanged();
}

void FieldView::resetForPreset() {
  shown_.reset();
  colour_scale_ = ColourScale();
  interaction_.reset();
  comparison_.clear();
  shownValuesChanged();
}

void FieldView::setDeviceField(const ks::DeviceFieldPublisher* source) {
  if (device_feed_.holdsBuffers()) {  // their GL objects go with the view's context
    makeCurrent();
    device_feed_.releaseBuffers();
    doneCurrent();
  }
  device_feed_.setSource(source);
  update();
}

void FieldView::setField(const QString& name) {
  shown_.setName(name);
  shownValuesChanged();
}

void FieldView::setComponent(int c) {
  shown_.setComponent(c);
  shownValuesChanged();
}

void FieldView::setColormap(const QString& name) {
  layers_.setColormap(name);
  update();
}

void FieldView::setLogScale(bool on) {
  colour_scale_.setLog(on);
  update();
}

void FieldView::setAutoRange(bool on) {
  colour_scale_.setAutoRange(on);
  update();
}

void FieldView::setRange(double lo, double hi) {
  colour_scale_.setRange(lo, hi);
  update();
}

void FieldView::setSlice(SlicePlane plane) {
  shown_.setSlice(plane);
  shownValuesChanged();
}

void FieldView::setSimulationRate(double iterations_per_s, double work_per_s, const QString& work_unit) {
  if (iterations_per_s == iterations_per_s_ && work_per_s == work_per_s_ && work_unit == work_unit_) return;
  iterations_per_s_ = iterations_per_s;
  work_per_s_ = work_per_s;
  work_unit_ = work_unit;
  update();
}

void FieldView::setComparison(const QString& text) {
  if (text == comparison_) return;
  comparison_ = text;
  update();
}

QStringList FieldView::fieldNames() const { return shown_.names(); }

QString FieldView::field() const {
  const ks::FieldData* f = shown_.field();
  return f ? QString::fromStdString(f->desc.name) : QString();
}

double FieldView::framesPerSecond() const { return frame_rate_.perSecond(); }

int FieldView::hostUploads() const { return layers_.hostUploads(); }

int FieldView::deviceCopies() const { return device_feed_.copies(); }

QString FieldView::glRenderer() const { return layers_.renderer(); }

// A screenshot shows the field, its axes and colour bar, not the live rates (grabFramebuffer paints
// a frame of its own).
QImage FieldView::grabImage(bool with_rates) {
  grabbing_without_rates_ = !with_rates;
  QImage image = grabFramebuffer();
  grabbing_without_rates_ = false;
  return image;
}

// --- the shown data --------------------------------------------------------------------------

void FieldView::shownValuesChanged() {
  updateHover();
  update();
}

const PackedField& FieldView::packed() {
  if (shown_.repackIfStale()) layers_.markFieldStale();
  return shown_.packed();
}

QRectF FieldView::dataRect() const {
  const PackedField& p = shown_.packed();
  return interaction_.dataRect(plot_area(size()), QSizeF(p.w, p.h), p.across.unit == p.up.unit);
}

// --- OpenGL ----------------------------------------------------------------------------------

void FieldView::initializeGL() {
  // A widget moved to another window gets a new context: free everything with the old one.
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &FieldView::cleanup, Qt::UniqueConnection);
  if (!layers_.initialize()) return;
  if (!overlay_->initializeGL()) qWarning() << "FieldView: the Dear ImGui OpenGL 3 backend failed; no overlay";
}

void FieldView::cleanup() {
  painter_prepared_ = false;
  if (!layers_.holdsPrograms()) return;  // nothing was created in this context
  makeCurrent();
  if (layers_.ready()) {
    overlay_->cleanupGL();
    device_feed_.releaseBuffers();
  }
  layers_.destroy();
  doneCurrent();
}

void FieldView::paintGL() {
  frame_rate_.record();
  if (!time_paints_) return paint();
  paint_times_.begin();
  paint();
  context()->functions()->glFinish();  // the frame's time includes the GPU's work, as its swap will
  paint_times_.end();
}

void FieldView::paint() {
  if (!painter_prepared_) preparePainter();
  const PackedField& data = packed();
  if (!layers_.ready()) {
    drawCentredMessage(tr("OpenGL 3.3 or the field shaders failed (see the log)"));
    return;
  }
  if (data.kind == PackedField::Kind::None) {
    drawCentredMessage(waiting_.isEmpty() ? tr("no field") : waiting_);
    drawImGuiOverlay();
    return;
  }
  layers_.uploadColormapIfStale();
  const DevicePoints device_points = device_feed_.copyParticles(shown_.field(), shown_.component());
  // Masked cells (solids) are the host's to draw.
  const bool image_from_device = !data.masked && device_feed_.copyImage(shown_.field(), shown_.component(), shown_.slice(), layers_);
  if (device_points.count == 0 && !image_from_device) layers_.uploadFieldIfStale(data);

  layers_.beginFrame(size(), devicePixelRatioF(), kBackground);
  const ValueRange range = colour_scale_.rangeFor(data);
  // Zoomed-in data stays inside the plot area (not over the colour bar).
  layers_.drawField(data, dataRect(), plot_area(size()), range, colour_scale_.log(), device_points);
  layers_.drawColourRamp(colour_bar_rect(size()), range, colour_scale_.log());
  drawOverlay(data, range);
}

void FieldView::drawOverlay(const PackedField& data, const ValueRange& range) {
  {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(kOverlayText);
    paint_field_axes(painter, dataRect(), plot_area(size()), data);
    paint_colour_bar_labels(painter, size(), colour_scale_, range, shown_.displayName(), shown_.unit(),
                            data.masked ? std::optional<QString>(tr("solid")) : std::nullopt);
  }  // the painter ends here: ImGui draws with OpenGL after it
  drawImGuiOverlay();
}

void FieldView::drawImGuiOverlay() {
  if (grabbing_without_rates_) return;
  const OverlayStatus status{framesPerSecond(), iterations_per_s_, work_per_s_,   work_unit_,
                             hover_text_,       comparison_,       hostUploads(), deviceCopies()};
  overlay_->draw(status, size(), devicePixelRatioF());
  if (overlay_->needsAnotherFrame()) update();
}

// The painter's OpenGL programs (antialiased lines, text, turned text) and the axes' glyphs are
// made when first drawn in a context: 30-50 ms under a software renderer, a stall at the first
// preset shown. A sample field's axes and colour bar, drawn under the background, make them in
// the window's first frame (MainWindow draws the hidden tabs once).
void FieldView::preparePainter() {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(kOverlayText);
  PackedField sample;  // a 2 x 2 image, one cell solid
  sample.kind = PackedField::Kind::Image;
  sample.width = sample.height = 2;
  sample.data = {0.0f, 1.0f, 0.5f, std::numeric_limits<float>::quiet_NaN()};
  sample.masked = true;
  sample.max = 1.0;
  paint_field_axes(painter, dataRect(), plot_area(size()), sample);
  paint_colour_bar_labels(painter, size(), colour_scale_, {0.0, 1.0}, "|u|", "m/s", tr("solid"));
  painter.fillRect(rect(), kBackground);
  painter_prepared_ = true;
}

void FieldView::drawCentredMessage(const QString& text) {
  QPainter painter(this);
  painter.fillRect(rect(), kBackground);
  painter.setPen(kOverlayText);
  painter.drawText(rect(), Qt::AlignCenter, text);
}

// --- interaction -----------------------------------------------------------------------------

bool FieldView::event(QEvent* event) {
  const ImGuiOverlay::InputUse use = overlay_->handleInput(*event);
  if (use == ImGuiOverlay::InputUse::NotInput) return QOpenGLWidget::event(event);
  update();  // the overlay shows the input in its next frame
  if (use == ImGuiOverlay::InputUse::Shared) return QOpenGLWidget::event(event);
  event->accept();  // the overlay's alone: no pan, zoom or shortcut
  return true;
}

void FieldView::mousePressEvent(QMouseEvent* event) { interaction_.press(*event); }

void FieldView::mouseReleaseEvent(QMouseEvent* event) { interaction_.release(*event); }

void FieldView::mouseMoveEvent(QMouseEvent* event) {
  if (interaction_.move(*event)) update();
  updateHover();
}

void FieldView::mouseDoubleClickEvent(QMouseEvent*) {
  interaction_.reset();
  updateHover();
  update();
}

void FieldView::wheelEvent(QWheelEvent* event) {
  interaction_.zoom(*event, plot_area(size()));
  updateHover();
  update();
}

void FieldView::leaveEvent(QEvent*) {
  interaction_.leave();
  updateHover();
}

void FieldView::updateHover() {
  const QString text = interaction_.cursor() ? hoverTextAt(*interaction_.cursor()) : QString();
  if (text == hover_text_) return;
  hover_text_ = text;
  emit hovered(text);
  update();  // the overlay shows it
}

QString FieldView::hoverTextAt(const QPointF& pos) {
  const PackedField& data = packed();
  if (data.kind == PackedField::Kind::None || !plot_area(size()).contains(pos)) return {};
  return hover_text(data, dataRect(), pos, shown_.displayName(), shown_.unit());
}

}  // namespace ks::gui
