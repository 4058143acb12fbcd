#include "field_view.hpp"

#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLShaderProgram>
#include <QPainter>
#include <QTimer>
#include <QWheelEvent>
#include <QtDebug>
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "colormaps.hpp"
#include "core/display_value.hpp"
#include "imgui_overlay.hpp"
#include "zero_copy_buffer.hpp"     // app/interop: declared in every build, defined in CUDA builds
#include "zero_copy_particles.hpp"

namespace ks::gui {

namespace {

// Layout of the view, in widget (logical) pixels.
constexpr double kMargin = 12.0;         // around the plot area
constexpr double kBarAreaWidth = 100.0;  // at the right: colour bar, ticks and labels
constexpr double kBarWidth = 18.0;
constexpr double kBarTop = 44.0;  // above the bar: its title
constexpr double kBarBottom = 24.0;
constexpr double kTickLength = 5.0;
constexpr int kTickCount = 5;

constexpr double kPointSizePx = 5.0;      // particle diameter
constexpr double kHoverRadiusPx = 6.0;    // how near the cursor a particle must be to be named
constexpr double kParticleMargin = 0.03;  // of the bounding box, each side: edge points stay whole
constexpr double kMinZoom = 1.0 / 16.0;
constexpr double kMaxZoom = 4096.0;
constexpr double kWheelStepsPerDoubling = 4.0;  // wheel notches (120 units each) that double the zoom

constexpr int kColormapTexels = 256;
const QColor kBackground(72, 72, 72);  // mid grey: the dark and the light ends of a map both show
const QColor kOverlayText(235, 235, 235);

static_assert(sizeof(std::array<float, 3>) == 3 * sizeof(float), "colour tables upload as packed RGB");

// --- packing: the shown scalar of each cell or particle, as uploaded ---------------------

// Running min, max and smallest positive value over the finite values.
struct Extremes {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double min_positive = std::numeric_limits<double>::infinity();

  void add(double v) {
    if (!std::isfinite(v)) return;
    min = std::min(min, v);
    max = std::max(max, v);
    if (v > 0.0) min_positive = std::min(min_positive, v);
  }
  void storeIn(PackedField& p) const {
    const bool any = min <= max;
    p.min = any ? min : 0.0;
    p.max = any ? max : 0.0;
    p.min_positive = std::isfinite(min_positive) ? min_positive : 0.0;
  }
};

// The component of field f a view shows for the choice `component`: that component of a vector
// field that has it, else -1 (a scalar field's value, a vector's magnitude), as
// Method::write_display_field and ks::display_value take it.
int shownComponent(const ks::FieldData& f, int component) {
  return f.desc.components > 1 && component >= 0 && component < f.desc.components ? component : -1;
}

// The scalar shown for element `index`, the same value a zero-copy view writes on the device.
double scalarAt(const ks::FieldData& f, std::int64_t index, int component) {
  const int n = f.desc.components;
  return ks::display_value(f.values.data() + index * n, n, shownComponent(f, component));
}

bool isWellFormed(const ks::FieldData& f) {
  const std::int64_t count = f.grid.count();
  if (count <= 0 || f.desc.components < 1) return false;
  if (std::int64_t(f.values.size()) < count * f.desc.components) return false;
  if (f.grid.kind == ks::Grid::Kind::Particles) return std::int64_t(f.positions.size()) >= count;
  return f.grid.spacing[0] > 0.0 && f.grid.spacing[1] > 0.0;
}

PackedField packImageSlice(const ks::FieldData& f, int z, int component) {
  const auto [nx, ny, nz] = f.grid.cells;
  z = std::clamp(z, 0, nz - 1);
  PackedField p;
  p.kind = PackedField::Kind::Image;
  p.width = nx;
  p.height = ny;
  p.data.resize(std::size_t(nx) * ny);
  Extremes extremes;
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const double v = scalarAt(f, (std::int64_t(z) * ny + j) * nx + i, component);
      p.data[std::size_t(j) * nx + i] = float(v);
      extremes.add(v);
    }
  }
  extremes.storeIn(p);
  p.x0 = f.grid.origin[0];
  p.y0 = f.grid.origin[1];
  p.w = nx * f.grid.spacing[0];
  p.h = ny * f.grid.spacing[1];
  return p;
}

// An interval holding [lo, hi] with a margin; a point gets `fallback_size`, centred on it.
std::pair<double, double> paddedInterval(double lo, double hi, double fallback_size) {
  const double size = (hi > lo ? hi - lo : fallback_size) * (1.0 + 2.0 * kParticleMargin);
  const double centre = 0.5 * (lo + hi);
  return {centre - 0.5 * size, size};
}

PackedField packParticles(const ks::FieldData& f, int component) {
  const std::int64_t count = f.grid.count();
  double x_lo = f.positions[0][0], x_hi = x_lo, y_lo = f.positions[0][1], y_hi = y_lo;
  for (std::int64_t k = 0; k < count; ++k) {
    x_lo = std::min(x_lo, f.positions[k][0]);
    x_hi = std::max(x_hi, f.positions[k][0]);
    y_lo = std::min(y_lo, f.positions[k][1]);
    y_hi = std::max(y_hi, f.positions[k][1]);
  }
  // A flat cloud (all on one line) borrows the other axis's extent; a single point gets 1 m.
  const double x_size = x_hi - x_lo, y_size = y_hi - y_lo;
  const double fallback = std::max(x_size, y_size) > 0.0 ? std::max(x_size, y_size) : 1.0;

  PackedField p;
  p.kind = PackedField::Kind::Particles;
  p.width = int(count);
  p.height = 1;
  std::tie(p.x0, p.w) = paddedInterval(x_lo, x_hi, fallback);
  std::tie(p.y0, p.h) = paddedInterval(y_lo, y_hi, fallback);
  p.data.resize(std::size_t(count) * 3);
  Extremes extremes;
  for (std::int64_t k = 0; k < count; ++k) {
    const double v = scalarAt(f, k, component);
    p.data[3 * k + 0] = float((f.positions[k][0] - p.x0) / p.w);
    p.data[3 * k + 1] = float((f.positions[k][1] - p.y0) / p.h);
    p.data[3 * k + 2] = float(v);
    extremes.add(v);
  }
  extremes.storeIn(p);
  return p;
}

PackedField pack(const ks::FieldData& f, int slice, int component) {
  if (!isWellFormed(f)) {
    qWarning().noquote() << "FieldView: field" << QString::fromStdString(f.desc.name)
                         << "does not match its grid (values, positions or spacing): not shown";
    return {};
  }
  return f.grid.kind == ks::Grid::Kind::Image ? packImageSlice(f, slice, component)
                                              : packParticles(f, component);
}

// --- hover: the value under the cursor ---------------------------------------------------

// A point of the data's unit square and the value shown there.
struct Sample {
  double u = 0.0, v = 0.0;
  double value = 0.0;
};

std::optional<Sample> cellAt(const PackedField& p, double u, double v) {
  if (u < 0.0 || u >= 1.0 || v < 0.0 || v >= 1.0) return std::nullopt;
  const int i = std::min(int(u * p.width), p.width - 1);
  const int j = std::min(int(v * p.height), p.height - 1);
  return Sample{u, v, p.data[std::size_t(j) * p.width + i]};
}

// The particle nearest to (u, v) within `radius_px`; `unit_px` is the unit square's size on screen.
std::optional<Sample> particleNear(const PackedField& p, double u, double v, QSizeF unit_px,
                                   double radius_px) {
  std::optional<Sample> nearest;
  double best = radius_px * radius_px;
  for (std::size_t k = 0; k < std::size_t(p.width); ++k) {
    const double dx = (p.data[3 * k] - u) * unit_px.width();
    const double dy = (p.data[3 * k + 1] - v) * unit_px.height();
    const double d2 = dx * dx + dy * dy;
    if (d2 <= best) {
      best = d2;
      nearest = Sample{p.data[3 * k], p.data[3 * k + 1], p.data[3 * k + 2]};
    }
  }
  return nearest;
}

QString number(double v, int digits = 4) { return QString::number(v, 'g', digits); }

// The value at fraction t of the colour bar.
double valueAt(double t, double lo, double hi, bool log_scale) {
  return log_scale ? lo * std::pow(hi / lo, t) : lo + t * (hi - lo);
}

}  // namespace

// --- public interface ----------------------------------------------------------------------

FieldView::FieldView(QWidget* parent) : QOpenGLWidget(parent), overlay_(std::make_unique<ImGuiOverlay>()) {
  setMouseTracking(true);          // hover text without a button held
  setFocusPolicy(Qt::ClickFocus);  // keys for a slider's typed value (Ctrl+click)
  setMinimumSize(240, 180);
  clock_.start();
}

FieldView::~FieldView() {
  // The context outlives this destructor (QOpenGLWidget's owns it): its aboutToBeDestroyed
  // must not call back into a FieldView that is gone.
  if (context()) disconnect(context(), nullptr, this, nullptr);
  cleanup();
}

void FieldView::showSnapshot(std::shared_ptr<const ks::Snapshot> snapshot) {
  snapshot_ = std::move(snapshot);
  markDataChanged();
}

void FieldView::setDeviceField(const ks::DeviceFieldPublisher* source) {
  if (zero_copy_ || zero_copy_image_) {  // their GL objects go with the view's context
    makeCurrent();
    zero_copy_.reset();
    zero_copy_image_.reset();
    doneCurrent();
  }
  device_source_ = source;
  requested_field_.clear();
  update();
}

void FieldView::setField(const QString& name) {
  wanted_field_ = name;
  markDataChanged();
}

void FieldView::setComponent(int c) {
  component_ = c;
  markDataChanged();
}

void FieldView::setColormap(const QString& name) {
  colormap_ = colormap_names().contains(name) ? name : colormap_names().front();
  colormap_dirty_ = true;
  update();
}

void FieldView::setLogScale(bool on) {
  log_scale_ = on;
  update();
}

void FieldView::setAutoRange(bool on) {
  auto_range_ = on;
  update();
}

void FieldView::setRange(double lo, double hi) {
  manual_range_ = {lo, hi};
  update();
}

void FieldView::setSlice(int z) {
  slice_ = std::max(z, 0);  // the upper clamp needs the field: done when packing
  markDataChanged();
}

void FieldView::setSimulationRate(double iterations_per_s, double work_per_s, const QString& work_unit) {
  if (iterations_per_s == iterations_per_s_ && work_per_s == work_per_s_ && work_unit == work_unit_) return;
  iterations_per_s_ = iterations_per_s;
  work_per_s_ = work_per_s;
  work_unit_ = work_unit;
  update();
}

void FieldView::setQuickParameters(const std::vector<ks::ParamSpec>& specs, const ks::ParamSet& values) {
  overlay_->setQuickParameters(specs, values);
  update();
}

void FieldView::showValues(const ks::ParamSet& values) {
  if (overlay_->showValues(values)) update();
}

QStringList FieldView::fieldNames() const {
  QStringList names;
  if (snapshot_) {
    for (const ks::FieldData& f : snapshot_->fields) names << QString::fromStdString(f.desc.name);
  }
  return names;
}

QString FieldView::field() const {
  const ks::FieldData* f = currentField();
  return f ? QString::fromStdString(f->desc.name) : QString();
}

double FieldView::framesPerSecond() const {
  const qint64 since = clock_.elapsed() - 1000;
  return double(
      std::count_if(frame_times_ms_.begin(), frame_times_ms_.end(), [since](qint64 t) { return t > since; }));
}

int FieldView::hostUploads() const { return host_uploads_; }

int FieldView::deviceCopies() const { return device_copies_; }

QString FieldView::glRenderer() const { return gl_renderer_; }

QImage FieldView::grabImage() { return grabFramebuffer(); }

// --- the shown data --------------------------------------------------------------------------

const ks::FieldData* FieldView::currentField() const {
  if (!snapshot_ || snapshot_->fields.empty()) return nullptr;
  const std::string wanted = wanted_field_.toStdString();
  for (const ks::FieldData& f : snapshot_->fields) {
    if (f.desc.name == wanted) return &f;
  }
  return &snapshot_->fields.front();
}

QString FieldView::displayName() const {
  const ks::FieldData* f = currentField();
  if (!f) return {};
  const QString name = QString::fromStdString(f->desc.name);
  if (f->desc.components == 1) return name;
  const int component = shownComponent(*f, component_);
  return component >= 0 ? QString("%1[%2]").arg(name).arg(component) : QString("|%1|").arg(name);
}

void FieldView::markDataChanged() {
  pack_dirty_ = true;
  updateHover();
  update();
}

const PackedField& FieldView::packed() {
  if (pack_dirty_) {
    const ks::FieldData* f = currentField();
    packed_ = f ? pack(*f, slice_, component_) : PackedField{};
    pack_dirty_ = false;
    upload_dirty_ = true;
  }
  return packed_;
}

FieldView::Range FieldView::displayRange() const {
  Range r = auto_range_ ? Range{log_scale_ ? packed_.min_positive : packed_.min, packed_.max} : manual_range_;
  if (r.hi < r.lo) std::swap(r.lo, r.hi);
  if (log_scale_) {
    if (r.hi <= 0.0) return {1.0, 10.0};  // nothing positive to show: every value takes the low end
    if (r.lo <= 0.0) {
      const bool min_fits = packed_.min_positive > 0.0 && packed_.min_positive < r.hi;
      r.lo = min_fits ? packed_.min_positive : r.hi * 1e-6;
    }
    if (r.hi == r.lo) return {r.lo / 2.0, r.hi * 2.0};
    return r;
  }
  if (r.hi == r.lo) {  // a uniform field shows the middle colour
    const double pad = r.lo != 0.0 ? 0.5 * std::abs(r.lo) : 0.5;
    return {r.lo - pad, r.hi + pad};
  }
  return r;
}

// --- OpenGL resources ----------------------------------------------------------------------

namespace {

// A program from ":/shaders/<name>.vert" and ".frag"; null (and a warning) when they fail.
std::unique_ptr<QOpenGLShaderProgram> buildProgram(const QString& name) {
  auto program = std::make_unique<QOpenGLShaderProgram>();
  const QString base = ":/shaders/" + name;
  if (!program->addShaderFromSourceFile(QOpenGLShader::Vertex, base + ".vert") ||
      !program->addShaderFromSourceFile(QOpenGLShader::Fragment, base + ".frag") || !program->link()) {
    qWarning().noquote() << "FieldView: shader program" << name << "failed:" << program->log();
    return nullptr;
  }
  return program;
}

}  // namespace

void FieldView::initializeGL() {
  // A widget moved to another window gets a new context: free everything with the old one.
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &FieldView::cleanup, Qt::UniqueConnection);
  if (!initializeOpenGLFunctions()) {
    qWarning() << "FieldView: OpenGL 3.3 core functions unavailable; the view stays empty";
    return;
  }
  gl_renderer_ = QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  gl_ready_ = createPrograms();
  if (!gl_ready_) return;
  createBuffers();
  colormap_dirty_ = true;
  upload_dirty_ = true;
  if (!overlay_->initializeGL()) qWarning() << "FieldView: the Dear ImGui OpenGL 3 backend failed; no overlay";
}

bool FieldView::createPrograms() {
  image_program_ = buildProgram("image");
  points_program_ = buildProgram("points");
  if (!image_program_ || !points_program_) return false;
  // Texture units: 0 = the field, 1 = the colour map.
  image_program_->bind();
  image_program_->setUniformValue("u_field", 0);
  image_program_->setUniformValue("u_colormap", 1);
  points_program_->bind();
  points_program_->setUniformValue("u_colormap", 1);
  points_program_->release();
  return true;
}

void FieldView::createBuffers() {
  static const float kUnitSquare[] = {0, 0, 1, 0, 0, 1, 1, 1};  // triangle strip
  glGenVertexArrays(1, &quad_vao_);
  glGenBuffers(1, &quad_vbo_);
  glBindVertexArray(quad_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof(kUnitSquare), kUnitSquare, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);

  glGenVertexArrays(1, &points_vao_);
  glGenBuffers(1, &points_vbo_);
  glBindVertexArray(points_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, points_vbo_);
  glEnableVertexAttribArray(0);  // position (u, v), then value: as packParticles writes them
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 3 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 3 * sizeof(float), reinterpret_cast<void*>(2 * sizeof(float)));
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  // Cells are drawn as blocks (GL_NEAREST): a pixel shows its cell's value, as the hover text does.
  glGenTextures(1, &field_texture_);
  glBindTexture(GL_TEXTURE_2D, field_texture_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  texture_width_ = texture_height_ = 0;

  glGenTextures(1, &colormap_texture_);
  glBindTexture(GL_TEXTURE_1D, colormap_texture_);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
}

void FieldView::cleanup() {
  if (!image_program_ && !points_program_) return;  // nothing was created in this context
  makeCurrent();
  if (gl_ready_) {
    const GLuint vaos[] = {quad_vao_, points_vao_};
    const GLuint buffers[] = {quad_vbo_, points_vbo_};
    const GLuint textures[] = {field_texture_, colormap_texture_};
    glDeleteVertexArrays(2, vaos);
    glDeleteBuffers(2, buffers);
    glDeleteTextures(2, textures);
    quad_vao_ = quad_vbo_ = points_vao_ = points_vbo_ = field_texture_ = colormap_texture_ = 0;
    overlay_->cleanupGL();
    zero_copy_.reset();
    zero_copy_image_.reset();
  }
  image_program_.reset();
  points_program_.reset();
  gl_ready_ = false;
  doneCurrent();
}

void FieldView::uploadColormap() {
  const std::vector<std::array<float, 3>> table = colormap_table(colormap_, kColormapTexels);
  glBindTexture(GL_TEXTURE_1D, colormap_texture_);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGB32F, GLsizei(table.size()), 0, GL_RGB, GL_FLOAT, table.data());
  colormap_dirty_ = false;
}

void FieldView::uploadPacked() {
  upload_dirty_ = false;
  if (packed_.kind == PackedField::Kind::Image) {
    setFieldTexture(packed_.width, packed_.height, packed_.data.data());
    ++host_uploads_;
  } else if (packed_.kind == PackedField::Kind::Particles) {
    glBindBuffer(GL_ARRAY_BUFFER, points_vbo_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(packed_.data.size() * sizeof(float)), packed_.data.data(),
                 GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    ++host_uploads_;
  }
}

// The field texture (GL_R32F) from `pixels`: a host pointer, or an offset into the bound pixel
// buffer. Reallocated only when the size changes.
void FieldView::setFieldTexture(int width, int height, const void* pixels) {
  glBindTexture(GL_TEXTURE_2D, field_texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (width == texture_width_ && height == texture_height_) {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RED, GL_FLOAT, pixels);
  } else {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, width, height, 0, GL_RED, GL_FLOAT, pixels);
    texture_width_ = width;
    texture_height_ = height;
  }
}

// The shown field when it is of `kind` and the Runner publishes fields in device memory; else null.
const ks::FieldData* FieldView::deviceFieldShown(ks::Grid::Kind kind) const {
  const ks::FieldData* f = currentField();
  return device_source_ && f && f->grid.kind == kind ? f : nullptr;
}

// The device buffer holds another selection: ask the Runner (once) and look again shortly. True
// while waiting; false once the Runner has not answered for kDeviceAnswerMs (a run whose set-up
// failed publishes nothing), so that the host snapshot is drawn instead.
bool FieldView::awaitDeviceSelection(const ks::FieldData& f) {
  constexpr int kDeviceAnswerMs = 2000;
  const QString name = QString::fromStdString(f.desc.name);
  const int component = shownComponent(f, component_);
  if (name != requested_field_ || component != requested_component_) {
    requested_field_ = name;
    requested_component_ = component;
    requested_at_.start();
    emit deviceSelectionWanted(name, component);
  }
  if (requested_at_.elapsed() > kDeviceAnswerMs) return false;
  QTimer::singleShot(30, this, [this] { update(); });
  return true;
}

// CUDA refused a GL buffer (a context on another GPU, say): the zero-copy path is turned off with
// a warning, and host snapshots are uploaded from now on.
void FieldView::turnOffZeroCopy(const std::exception& e) {
  qWarning().noquote() << "FieldView: zero-copy view turned off, uploading host snapshots instead:" << e.what();
  zero_copy_.reset();
  zero_copy_image_.reset();
  device_source_ = nullptr;
}

// The zero-copy path: the shown particles copied device-to-device into zero_copy_'s buffer.
// Returns how many to draw from it (the previous selection's while the Runner has not published
// this one), or 0 to draw the host upload instead: no device copy, the method cannot write this
// field, or the path was turned off.
std::size_t FieldView::copyDeviceParticles() {
#ifdef KS_ZERO_COPY_VIEW
  using Selection = ks::interop::ZeroCopyBuffer::Selection;
  const ks::FieldData* f = deviceFieldShown(ks::Grid::Kind::Particles);
  if (!f) return 0;
  try {
    if (!zero_copy_) zero_copy_ = std::make_shared<ks::interop::ZeroCopyParticles>(*device_source_);
    if (zero_copy_->refresh()) ++device_copies_;
    const Selection s = zero_copy_->data().selection(f->desc.name, shownComponent(*f, component_));
    if (s == Selection::Pending && !awaitDeviceSelection(*f)) return 0;
    return s == Selection::Refused ? 0 : zero_copy_->count();
  } catch (const std::exception& e) {
    turnOffZeroCopy(e);
  }
#endif
  return 0;
}

// The zero-copy path for images: the published field (one float per cell of the shown selection)
// copied device-to-device into a pixel buffer, whose layer at the shown slice then becomes the
// field texture on the GPU. While the Runner has not published the shown selection yet, the
// texture keeps the previous picture. False to upload the host snapshot instead: no device copy,
// the method cannot write this selection, nothing drawn yet, or the path was turned off.
bool FieldView::copyDeviceImage() {
#ifdef KS_ZERO_COPY_VIEW
  using Selection = ks::interop::ZeroCopyBuffer::Selection;
  const ks::FieldData* f = deviceFieldShown(ks::Grid::Kind::Image);
  if (!f) return false;
  try {
    if (!zero_copy_image_) zero_copy_image_ = std::make_shared<ks::interop::ZeroCopyBuffer>(*device_source_);
    if (zero_copy_image_->refresh()) ++device_copies_;
    const Selection s = zero_copy_image_->selection(f->desc.name, shownComponent(*f, component_));
    if (s == Selection::Pending) return awaitDeviceSelection(*f) && texture_width_ > 0;
    const auto [nx, ny, nz] = f->grid.cells;
    return s == Selection::Held && zero_copy_image_->unpack_layer(nx, ny, nz, std::clamp(slice_, 0, nz - 1), [&](const void* offset) {
             setFieldTexture(nx, ny, offset);
           });
  } catch (const std::exception& e) {
    turnOffZeroCopy(e);
  }
#endif
  return false;
}

// --- painting --------------------------------------------------------------------------------

void FieldView::paintGL() {
  recordFrame();
  const PackedField& data = packed();
  if (!gl_ready_) {
    drawCentredMessage(tr("OpenGL 3.3 or the field shaders failed (see the log)"));
    return;
  }
  if (data.kind == PackedField::Kind::None) {
    drawCentredMessage(tr("no field"));
    drawImGuiOverlay();
    return;
  }
  if (colormap_dirty_) uploadColormap();
  device_particles_ = copyDeviceParticles();
  const bool image_from_device = copyDeviceImage();
  if (device_particles_ == 0 && !image_from_device && upload_dirty_) uploadPacked();

  // QPainter (the overlay of the previous frame) leaves its own state: set what we rely on.
  const qreal dpr = devicePixelRatioF();
  glViewport(0, 0, GLsizei(width() * dpr), GLsizei(height() * dpr));
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glClearColor(kBackground.redF(), kBackground.greenF(), kBackground.blueF(), 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);

  const Range range = displayRange();
  drawField(range);
  drawColourBar(range);
  drawOverlay(range);
}

void FieldView::setColourUniforms(QOpenGLShaderProgram& program, const Range& range) {
  program.setUniformValue("u_lo", GLfloat(range.lo));
  program.setUniformValue("u_hi", GLfloat(range.hi));
  program.setUniformValue("u_log", GLint(log_scale_ ? 1 : 0));
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_1D, colormap_texture_);
}

void FieldView::drawField(const Range& range) {
  // Zoomed-in data stays inside the plot area (not over the colour bar).
  const QRectF area = plotArea();
  const qreal dpr = devicePixelRatioF();
  glEnable(GL_SCISSOR_TEST);
  glScissor(GLint(area.left() * dpr), GLint((height() - area.bottom()) * dpr), GLsizei(area.width() * dpr),
            GLsizei(area.height() * dpr));

  const QVector4D transform = transformFor(dataRect());
  if (packed_.kind == PackedField::Kind::Image) {
    image_program_->bind();
    setColourUniforms(*image_program_, range);
    image_program_->setUniformValue("u_transform", transform);
    image_program_->setUniformValue("u_ramp", GLint(0));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, field_texture_);
    glBindVertexArray(quad_vao_);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  } else {
    // Host uploads are in the unit square already; the zero-copy buffer holds metres.
    const bool from_device = device_particles_ > 0;
    const QVector4D box = from_device ? QVector4D(float(packed_.x0), float(packed_.y0), float(packed_.w), float(packed_.h))
                                      : QVector4D(0.0f, 0.0f, 1.0f, 1.0f);
    points_program_->bind();
    setColourUniforms(*points_program_, range);
    points_program_->setUniformValue("u_data_box", box);
    points_program_->setUniformValue("u_transform", transform);
    points_program_->setUniformValue("u_point_size", GLfloat(kPointSizePx * dpr));
    glBindVertexArray(from_device ? zero_copy_->vertexArray() : points_vao_);
    glDrawArrays(GL_POINTS, 0, GLsizei(from_device ? device_particles_ : std::size_t(packed_.width)));
  }
  glBindVertexArray(0);
  glDisable(GL_SCISSOR_TEST);
}

// The bar is the colour map itself, drawn by the image shader in ramp mode: it shows exactly
// the colours the field uses.
void FieldView::drawColourBar(const Range& range) {
  image_program_->bind();
  setColourUniforms(*image_program_, range);
  image_program_->setUniformValue("u_transform", transformFor(colourBarRect()));
  image_program_->setUniformValue("u_ramp", GLint(1));
  glBindVertexArray(quad_vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  image_program_->release();
}

void FieldView::drawOverlay(const Range& range) {
  {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    drawColourBarLabels(painter, range);
  }  // the painter ends here: ImGui draws with OpenGL after it
  drawImGuiOverlay();
}

void FieldView::drawColourBarLabels(QPainter& painter, const Range& range) {
  const QRectF bar = colourBarRect();
  painter.setPen(kOverlayText);
  painter.drawRect(bar);

  const ks::FieldData* f = currentField();
  const QString unit = f ? QString::fromStdString(f->desc.unit) : QString();
  const QString title = unit.isEmpty() ? displayName() : QString("%1 [%2]").arg(displayName(), unit);
  const QRectF title_box(0.0, kMargin, width() - kMargin, kBarTop - kMargin - 6.0);
  painter.drawText(title_box, Qt::AlignRight | Qt::AlignBottom, title);

  const QFontMetricsF metrics(painter.font());
  for (int k = 0; k < kTickCount; ++k) {
    const double t = double(k) / (kTickCount - 1);
    const double y = bar.bottom() - t * bar.height();
    painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + kTickLength, y));
    const QPointF baseline(bar.right() + kTickLength + 3.0, y + 0.5 * (metrics.ascent() - metrics.descent()));
    painter.drawText(baseline, number(valueAt(t, range.lo, range.hi, log_scale_), 3));
  }
  if (log_scale_) {
    painter.drawText(QRectF(bar.left() - 20.0, bar.bottom() + 4.0, bar.width() + 40.0, kBarBottom),
                     Qt::AlignHCenter | Qt::AlignTop, tr("log"));
  }
}

void FieldView::drawImGuiOverlay() {
  const OverlayStatus status{framesPerSecond(), iterations_per_s_, work_per_s_, work_unit_,
                             hover_text_, host_uploads_, device_copies_};
  for (const QuickChange& change : overlay_->draw(status, size(), devicePixelRatioF()))
    emit quickParameterChanged(change.key, change.value);
  if (overlay_->needsAnotherFrame()) update();
}

void FieldView::drawCentredMessage(const QString& text) {
  QPainter painter(this);
  painter.fillRect(rect(), kBackground);
  painter.setPen(kOverlayText);
  painter.drawText(rect(), Qt::AlignCenter, text);
}

void FieldView::recordFrame() {
  const qint64 now = clock_.elapsed();
  frame_times_ms_.push_back(now);
  while (frame_times_ms_.front() <= now - 1000) frame_times_ms_.pop_front();
}

// --- geometry --------------------------------------------------------------------------------

QRectF FieldView::plotArea() const {
  return QRectF(rect()).adjusted(kMargin, kMargin, -kBarAreaWidth, -kMargin);
}

QRectF FieldView::dataRect() const {
  const QRectF area = plotArea();
  const double pixels_per_metre = std::min(area.width() / packed_.w, area.height() / packed_.h) * zoom_;
  const QSizeF size(packed_.w * pixels_per_metre, packed_.h * pixels_per_metre);
  const QPointF centre = area.center() + pan_;
  return QRectF(centre - QPointF(0.5 * size.width(), 0.5 * size.height()), size);
}

QRectF FieldView::colourBarRect() const {
  const double left = width() - kBarAreaWidth + kMargin;
  return QRectF(left, kBarTop, kBarWidth, std::max(height() - kBarTop - kBarBottom, 1.0));
}

// Pixel y grows downwards, clip-space y upwards: the unit square's v = 0 is the rect's bottom.
QVector4D FieldView::transformFor(const QRectF& r) const {
  const double w = width(), h = height();
  return QVector4D(float(2.0 * r.width() / w), float(2.0 * r.height() / h), float(2.0 * r.left() / w - 1.0),
                   float(1.0 - 2.0 * r.bottom() / h));
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

void FieldView::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) drag_from_ = event->position();
}

void FieldView::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) drag_from_.reset();
}

void FieldView::mouseMoveEvent(QMouseEvent* event) {
  if (drag_from_ && (event->buttons() & Qt::LeftButton)) {
    pan_ += event->position() - *drag_from_;
    drag_from_ = event->position();
    update();
  }
  cursor_ = event->position();
  updateHover();
}

void FieldView::mouseDoubleClickEvent(QMouseEvent*) {
  zoom_ = 1.0;
  pan_ = {};
  updateHover();
  update();
}

// Zooms about the cursor: the point under it stays where it is.
void FieldView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  const double zoom = std::clamp(zoom_ * std::pow(2.0, steps / kWheelStepsPerDoubling), kMinZoom, kMaxZoom);
  const QPointF cursor = event->position();
  const QPointF centre = plotArea().center() + pan_;
  const QPointF new_centre = cursor - (cursor - centre) * (zoom / zoom_);
  pan_ = new_centre - plotArea().center();
  zoom_ = zoom;
  cursor_ = cursor;
  updateHover();
  update();
}

void FieldView::leaveEvent(QEvent*) {
  cursor_.reset();
  updateHover();
}

void FieldView::updateHover() {
  const QString text = cursor_ ? hoverTextAt(*cursor_) : QString();
  if (text == hover_text_) return;
  hover_text_ = text;
  emit hovered(text);
  update();  // the overlay shows it
}

QString FieldView::hoverTextAt(const QPointF& pos) {
  const PackedField& data = packed();
  const QRectF r = dataRect();
  if (data.kind == PackedField::Kind::None || !plotArea().contains(pos) || r.isEmpty()) return {};
  const double u = (pos.x() - r.left()) / r.width();
  const double v = (r.bottom() - pos.y()) / r.height();
  const std::optional<Sample> s = data.kind == PackedField::Kind::Image
                                      ? cellAt(data, u, v)
                                      : particleNear(data, u, v, r.size(), kHoverRadiusPx);
  if (!s) return {};
  const QString unit = QString::fromStdString(currentField()->desc.unit);
  return QString("x = %1 m, y = %2 m: %3 = %4%5")
      .arg(number(data.x0 + s->u * data.w), number(data.y0 + s->v * data.h), displayName(), number(s->value),
           unit.isEmpty() ? QString() : " " + unit);
}

}  // namespace ks::gui
