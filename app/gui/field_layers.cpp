#include "field_layers.hpp"

#include <QOpenGLShaderProgram>
#include <QtDebug>
#include <array>
#include <vector>

#include "colormaps.hpp"
#include "colour_scale.hpp"
#include "packed_field.hpp"

namespace ks::gui {

namespace {

constexpr double kPointSizePx = 6.0;  // a mid-range particle's disc (shaders/points.vert sizes by value)
constexpr int kColormapTexels = 256;

static_assert(sizeof(std::array<float, 3>) == 3 * sizeof(float), "colour tables upload as packed RGB");

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

FieldLayers::FieldLayers() = default;

FieldLayers::~FieldLayers() = default;

// --- OpenGL resources ----------------------------------------------------------------------

bool FieldLayers::initialize() {
  if (!initializeOpenGLFunctions()) {
    qWarning() << "FieldView: OpenGL 3.3 core functions unavailable; the view stays empty";
    return false;
  }
  renderer_ = QString::fromLatin1(reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  ready_ = createPrograms();
  if (!ready_) return false;
  createBuffers();
  colormap_stale_ = true;
  field_stale_ = true;
  return true;
}

bool FieldLayers::createPrograms() {
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

void FieldLayers::createBuffers() {
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
  glEnableVertexAttribArray(0);  // position (u, v), then value: as pack_field writes them
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

void FieldLayers::destroy() {
  if (ready_) {
    const GLuint vaos[] = {quad_vao_, points_vao_};
    const GLuint buffers[] = {quad_vbo_, points_vbo_};
    const GLuint textures[] = {field_texture_, colormap_texture_};
    glDeleteVertexArrays(2, vaos);
    glDeleteBuffers(2, buffers);
    glDeleteTextures(2, textures);
    quad_vao_ = quad_vbo_ = points_vao_ = points_vbo_ = field_texture_ = colormap_texture_ = 0;
  }
  image_program_.reset();
  points_program_.reset();
  ready_ = false;
}

bool FieldLayers::holdsPrograms() const { return image_program_ || points_program_; }

// --- uploads -------------------------------------------------------------------------------

void FieldLayers::setColormap(const QString& name) {
  colormap_ = colormap_names().contains(name) ? name : colormap_names().front();
  colormap_stale_ = true;
}

void FieldLayers::uploadColormapIfStale() {
  if (!colormap_stale_) return;
  const std::vector<std::array<float, 3>> table = colormap_table(colormap_, kColormapTexels);
  glBindTexture(GL_TEXTURE_1D, colormap_texture_);
  glTexImage1D(GL_TEXTURE_1D, 0, GL_RGB32F, GLsizei(table.size()), 0, GL_RGB, GL_FLOAT, table.data());
  colormap_stale_ = false;
}

void FieldLayers::uploadFieldIfStale(const PackedField& data) {
  if (!field_stale_) return;
  field_stale_ = false;
  if (data.kind == PackedField::Kind::Image) {
    setFieldTexture(data.width, data.height, data.data.data());
    ++host_uploads_;
  } else if (data.kind == PackedField::Kind::Particles) {
    glBindBuffer(GL_ARRAY_BUFFER, points_vbo_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(data.data.size() * sizeof(float)), data.data.data(), GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    ++host_uploads_;
  }
}

void FieldLayers::setFieldTexture(int width, int height, const void* pixels) {
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

// --- drawing -------------------------------------------------------------------------------

void FieldLayers::beginFrame(QSize size, qreal dpr, const QColor& background) {
  frame_size_ = size;
  dpr_ = dpr;
  // QPainter (the overlay of the previous frame) leaves its own state: set what we rely on.
  glViewport(0, 0, GLsizei(size.width() * dpr), GLsizei(size.height() * dpr));
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glClearColor(background.redF(), background.greenF(), background.blueF(), 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

void FieldLayers::setColourUniforms(QOpenGLShaderProgram& program, const ValueRange& range, bool log) {
  program.setUniformValue("u_lo", GLfloat(range.lo));
  program.setUniformValue("u_hi", GLfloat(range.hi));
  program.setUniformValue("u_log", GLint(log ? 1 : 0));
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_1D, colormap_texture_);
}

void FieldLayers::drawField(const PackedField& data, const QRectF& data_rect, const QRectF& clip, const ValueRange& range, bool log,
                            const DevicePoints& device) {
  glEnable(GL_SCISSOR_TEST);
  glScissor(GLint(clip.left() * dpr_), GLint((frame_size_.height() - clip.bottom()) * dpr_), GLsizei(clip.width() * dpr_),
            GLsizei(clip.height() * dpr_));

  const QVector4D transform = transformFor(data_rect);
  if (data.kind == PackedField::Kind::Image) {
    image_program_->bind();
    setColourUniforms(*image_program_, range, log);
    image_program_->setUniformValue("u_transform", transform);
    image_program_->setUniformValue("u_ramp", GLint(0));
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, field_texture_);
    glBindVertexArray(quad_vao_);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  } else {
    // Host uploads are in the unit square already; the zero-copy buffer holds the grid's units.
    const bool from_device = device.count > 0;
    const QVector4D box =
        from_device ? QVector4D(float(data.x0), float(data.y0), float(data.w), float(data.h)) : QVector4D(0.0f, 0.0f, 1.0f, 1.0f);
    points_program_->bind();
    setColourUniforms(*points_program_, range, log);
    points_program_->setUniformValue("u_data_box", box);
    points_program_->setUniformValue("u_transform", transform);
    points_program_->setUniformValue("u_point_size", GLfloat(kPointSizePx * dpr_));
    glBindVertexArray(from_device ? device.vertex_array : points_vao_);
    glDrawArrays(GL_POINTS, 0, GLsizei(from_device ? device.count : std::size_t(data.width)));
  }
  glBindVertexArray(0);
  glDisable(GL_SCISSOR_TEST);
}

void FieldLayers::drawColourRamp(const QRectF& bar, const ValueRange& range, bool log) {
  image_program_->bind();
  setColourUniforms(*image_program_, range, log);
  image_program_->setUniformValue("u_transform", transformFor(bar));
  image_program_->setUniformValue("u_ramp", GLint(1));
  glBindVertexArray(quad_vao_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  image_program_->release();
}

// Pixel y grows downwards, clip-space y upwards: the unit square's v = 0 is the rect's bottom.
QVector4D FieldLayers::transformFor(const QRectF& r) const {
  const double w = frame_size_.width(), h = frame_size_.height();
  return QVector4D(float(2.0 * r.width() / w), float(2.0 * r.height() / h), float(2.0 * r.left() / w - 1.0),
                   float(1.0 - 2.0 * r.bottom() / h));
}

}  // namespace ks::gui
