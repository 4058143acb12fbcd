// Headless CUDA-OpenGL interop (no window, EGL): a GL buffer registered with CUDA receives a
// known device field device-to-device and reads back equal through glGetBufferSubData.
// Skips, saying why, without a CUDA device or an EGL display; run it on an NVIDIA machine.
#include <gtest/gtest.h>

#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <cuda_runtime.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/backend.hpp"
#include "core/registry.hpp"
#include "cuda_gl_buffer.hpp"
#include "methods/bgk/bgk_method.hpp"
#include "methods/coagulation/coagulation_method.hpp"
#include "run/runner.hpp"

namespace {

// An OpenGL context without a window: the default EGL display, else each EGL device in turn
// (NVIDIA's headless platform), the first that gives a desktop-GL 3.3 context wins.
struct HeadlessGl {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  std::string problem;

  HeadlessGl() {
    std::vector<EGLDisplay> candidates = {eglGetDisplay(EGL_DEFAULT_DISPLAY)};
    auto query = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    auto platform = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (query && platform && query(8, devices, &count))
      for (EGLint d = 0; d < count; ++d) candidates.push_back(platform(EGL_PLATFORM_DEVICE_EXT, devices[d], nullptr));
    for (EGLDisplay candidate : candidates)
      if (try_display(candidate)) return;
    problem = "no EGL display gave a desktop OpenGL 3.3 context (" + problem + ")";
  }

  bool try_display(EGLDisplay candidate) {
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

  ~HeadlessGl() {
    if (context != EGL_NO_CONTEXT) eglDestroyContext(display, context);
    if (display != EGL_NO_DISPLAY) eglTerminate(display);
  }
};

TEST(CudaGlInterop, DeviceFieldCopiedIntoAGlBufferReadsBackEqual) {
  const ks::CudaAvailability cuda = ks::query_cuda();
  if (!cuda.usable) GTEST_SKIP() << "CUDA-GL interop test skipped: " << cuda.reason;
  HeadlessGl gl;
  if (!gl.problem.empty()) GTEST_SKIP() << "CUDA-GL interop test skipped: " << gl.problem;
  std::printf("OpenGL %s on %s\n", reinterpret_cast<const char*>(glGetString(GL_VERSION)),
              reinterpret_cast<const char*>(glGetString(GL_RENDERER)));

  constexpr int kCount = 1 << 20;  // a 1024 x 1024 float field
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, kCount * sizeof(float), nullptr, GL_DYNAMIC_DRAW);
  ASSERT_EQ(glGetError(), GLenum(GL_NO_ERROR));

  float* field = nullptr;
  ASSERT_EQ(cudaMalloc(&field, kCount * sizeof(float)), cudaSuccess);
  cudaEvent_t ready;
  ASSERT_EQ(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), cudaSuccess);
  {
    ks::interop::CudaGlBuffer interop(buffer);
    // Two frames with different data: the registration is reused, every copy lands.
    for (int frame = 0; frame < 2; ++frame) {
      std::vector<float> known(kCount);
      for (int k = 0; k < kCount; ++k) known[k] = std::sin(0.001f * k) * (frame + 1) + 0.25f * frame;
      ASSERT_EQ(cudaMemcpy(field, known.data(), kCount * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
      ASSERT_EQ(cudaEventRecord(ready, nullptr), cudaSuccess);  // the producer's "snapshot ready"
      interop.copy_from_device(field, kCount * sizeof(float), ready);
      std::vector<float> back(kCount, -1.0f);
      glGetBufferSubData(GL_ARRAY_BUFFER, 0, kCount * sizeof(float), back.data());
      ASSERT_EQ(glGetError(), GLenum(GL_NO_ERROR));
      EXPECT_EQ(back, known) << "frame " << frame;  // bit-exact: a copy, no arithmetic
    }
    EXPECT_EQ(interop.copies(), 2u);
  }
  cudaEventDestroy(ready);
  cudaFree(field);
  glDeleteBuffers(1, &buffer);
}

// The whole zero-copy path but Qt: the Runner publishes aerosol.coagulation's particles in
// device memory, the view copies them into its GL buffer device-to-device, and what OpenGL
// holds equals the host snapshot of the same moment (positions and diameters as floats).
TEST(CudaGlInterop, RunnerPublishesTheCoagulationFieldForZeroCopyViews) {
  const ks::CudaAvailability cuda = ks::query_cuda();
  if (!cuda.usable) GTEST_SKIP() << "CUDA-GL interop test skipped: " << cuda.reason;
  HeadlessGl gl;
  if (!gl.problem.empty()) GTEST_SKIP() << "CUDA-GL interop test skipped: " << gl.problem;

  ks::ParamSet p(ks::coag::CoagulationMethod::static_info().params);
  p.set("n_s", std::int64_t(3000));
  p.set("n_runs", std::int64_t(2));
  p.set("t_end", 10.0);
  ks::RunnerOptions options;
  options.snapshot_interval = std::chrono::milliseconds(0);
  options.device_field = "diameter";
  ks::Runner runner(ks::builtin_registry().create("aerosol.coagulation"), p, ks::resolve_backend(ks::BackendRequest::Cuda),
                    options);
  ASSERT_TRUE(runner.wait_settled(std::chrono::seconds(60)));
  runner.step(5);
  ASSERT_TRUE(runner.wait_settled(std::chrono::seconds(60)));
  ASSERT_NE(runner.device_field(), nullptr);

  constexpr int kParticles = 3000;
  GLuint buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferData(GL_ARRAY_BUFFER, kParticles * 4 * sizeof(float), nullptr, GL_DYNAMIC_DRAW);
  std::uint64_t version = 0;
  {
    ks::interop::CudaGlBuffer interop(buffer);
    runner.device_field()->read([&](const ks::DeviceFieldView& view) {
      ASSERT_EQ(view.bytes, kParticles * 4 * sizeof(float));
      interop.copy_from_device(view.data, view.bytes);
      version = view.version;
    });
  }
  EXPECT_GE(version, 6u);  // setup and five iterations each published once
  std::vector<float> gl_values(kParticles * 4, -1.0f);
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, gl_values.size() * sizeof(float), gl_values.data());
  ASSERT_EQ(glGetError(), GLenum(GL_NO_ERROR));

  const auto snapshot = runner.snapshot();
  const ks::FieldData& diameter = snapshot->fields.at(0);
  ASSERT_EQ(diameter.desc.name, "diameter");
  for (int k = 0; k < kParticles; ++k) {
    for (int axis = 0; axis < 3; ++axis)
      ASSERT_EQ(gl_values[4 * k + axis], float(diameter.positions[k][axis])) << "particle " << k << " axis " << axis;
    ASSERT_EQ(gl_values[4 * k + 3], float(diameter.values[k])) << "particle " << k;
  }
  glDeleteBuffers(1, &buffer);
}

// The image path of the zero-copy view, but Qt: the Runner publishes kinetic.bgk's density
// (one float per cell) in device memory; it is copied device-to-device into a GL pixel buffer
// and unpacked from there into an R32F texture, as FieldView::copyDeviceImage does. The
// texture then holds the host snapshot's densities.
TEST(CudaGlInterop, RunnerPublishesTheBgkDensityIntoATextureThroughAPixelBuffer) {
  const ks::CudaAvailability cuda = ks::query_cuda();
  if (!cuda.usable) GTEST_SKIP() << "CUDA-GL interop test skipped: " << cuda.reason;
  HeadlessGl gl;
  if (!gl.problem.empty()) GTEST_SKIP() << "CUDA-GL interop test skipped: " << gl.problem;

  constexpr int kNx = 24, kNy = 20;
  ks::ParamSet p(ks::bgk::BgkMethod::static_info().params);
  p.set("case", ks::ParamValue(std::string("cavity")));
  p.set("nx", std::int64_t(kNx));
  p.set("ny", std::int64_t(kNy));
  p.set("nv", std::int64_t(8));
  p.set("vx_min", -3.0);
  p.set("vx_max", 3.0);
  p.set("vt_max", 3.0);
  p.set("dt", 0.01);
  p.set("lid_speed", 0.05);
  ks::RunnerOptions options;
  options.snapshot_interval = std::chrono::milliseconds(0);
  options.device_field = "n";
  ks::Runner runner(ks::builtin_registry().create("kinetic.bgk"), p, ks::resolve_backend(ks::BackendRequest::Cuda), options);
  ASSERT_TRUE(runner.wait_settled(std::chrono::seconds(60)));
  runner.step(3);
  ASSERT_TRUE(runner.wait_settled(std::chrono::seconds(60)));
  ASSERT_NE(runner.device_field(), nullptr);

  GLuint buffer = 0, texture = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, kNx * kNy * sizeof(float), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  {
    ks::interop::CudaGlBuffer interop(buffer);
    runner.device_field()->read([&](const ks::DeviceFieldView& view) {
      ASSERT_EQ(view.bytes, kNx * kNy * sizeof(float));
      interop.copy_from_device(view.data, view.bytes);
    });
  }
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, kNx, kNy, 0, GL_RED, GL_FLOAT, nullptr);  // from offset 0 of the buffer
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  std::vector<float> texels(kNx * kNy, -1.0f);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, texels.data());
  ASSERT_EQ(glGetError(), GLenum(GL_NO_ERROR));

  const auto snapshot = runner.snapshot();
  const ks::FieldData& n = snapshot->fields.at(0);
  ASSERT_EQ(n.desc.name, "n");
  ASSERT_EQ(n.values.size(), texels.size());
  for (std::size_t c = 0; c < texels.size(); ++c) ASSERT_EQ(texels[c], float(n.values[c])) << "cell " << c;
  glDeleteTextures(1, &texture);
  glDeleteBuffers(1, &buffer);
}

}  // namespace
