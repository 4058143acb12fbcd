#include "vtk_gl_widget.hpp"

#include <QFile>
#include <QOpenGLContext>
#include <cmath>

#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkOpenGLState.h>
#include <vtkPNGWriter.h>
#include <vtkWindowToImageFilter.h>

namespace ks::gui {

std::mutex& vtk_render_mutex() {
  static std::mutex m;
  return m;
}

VtkGlWidget::VtkGlWidget(QWidget* parent) : QOpenGLWidget(parent), window_(vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New()) {
  // VTK leaves alpha < 1 where it blends (grid, antialiased lines); QWidget::grab reads
  // the framebuffer as premultiplied ARGB and would garble those pixels. An opaque
  // framebuffer keeps window grabs equal to the screen.
  setTextureFormat(GL_RGB8);
}

VtkGlWidget::~VtkGlWidget() {
  // The context outlives this object: release VTK's GL objects now, and stop the
  // context's destruction from calling back into a half-destroyed object.
  if (context()) disconnect(context(), nullptr, this, nullptr);
  releaseGraphics();
}

bool VtkGlWidget::savePng(const QString& path) {
  if (!isValid()) return false;  // never shown: no context to render in
  makeCurrent();
  render();
  vtkNew<vtkWindowToImageFilter> grab;
  grab->SetInput(window_);
  grab->ShouldRerenderOff();            // read back the frame just rendered
  window_->SetReadyForRendering(true);  // the generic window refuses to read pixels otherwise
  grab->Update();
  window_->SetReadyForRendering(false);
  doneCurrent();
  update();  // the render above drew into the widget's framebuffer outside paintGL

  vtkNew<vtkPNGWriter> writer;
  writer->SetFileName(QFile::encodeName(path).constData());
  writer->SetInputConnection(grab->GetOutputPort());
  writer->Write();
  return writer->GetErrorCode() == 0;
}

void VtkGlWidget::initializeGL() {
  // A reparented QOpenGLWidget gets a new context: drop VTK's objects with the old one.
  connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, &VtkGlWidget::releaseGraphics, Qt::UniqueConnection);
  window_->SetOwnContext(false);
  window_->SetIsCurrent(true);  // Qt makes the context current before calling into VTK
  window_->SetFrameBlitModeToBlitToCurrent();
  window_->OpenGLInitContext();
}

void VtkGlWidget::resizeGL(int w, int h) {
  const qreal dpr = devicePixelRatioF();
  window_->SetSize(int(std::lround(w * dpr)), int(std::lround(h * dpr)));
}

void VtkGlWidget::paintGL() { render(); }

// Renders into VTK's framebuffer and blits the frame into the one Qt has bound;
// the widget's context must be current.
void VtkGlWidget::render() {
  // Qt binds its own framebuffer for the widget: VTK's state cache must learn about it.
  window_->GetState()->ResetFramebufferBindings();
  std::lock_guard lock(vtk_render_mutex());
  window_->SetReadyForRendering(true);
  window_->Render();
  window_->SetReadyForRendering(false);
}

void VtkGlWidget::releaseGraphics() {
  if (!isValid()) return;
  makeCurrent();
  window_->Finalize();
  doneCurrent();
}

}  // namespace ks::gui
