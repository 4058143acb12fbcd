// The scene view: one field of the latest snapshot as a 3D VTK scene. Particles are
// spheres coloured by the field inside their box's outline; 3D image fields are three
// orthogonal slices through the centre (optionally an iso-surface at the mean value, and a
// volume rendering instead of the slices), 2D image fields one plane; a packed bed's spheres are
// drawn translucent among them. Orientation axes and a colour bar with the
// field's name and unit; the mouse turns (left drag) and zooms (wheel) the camera.
#pragma once

#include <QString>
#include <QTimer>
#include <QWidget>
#include <array>
#include <memory>
#include <vector>

#include "core/method.hpp"
#include "snapshot_throttle.hpp"

class QCheckBox;

namespace ks::gui {

class SceneCanvas;  // the OpenGL widget that hosts the VTK scene (scene_view.cpp)

class SceneView : public QWidget {
  Q_OBJECT
 public:
  explicit SceneView(QWidget* parent = nullptr);
  ~SceneView() override;

  // Latest snapshot; redraws at most every 250 ms (keep the newest, drop intermediate ones)
  // so a fast simulation never floods the GUI thread.
  void showSnapshot(std::shared_ptr<const ks::Snapshot> snapshot);
  // Back to a new view's state for another preset: no snapshot or wanted field, no iso-surface
  // or volume rendering, no obstacles; the camera frames the next data afresh.
  void resetForPreset();
  // Which field to show. A name the snapshot lacks is kept as the wish (the first field is
  // shown meanwhile), so a preset's default view can be set before its first snapshot.
  void setField(const QString& name);
  // Renders the scene with vtkWindowToImageFilter + vtkPNGWriter; false when the view was
  // never shown (no OpenGL context yet) or the file cannot be written.
  bool saveScreenshot(const QString& png_path);

 protected:
  // Hidden (another tab shown), the view converts and draws nothing; shown, the newest snapshot.
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;

 private:
  const ks::FieldData* shownField() const;
  const ks::FieldData* obstaclesFor(const ks::FieldData& shown) const;
  void updateObstacles(const ks::FieldData& shown);
  void forgetObstacles();  // none drawn, none remembered
  void redraw();

  QCheckBox* iso_surface_;
  QCheckBox* volume_;
  SceneCanvas* canvas_;

  SnapshotThrottle snapshots_;
  QString wanted_;  // the field asked for (setField)
  // The spheres the scene draws (centres, diameters); empty: none.
  std::vector<std::array<double, 3>> obstacle_centres_;
  std::vector<double> obstacle_diameters_;
};

}  // namespace ks::gui
