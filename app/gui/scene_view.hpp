// The scene view: one field of the latest snapshot as a 3D VTK scene. Particles are
// spheres coloured by the field inside their box's outline; 3D image fields are three
// orthogonal slices through the centre (optionally an iso-surface at the mean value, and a
// volume rendering instead of the slices), 2D image fields one plane; a packed bed's spheres are
// drawn translucent among them. Orientation axes and a colour bar with the
// field's name and unit; the mouse turns (left drag) and zooms (wheel) the camera.
// The scene is drawn on a thread of its own (scene_renderer.hpp); this widget posts what to show
// and the mouse's moves there and paints the frames that come back.
#pragma once

#include <QImage>
#include <QString>
#include <QThread>
#include <QWidget>
#include <memory>

#include "core/method.hpp"
#include "snapshot_throttle.hpp"

class QCheckBox;
class QOffscreenSurface;
class QOpenGLContext;

namespace ks::gui {

class SceneFrame;  // the widget that paints the renderer's frames (scene_view.cpp)
class SceneRenderer;

class SceneView : public QWidget {
  Q_OBJECT
 public:
  explicit SceneView(QWidget* parent = nullptr);
  ~SceneView() override;

  // Latest snapshot; redraws at most every 250 ms (keep the newest, drop intermediate ones)
  // so a fast simulation never floods the renderer.
  void showSnapshot(std::shared_ptr<const ks::Snapshot> snapshot);
  // Back to a new view's state for another preset: no snapshot or wanted field, no iso-surface
  // or volume rendering, no obstacles; the camera frames the next data afresh.
  void resetForPreset();
  // Which field to show. A name the snapshot lacks is kept as the wish (the first field is
  // shown meanwhile), so a preset's default view can be set before its first snapshot.
  void setField(const QString& name);
  // Draws the newest snapshot at the view's size and writes it as a PNG; false when no OpenGL
  // context could be made for the scene or the file cannot be written.
  bool saveScreenshot(const QString& png_path);

 protected:
  // Hidden (another tab shown), the view converts and draws nothing; shown, the newest snapshot.
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;

 private:
  // Runs `call` on the renderer's thread; `wait` until it has run.
  template <class Call>
  void post(Call&& call, bool wait = false);
  void redraw();

  QCheckBox* iso_surface_;
  QCheckBox* volume_;
  SceneFrame* frame_;

  std::unique_ptr<QOpenGLContext> context_;
  std::unique_ptr<QOffscreenSurface> surface_;
  std::unique_ptr<SceneRenderer> renderer_;
  QThread render_thread_;

  SnapshotThrottle snapshots_;
  QString wanted_;  // the field asked for (setField)
};

}  // namespace ks::gui
