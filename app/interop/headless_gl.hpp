// An OpenGL 3.3 context without a window (EGL, surfaceless): the default EGL display, else each
// EGL device in turn (NVIDIA's headless platform); the first that gives a desktop-GL 3.3 context
// wins. For the interop tests and the live-view benchmark on machines without a display.
#pragma once

#include <EGL/egl.h>

#include <string>

namespace ks::interop {

struct HeadlessGl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  std::string problem;  // why there is no context; empty when it is current

  HeadlessGl();  // makes the context current on this thread
  ~HeadlessGl();
  HeadlessGl(const HeadlessGl&) = delete;
  HeadlessGl& operator=(const HeadlessGl&) = delete;

 private:
  bool tryDisplay(EGLDisplay candidate);
};

}  // namespace ks::interop
