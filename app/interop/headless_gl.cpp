#include "headless_gl.hpp"

#include <EGL/eglext.h>

#include <vector>

namespace ks::interop {

HeadlessGl::HeadlessGl() {
  std::vector<EGLDisplay> candidates = {eglGetDisplay(EGL_DEFAULT_DISPLAY)};
  auto query = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto platform = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDeviceEXT devices[8];
  EGLint count = 0;
  if (query && platform && query(8, devices, &count))
    for (EGLint d = 0; d < count; ++d) candidates.push_back(platform(EGL_PLATFORM_DEVICE_EXT, devices[d], nullptr));
  for (EGLDisplay candidate : candidates)
    if (tryDisplay(candidate)) return;
  problem = "no EGL display gave a desktop OpenGL 3.3 context (" + problem + ")";
}

bool HeadlessGl::tryDisplay(EGLDisplay candidate) {
  EGLint major = 0, minor = 0;
  if (candidate == EGL_NO_DISPLAY || !eglInitialize(candidate, &major, &minor)) {
    problem = "eglInitialize failed";
    return false;
  }
  // Headless: pbuffer configs (the default surface type, window, does not exist here).
  const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config;
  EGLint configs = 0;
  if (!eglBindAPI(EGL_OPENGL_API) || !eglChooseConfig(candidate, config_attribs, &config, 1, &configs) || configs < 1) {
    problem = "no EGL config for desktop OpenGL";
    eglTerminate(candidate);
    return false;
  }
  const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3, EGL_NONE};
  const EGLContext created = eglCreateContext(candidate, config, EGL_NO_CONTEXT, context_attribs);
  // Surfaceless (EGL_KHR_surfaceless_context): buffer objects need no framebuffer.
  if (created == EGL_NO_CONTEXT || !eglMakeCurrent(candidate, EGL_NO_SURFACE, EGL_NO_SURFACE, created)) {
    problem = "cannot make a surfaceless OpenGL 3.3 context current";
    if (created != EGL_NO_CONTEXT) eglDestroyContext(candidate, created);
    eglTerminate(candidate);
    return false;
  }
  display = candidate;
  context = created;
  return true;
}

HeadlessGl::~HeadlessGl() {
  if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
  if (display != EGL_NO_DISPLAY) eglTerminate(display);
}

}  // namespace ks::interop
