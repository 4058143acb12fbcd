// The field view's OpenGL layers: an image field as a scalar texture on a quad, particles as a
// cloud of round points, and the colour bar as a ramp of the colour map; the shaders
// (shaders/image.*, shaders/points.*) map values to colours through a 1D colour map texture.
// Holds the programs, vertex arrays, buffers and textures of the view's context, and uploads the
// packed field from the host.
#pragma once

#include <QColor>
#include <QOpenGLFunctions_3_3_Core>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QVector4D>
#include <cstddef>
#include <memory>

class QOpenGLShaderProgram;

namespace ks::gui {

struct PackedField;
struct ValueRange;

// Particles in a vertex array of the zero-copy path (positions in metres); count 0: none.
struct DevicePoints {
  unsigned int vertex_array = 0;
  std::size_t count = 0;
};

class FieldLayers : protected QOpenGLFunctions_3_3_Core {
 public:
  FieldLayers();
  ~FieldLayers();  // the GL objects must be gone by then (destroy())
  FieldLayers(const FieldLayers&) = delete;
  FieldLayers& operator=(const FieldLayers&) = delete;

  // With the view's context current: resolves the OpenGL 3.3 functions, links the programs and
  // creates the buffers and textures. False, with a warning, when the functions or shaders fail.
  bool initialize();
  // With the context current: frees what initialize() made.
  void destroy();
  bool holdsPrograms() const;                     // initialize() made programs that destroy() has not freed
  bool ready() const { return ready_; }           // functions resolved and shaders linked
  QString renderer() const { return renderer_; }  // GL_RENDERER; empty before initialize()

  // No context needed: these take effect at the next upload.
  void setColormap(const QString& name);  // one of colormap_names(); others give viridis
  QString colormap() const { return colormap_; }
  void markFieldStale() { field_stale_ = true; }     // the packed field is newer than the GPU's copy
  int hostUploads() const { return host_uploads_; }  // host-to-GPU uploads of field data so far

  // With the context current, while painting:
  void uploadColormapIfStale();
  void uploadFieldIfStale(const PackedField& data);
  // The field texture (GL_R32F) from `pixels`: a host pointer, or an offset into the bound pixel
  // buffer. Reallocated only when the size changes.
  void setFieldTexture(int width, int height, const void* pixels);
  bool fieldTextureAllocated() const { return texture_width_ > 0; }
  // Sets the state the layers rely on for a widget of `size` (logical pixels, `dpr` device pixels
  // each) and clears it to `background`.
  void beginFrame(QSize size, qreal dpr, const QColor& background);
  // The data's unit square drawn over `data_rect` (widget pixels), clipped to `clip`: the image
  // from the field texture, particles from `device` when it holds any, else from the host upload.
  void drawField(const PackedField& data, const QRectF& data_rect, const QRectF& clip, const ValueRange& range, bool log,
                 const DevicePoints& device);
  // The colour map itself over `bar`, by the image shader in ramp mode: exactly the colours the
  // field uses.
  void drawColourRamp(const QRectF& bar, const ValueRange& range, bool log);

 private:
  bool createPrograms();
  void createBuffers();
  void setColourUniforms(QOpenGLShaderProgram& program, const ValueRange& range, bool log);
  QVector4D transformFor(const QRectF& pixel_rect) const;  // unit square -> clip space

  bool ready_ = false;
  QString renderer_;
  QString colormap_ = "viridis";
  bool colormap_stale_ = true;  // the colour map texture is stale
  bool field_stale_ = false;    // the packed field is newer than the GPU's copy
  int host_uploads_ = 0;
  QSize frame_size_;  // of the frame being drawn, logical pixels
  qreal dpr_ = 1.0;

  // GL objects, valid between initialize() and destroy().
  std::unique_ptr<QOpenGLShaderProgram> image_program_;
  std::unique_ptr<QOpenGLShaderProgram> points_program_;
  GLuint quad_vao_ = 0, quad_vbo_ = 0;
  GLuint points_vao_ = 0, points_vbo_ = 0;
  GLuint field_texture_ = 0, colormap_texture_ = 0;
  int texture_width_ = 0, texture_height_ = 0;  // the field texture's allocated size
};

}  // namespace ks::gui
