// The 3D scene drawn on a thread of its own. A frame of the packed bed's slices and 12753 spheres
// takes 70-150 ms under a software renderer (llvmpipe) beside a solver on 2 cores: drawn on the GUI
// thread (a QOpenGLWidget) it froze the window for as long at every snapshot and camera move. The
// renderer owns an OpenGL context current on its thread, draws the scene (scene_renderer.cpp) into a
// framebuffer of its own and hands each frame over as an image; the scene view (scene_view.hpp) posts
// what to show and the camera's moves and paints the newest image.
#pragma once

#include <QImage>
#include <QObject>
#include <QPointF>
#include <QSize>
#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/method.hpp"

class QOffscreenSurface;
class QOpenGLContext;
class QOpenGLFramebufferObject;
class QThread;

namespace ks::gui {

class ScenePicture;  // the VTK parts (scene_renderer.cpp)

// Whether the scene shows `field` as a volume (a 3D image of one component): what the iso-surface
// and the volume rendering need.
bool scene_volumetric(const FieldData& field);

// Lives on the scene's thread: every member but the constructor runs there (post them with
// QMetaObject::invokeMethod). Each change asks for a frame; the changes posted while a frame is
// drawn go into the next one, so a burst of camera moves costs one frame.
class SceneRenderer final : public QObject {
  Q_OBJECT
 public:
  // The surface is made on the GUI thread; the context, not yet created, moves to the renderer's
  // thread with it.
  SceneRenderer(QOpenGLContext* context, QOffscreenSurface* surface);
  ~SceneRenderer() override;

  // Makes the context on this thread at a lower priority than the GUI thread's (the software
  // renderer's threads are the context's, made now) and compiles the shader programs of every part
  // before a preset needs them.
  void prepare();
  // Field `field` of `snapshot`, with the packed bed's spheres among it where the snapshot has
  // them; a field that does not match its grid is shown as the message saying so.
  void showField(std::shared_ptr<const Snapshot> snapshot, std::size_t field);
  void showMessage(const std::string& text);
  void forgetObstacles();  // none drawn, none remembered (a new preset)
  void setIsoSurface(bool on);
  void setVolume(bool on);
  void turn(QPointF pixels);
  void zoom(double notches);
  void resetCamera();
  void resize(QSize pixels);
  // Hidden (another tab shown), changes wait for the next frame shown: no frame is drawn beside the
  // shown tab's.
  void setShown(bool shown);
  // The newest state drawn at once (screenshots); null when no context could be made current.
  QImage drawNow();
  // Frees the GL objects with the context current, then gives the context and this object to
  // `gui` (the thread that deletes them).
  void release(QThread* gui);

 signals:
  void frameReady(const QImage& frame);
  void unavailable();  // no context could be made

 private:
  void askForFrame();
  bool makeCurrent();
  // Makes the context current, applies a change to the picture and asks for a frame.
  template <class Change>
  void change(Change&& apply);

  QOpenGLContext* context_;
  QOffscreenSurface* surface_;
  std::unique_ptr<ScenePicture> picture_;
  std::unique_ptr<QOpenGLFramebufferObject> target_;  // the frame's pixels, read back into an image
  QSize size_;
  bool frame_asked_ = false;
  bool shown_ = false;
  bool frame_owed_ = false;  // a change came while hidden
  // The spheres the scene draws (centres, diameters); their glyphs are rebuilt only when these change.
  std::vector<std::array<double, 3>> obstacle_centres_;
  std::vector<double> obstacle_diameters_;
};

}  // namespace ks::gui
