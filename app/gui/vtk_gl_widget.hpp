// A Qt 6 QOpenGLWidget that VTK renders into (the plot view; the 3D scene draws on a thread of its own).
// Debian's VTK Qt module is built for Qt 5, so VTK is embedded by hand through
// vtkGenericOpenGLRenderWindow (see shared/DESIGN.md, "Toolchain facts"): VTK renders into
// its own framebuffer and blits the frame into the widget's one in paintGL.
#pragma once

#include <QOpenGLWidget>
#include <QString>
#include <mutex>
#include <vtkSmartPointer.h>

class vtkGenericOpenGLRenderWindow;

namespace ks::gui {

// VTK draws text through one FreeType cache per process: a frame drawn on another thread (the 3D
// scene's) and one drawn here take turns.
std::mutex& vtk_render_mutex();

// Subclasses add their renderers (or a vtkContextView) to renderWindow() and call update()
// when the scene changed. No Q_OBJECT: it has no signals or slots of its own.
class VtkGlWidget : public QOpenGLWidget {
 public:
  explicit VtkGlWidget(QWidget* parent);
  ~VtkGlWidget() override;  // releases VTK's GL objects while the context still exists

  vtkGenericOpenGLRenderWindow* renderWindow() const { return window_; }

  // Renders a frame and writes it with vtkWindowToImageFilter + vtkPNGWriter; false when
  // the widget was never shown (no OpenGL context yet) or the file cannot be written.
  bool savePng(const QString& path);

 protected:
  void initializeGL() override;
  void resizeGL(int w, int h) override;
  void paintGL() override;

 private:
  void render();
  void releaseGraphics();

  vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
};

}  // namespace ks::gui
