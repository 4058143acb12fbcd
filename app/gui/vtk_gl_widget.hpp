// A Qt 6 QOpenGLWidget that VTK renders into, shared by the VTK views (plot, scene).
// Debian's VTK Qt module is built for Qt 5, so VTK is embedded by hand through
// vtkGenericOpenGLRenderWindow (see shared/DESIGN.md, "Toolchain facts"): VTK renders into
// its own framebuffer and blits the frame into the widget's one in paintGL.
#pragma once

#include <QOpenGLWidget>
#include <QString>
#include <vtkSmartPointer.h>

class vtkGenericOpenGLRenderWindow;

namespace ks::gui {

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
  // Renders into VTK's framebuffer and blits the frame into the one Qt has bound; the widget's
  // context must be current (as in paintGL).
  void render();

 private:
  void releaseGraphics();

  vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
};

}  // namespace ks::gui
