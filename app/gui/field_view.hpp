// The field view: one field of the latest snapshot drawn with OpenGL 3.3 core. Image fields
// (2D, or a z slice of 3D) become a scalar texture on a quad, particle fields a cloud of
// round points; the shaders (shaders/image.*, shaders/points.*) map values to colours.
// A QPainter overlay labels the colour bar (ticks, units); a Dear ImGui overlay
// (imgui_overlay.hpp) shows the frame and simulation rates, the value under the cursor and
// the method's quick parameters as sliders. With the CUDA backend, the field the Runner keeps
// in device memory is drawn zero-copy (app/interop/zero_copy_buffer.hpp): particles from a vertex buffer,
// images through a pixel buffer into the field texture; no host upload.
#pragma once

#include <QElapsedTimer>
#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLWidget>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QVector4D>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <vector>

#include "core/method.hpp"
#include "core/param.hpp"

class QOpenGLShaderProgram;
class QPainter;

namespace ks {
class DeviceFieldPublisher;
}
namespace ks::interop {
class ZeroCopyBuffer;
class ZeroCopyParticles;
}  // namespace ks::interop

namespace ks::gui {

class ImGuiOverlay;

// The shown values of one field on the host, as uploaded to the GPU: what auto range, the
// overlay and the hover text read.
struct PackedField {
  enum class Kind { None, Image, Particles };
  Kind kind = Kind::None;
  int width = 0;   // Image: cells along x; Particles: particle count
  int height = 0;  // Image: cells along y; Particles: 1
  // Image: one scalar per cell, row-major from the lowest y.
  // Particles: (x, y, value) per particle, x and y in [0, 1] over the rectangle below.
  std::vector<float> data;
  // The data's rectangle in metres, y up: lower corner (x0, y0), size w x h. It is the unit
  // square that the shaders place on screen.
  double x0 = 0.0, y0 = 0.0, w = 1.0, h = 1.0;
  // Over the finite values: min, max and the smallest positive one (0 if none).
  double min = 0.0, max = 0.0, min_positive = 0.0;
};

class FieldView : public QOpenGLWidget, protected QOpenGLFunctions_3_3_Core {
  Q_OBJECT
 public:
  explicit FieldView(QWidget* parent = nullptr);
  ~FieldView() override;  // frees the GL objects in the widget's context

  // Keeps the snapshot; its data is packed and uploaded at the next paint.
  void showSnapshot(std::shared_ptr<const ks::Snapshot> snapshot);
  // The zero-copy path (CUDA builds): `source` (the Runner's device_field(), which must outlive
  // this use or be replaced first) publishes a field in device memory. Paints copy it
  // device-to-device into a GL buffer and draw from it, and the host uploads nothing. When the
  // shown field or component is not the one published, the view emits deviceSelectionWanted and
  // keeps its picture until the Runner publishes it; where the method cannot write a selection,
  // the host snapshot is uploaded. Null: host snapshots only.
  void setDeviceField(const ks::DeviceFieldPublisher* source);
  // A field of the snapshot. A name the snapshot lacks is kept as the wish, and the first
  // field is shown meanwhile.
  void setField(const QString& name);
  // Vector fields: -1 = magnitude (default), else that component.
  void setComponent(int c);
  void setColormap(const QString& name);  // one of colormap_names(); others give viridis
  QString colormap() const { return colormap_; }
  void setLogScale(bool on);              // values <= 0 take the low end
  void setAutoRange(bool on);             // on: min/max of the shown values (default)
  void setRange(double lo, double hi);    // used when auto range is off
  void setSlice(int z);                   // 3D image fields: the z slice shown (clamped)
  // The simulation's rates for the overlay: iterations and work (in `work_unit`) per second.
  void setSimulationRate(double iterations_per_s, double work_per_s, const QString& work_unit);
  // The overlay's sliders: one per spec that is quick and live, at its value in `values`.
  void setQuickParameters(const std::vector<ks::ParamSpec>& specs, const ks::ParamSet& values);
  void showValues(const ks::ParamSet& values);  // the values the simulation runs with

  QStringList fieldNames() const;
  QString field() const;           // the field shown; empty without one
  double framesPerSecond() const;  // paints over the last second
  int hostUploads() const;         // host-to-GPU uploads of field data so far
  int deviceCopies() const;        // device-to-device copies of field data so far (zero-copy path)
  QString glRenderer() const;      // GL_RENDERER of the view's context; empty before it exists
  QImage grabImage();              // the view as drawn, overlay included

 signals:
  // "x = …, y = …: <field> = <value> <unit>" under the cursor; empty when outside the data.
  void hovered(const QString& text);
  // A quick slider set a new value (on release, or at most every 200 ms while dragged).
  void quickParameterChanged(const QString& key, const ks::ParamValue& value);
  // The zero-copy path needs the Runner to publish this field and component (Runner::show_on_device).
  void deviceSelectionWanted(const QString& field, int component);

 protected:
  bool event(QEvent* event) override;  // input goes to the ImGui overlay first
  void initializeGL() override;
  void paintGL() override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  struct Range {
    double lo = 0.0;
    double hi = 1.0;
  };

  const ks::FieldData* currentField() const;
  QString displayName() const;  // the field's name with the component: "u", "u[0]", "|u|"
  void markDataChanged();       // the shown values must be packed and uploaded again
  const PackedField& packed();  // packs the shown values first when they changed
  Range displayRange() const;   // the values mapped to the colour map's ends

  bool createPrograms();
  void createBuffers();
  void cleanup();
  void uploadColormap();
  void uploadPacked();
  void setFieldTexture(int width, int height, const void* pixels);
  const ks::FieldData* deviceFieldShown(ks::Grid::Kind kind) const;
  bool awaitDeviceSelection(const ks::FieldData& f);
  void turnOffZeroCopy(const std::exception& e);
  std::size_t copyDeviceParticles();
  bool copyDeviceImage();
  void drawField(const Range& range);
  void drawColourBar(const Range& range);
  void setColourUniforms(QOpenGLShaderProgram& program, const Range& range);
  void drawOverlay(const Range& range);
  void drawColourBarLabels(QPainter& painter, const Range& range);
  void drawImGuiOverlay();
  void drawCentredMessage(const QString& text);

  QRectF plotArea() const;  // the widget minus margins and the colour bar
  QRectF dataRect() const;  // where the data's unit square lies, in widget pixels
  QRectF colourBarRect() const;
  QVector4D transformFor(const QRectF& pixel_rect) const;  // unit square -> clip space
  QString hoverTextAt(const QPointF& pos);
  void updateHover();
  void recordFrame();

  std::shared_ptr<const ks::Snapshot> snapshot_;
  QString wanted_field_;
  int component_ = -1;
  QString colormap_ = "viridis";
  bool log_scale_ = false;
  bool auto_range_ = true;
  Range manual_range_;
  int slice_ = 0;

  PackedField packed_;
  bool pack_dirty_ = false;     // the shown values changed: repack
  bool upload_dirty_ = false;   // packed_ is newer than the GPU's copy
  bool colormap_dirty_ = true;  // the colour map texture is stale
  int host_uploads_ = 0;
  int device_copies_ = 0;

  // The zero-copy path; device_particles_ > 0 when this frame draws from zero_copy_.
  const ks::DeviceFieldPublisher* device_source_ = nullptr;
  QString requested_field_;  // the selection last asked of the Runner, and when
  int requested_component_ = -1;
  QElapsedTimer requested_at_;
  // shared_ptr: destructible where ZeroCopyParticles' implementation is absent (CPU-only builds)
  std::shared_ptr<ks::interop::ZeroCopyParticles> zero_copy_;
  std::shared_ptr<ks::interop::ZeroCopyBuffer> zero_copy_image_;  // the pixel buffer of the image path
  std::size_t device_particles_ = 0;

  // View: the data fitted into plotArea(), scaled by zoom_ about its centre, moved by pan_.
  double zoom_ = 1.0;
  QPointF pan_;  // widget pixels
  std::optional<QPointF> drag_from_;
  std::optional<QPointF> cursor_;
  QString hover_text_;

  QElapsedTimer clock_;
  std::deque<qint64> frame_times_ms_;  // paints within the last second
  double iterations_per_s_ = 0.0, work_per_s_ = 0.0;
  QString work_unit_;
  std::unique_ptr<ImGuiOverlay> overlay_;  // its GL objects live with those below

  // GL objects, valid between initializeGL() and cleanup().
  bool gl_ready_ = false;  // functions resolved and shaders linked
  QString gl_renderer_;
  std::unique_ptr<QOpenGLShaderProgram> image_program_;
  std::unique_ptr<QOpenGLShaderProgram> points_program_;
  GLuint quad_vao_ = 0, quad_vbo_ = 0;
  GLuint points_vao_ = 0, points_vbo_ = 0;
  GLuint field_texture_ = 0, colormap_texture_ = 0;
  int texture_width_ = 0, texture_height_ = 0;  // the field texture's allocated size
};

}  // namespace ks::gui
