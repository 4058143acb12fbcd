// The field view: one field of the latest snapshot drawn with OpenGL 3.3 core. Image fields
// (2D, or a slice of 3D) become a scalar texture on a quad, particle fields a cloud of
// round points; the shaders (shaders/image.*, shaders/points.*) map values to colours.
// A QPainter overlay draws the axes (ticks, names and units) and labels the colour bar; a Dear ImGui overlay
// (imgui_overlay.hpp) shows the frame and simulation rates and the value under the cursor. With the CUDA backend, the field the Runner
// keeps in device memory is drawn zero-copy (app/interop/zero_copy_buffer.hpp): particles from a vertex buffer, images through a pixel
// buffer into the field texture; no host upload. The widget composes the parts, each in its own file: the shown field and its packed values
// (shown_field.hpp, packed_field.hpp), the value-to-colour scale (colour_scale.hpp), the GL layers
// (field_layers.hpp), the layout and colour bar labels (colour_bar.hpp), pan, zoom and hover
// (field_interaction.hpp), the zero-copy feed (device_field_feed.hpp) and the frame rate
// (frame_rate.hpp).
#pragma once

#include <QOpenGLWidget>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "colour_scale.hpp"
#include "core/method.hpp"
#include "core/param.hpp"
#include "device_field_feed.hpp"
#include "field_interaction.hpp"
#include "field_layers.hpp"
#include "frame_rate.hpp"
#include "paint_times.hpp"
#include "shown_field.hpp"

namespace ks {
class DeviceFieldPublisher;
}

namespace ks::gui {

class ImGuiOverlay;

class FieldView : public QOpenGLWidget {
  Q_OBJECT
 public:
  explicit FieldView(QWidget* parent = nullptr);
  ~FieldView() override;  // frees the GL objects in the widget's context

  // Keeps the snapshot; its data is packed and uploaded at the next paint.
  void showSnapshot(std::shared_ptr<const ks::Snapshot> snapshot);
  // Back to a new view's state for another preset: no snapshot, no wished-for field, the
  // magnitude of vectors, the whole plane of 2D fields (3D ones at the plane setSlice gives next),
  // automatic linear colour range, no pan or zoom. The colour map, a user's preference, stays.
  void resetForPreset();
  // The zero-copy path (CUDA builds): `source` (the Runner's device_field(), which must outlive
  // this use or be replaced first) publishes a field in device memory. Paints copy it
  // device-to-device into a GL buffer and draw from it, and the host uploads nothing. When the
  // shown field or component is not the one published, the view emits deviceSelectionWanted and
  // keeps its picture until the Runner publishes it; where the method cannot write a selection,
  // the host snapshot is uploaded. Null: host snapshots only.
  void setDeviceField(const ks::DeviceFieldPublisher* source);
  // Drawn instead of "no field" while there is none (a set-up's stage); empty for "no field".
  void setWaitingMessage(const QString& text) {
    if (text == waiting_) return;
    waiting_ = text;
    update();
  }
  // A field of the snapshot. A name the snapshot lacks is kept as the wish, and the first
  // field is shown meanwhile.
  void setField(const QString& name);
  // Vector fields: -1 = magnitude (default), else that component.
  void setComponent(int c);
  void setColormap(const QString& name);  // one of colormap_names(); others give viridis
  QString colormap() const { return layers_.colormap(); }
  void setLogScale(bool on);            // values <= 0 take the low end
  void setAutoRange(bool on);           // on: min/max of the shown values (default)
  void setRange(double lo, double hi);  // used when auto range is off
  void setSlice(SlicePlane plane);      // 3D image fields: the plane shown (its index clamped)
  // The simulation's rates for the overlay: iterations and work (in `work_unit`) per second.
  void setSimulationRate(double iterations_per_s, double work_per_s, const QString& work_unit);
  // The plotted series against its reference, shown in the overlay ("d_g: 1.2 % from sectional").
  void setComparison(const QString& text);

  QStringList fieldNames() const;
  QString field() const;           // the field shown; empty without one
  double framesPerSecond() const;  // paints over the last second
  // Scripts: each paint waits for the GPU and is timed (interactive paints do not wait).
  void timePaints(bool on) { time_paints_ = on; }
  const PaintTimes& paintTimes() const { return paint_times_; }  // how long each timed paint took
  int hostUploads() const;                                       // host-to-GPU uploads of field data so far
  int deviceCopies() const;                                      // device-to-device copies of field data so far (zero-copy path)
  QString glRenderer() const;                                    // GL_RENDERER of the view's context; empty before it exists
  // The view as drawn; the ImGui status line (frame and simulation rates) only `with_rates`.
  QImage grabImage(bool with_rates = false);

 signals:
  // "x = …, y = …: <field> = <value> <unit>" under the cursor; empty when outside the data.
  void hovered(const QString& text);
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
  void shownValuesChanged();    // the hover text and the picture follow
  const PackedField& packed();  // packs the shown values first when they changed
  QRectF dataRect() const;      // where the data's unit square lies, in widget pixels

  void paint();                                                        // paintGL's work, timed by paintGL
  void cleanup();                                                      // frees the GL objects of the widget's context
  void drawOverlay(const PackedField& data, const ValueRange& range);  // axes, colour bar labels, ImGui
  void drawImGuiOverlay();
  void drawCentredMessage(const QString& text);
  void preparePainter();  // once per context: see field_view.cpp
  bool painter_prepared_ = false;
  QString waiting_;                      // shown instead of "no field" while a set-up runs
  bool grabbing_without_rates_ = false;  // a screenshot's frame is being drawn
  QString hoverTextAt(const QPointF& pos);
  void updateHover();

  ShownField shown_;
  ColourScale colour_scale_;
  FieldLayers layers_;  // its GL objects live between initializeGL() and cleanup()
  DeviceFieldFeed device_feed_;
  FieldInteraction interaction_;
  QString hover_text_;
  QString comparison_;

  FrameRate frame_rate_;
  bool time_paints_ = false;
  PaintTimes paint_times_;
  double iterations_per_s_ = 0.0, work_per_s_ = 0.0;
  QString work_unit_;
  std::unique_ptr<ImGuiOverlay> overlay_;  // its GL objects live with the layers'
};

}  // namespace ks::gui
