// Headless CUDA-OpenGL interop (no window, EGL): a GL buffer registered with CUDA receives a
// known device field device-to-device and reads back equal through glGetBufferSubData.
// Skips, saying why, without a CUDA device or an EGL display; run it on an NVIDIA machine.
#include <gtest/gtest.h>

#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/backend.hpp"
#include "core/registry.hpp"
#include "cuda_gl_buffer.hpp"
#include "zero_copy_buffer.hpp"
#include "zero_copy_particles.hpp"
#include "headless_gl.hpp"
#include "methods/bgk/bgk_method.hpp"
#include "methods/coagulation/coag_method.hpp"
#include "methods/dvm/dvm_method.hpp"
#include "run/runner.hpp"

namespace {

using ks::interop::HeadlessGl;

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

// A Runner on the CUDA backend that keeps `device_field` of its method in device memory, set up
// and advanced `steps` iterations.
std::unique_ptr<ks::Runner> cuda_runner(const std::string& method, const ks::ParamSet& params, const std::string& device_field, int steps) {
  ks::RunnerOptions options;
  options.snapshot_interval = std::chrono::milliseconds(0);
  options.device_field = device_field;
  auto runner =
      std::make_unique<ks::Runner>(ks::builtin_registry().create(method), params, ks::resolve_backend(ks::BackendRequest::Cuda), options);
  EXPECT_TRUE(runner->wait_settled(std::chrono::seconds(60)));
  runner->step(steps);
  EXPECT_TRUE(runner->wait_settled(std::chrono::seconds(120)));
  EXPECT_NE(runner->device_field(), nullptr);
  return runner;
}

// Layer z of the image in `image`, unpacked on the GPU into an R32F texture through
// ZeroCopyBuffer::unpack_layer (as DeviceFieldFeed::copyImage does), read back from the texture.
std::vector<float> texture_of_layer(const ks::interop::ZeroCopyBuffer& image, int nx, int ny, int nz, int z) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  const bool unpacked = image.unpack_layer(
      nx, ny, nz, z, [&](const void* offset) { glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, nx, ny, 0, GL_RED, GL_FLOAT, offset); });
  EXPECT_TRUE(unpacked) << "layer " << z << " of " << nx << " x " << ny << " x " << nz;
  std::vector<float> texels(std::size_t(nx) * ny, -1.0f);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, texels.data());
  EXPECT_EQ(glGetError(), GLenum(GL_NO_ERROR));
  glDeleteTextures(1, &texture);
  return texels;
}

ks::FieldData field_named(const ks::Snapshot& snapshot, const std::string& name) {
  for (const ks::FieldData& f : snapshot.fields)
    if (f.desc.name == name) return f;
  throw std::runtime_error("no field " + name + " in the snapshot");
}

// The app's particle path, but Qt: the Runner publishes aerosol.coagulation's particles in device
// memory, ZeroCopyParticles (the field view's class) copies them into its vertex buffer
// device-to-device, only when a newer publication exists, and what OpenGL holds equals the host
// snapshot of the same moment (positions and diameters as floats).
TEST(CudaGlInterop, ZeroCopyParticlesHoldTheCoagulationSnapshot) {
  const ks::CudaAvailability cuda = ks::query_cuda();
  if (!cuda.usable) GTEST_SKIP() << "CUDA-GL interop test skipped: " << cuda.reason;
  HeadlessGl gl;
  if (!gl.problem.empty()) GTEST_SKIP() << "CUDA-GL interop test skipped: " << gl.problem;

  constexpr int kParticles = 3000;
  ks::ParamSet p(ks::coag::CoagulationMethod::static_info().params);
  p.set("n_s", std::int64_t(kParticles));
  p.set("n_runs", std::int64_t(2));
  p.set("t_end", 10.0);
  const auto runner = cuda_runner("aerosol.coagulation", p, "diameter", 5);
  ASSERT_NE(runner->device_field(), nullptr);

  ks::interop::ZeroCopyParticles particles(*runner->device_field());
  EXPECT_EQ(particles.count(), 0u) << "nothing copied yet";
  EXPECT_TRUE(particles.refresh());
  EXPECT_FALSE(particles.refresh()) << "the same publication is not copied twice";
  EXPECT_EQ(particles.data().copies(), 1u);
  ASSERT_EQ(particles.count(), std::size_t(kParticles));
  std::vector<float> gl_values(kParticles * 4, -1.0f);
  glBindBuffer(GL_ARRAY_BUFFER, particles.data().buffer());
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, gl_values.size() * sizeof(float), gl_values.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  ASSERT_EQ(glGetError(), GLenum(GL_NO_ERROR));

  const auto snapshot = runner->snapshot();
  const ks::FieldData diameter = field_named(*snapshot, "diameter");
  for (int k = 0; k < kParticles; ++k) {
    for (int axis = 0; axis < 3; ++axis)
      ASSERT_EQ(gl_values[4 * k + axis], float(diameter.positions[k][axis])) << "particle " << k << " axis " << axis;
    ASSERT_EQ(gl_values[4 * k + 3], float(diameter.values[k])) << "particle " << k;
  }
  runner->step(1);
  ASSERT_TRUE(runner->wait_settled(std::chrono::seconds(60)));
  EXPECT_TRUE(particles.refresh()) << "a new iteration is a new publication";
}

// The app's image path, but Qt: the Runner publishes kinetic.bgk's density (one float per cell)
// in device memory; ZeroCopyBuffer copies it device-to-device into a GL pixel buffer and
// unpack_layer hands its offset to glTexImage2D, as DeviceFieldFeed::copyImage does. The texture
// then holds the host snapshot's densities; after Runner::show_on_device, a velocity component.
TEST(CudaGlInterop, ZeroCopyImageTexturesHoldTheBgkDensity) {
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
  p.set("dt", 0.005);
  p.set("lid_speed", 0.05);
  const auto runner = cuda_runner("kinetic.bgk", p, "n", 3);
  ASSERT_NE(runner->device_field(), nullptr);

  ks::interop::ZeroCopyBuffer image(*runner->device_field());
  EXPECT_FALSE(image.unpack_layer(kNx, kNy, 1, 0, [](const void*) {})) << "nothing copied yet";
  ASSERT_TRUE(image.refresh());
  EXPECT_FALSE(image.unpack_layer(kNx + 1, kNy, 1, 0, [](const void*) {})) << "another grid's image";
  EXPECT_EQ(image.selection("n", -1), ks::interop::ZeroCopyBuffer::Selection::Held);
  EXPECT_EQ(image.selection("V", 0), ks::interop::ZeroCopyBuffer::Selection::Pending);
  const std::vector<float> texels = texture_of_layer(image, kNx, kNy, 1, 0);
  const auto snapshot = runner->snapshot();
  const ks::FieldData n = field_named(*snapshot, "n");
  ASSERT_EQ(n.values.size(), texels.size());
  for (std::size_t c = 0; c < texels.size(); ++c) ASSERT_EQ(texels[c], float(n.values[c])) << "cell " << c;

  // The view asks for another selection (as FieldView does through deviceSelectionWanted): the
  // paused Runner publishes it at once, and the texture holds the snapshot's V_x.
  runner->show_on_device("V", 0);
  for (int wait = 0; wait < 200 && image.selection("V", 0) == ks::interop::ZeroCopyBuffer::Selection::Pending; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    image.refresh();
  }
  ASSERT_EQ(image.selection("V", 0), ks::interop::ZeroCopyBuffer::Selection::Held);
  const std::vector<float> vx = texture_of_layer(image, kNx, kNy, 1, 0);
  const ks::FieldData V = field_named(*snapshot, "V");  // showing another field publishes no snapshot
  for (std::size_t c = 0; c < vx.size(); ++c) ASSERT_EQ(vx[c], float(V.values[3 * c])) << "cell " << c;
  // A selection the method cannot write is answered with no data: the view uploads the host's.
  runner->show_on_device("V", 7);
  for (int wait = 0; wait < 200 && image.selection("V", 7) == ks::interop::ZeroCopyBuffer::Selection::Pending; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    image.refresh();
  }
  EXPECT_EQ(image.selection("V", 7), ks::interop::ZeroCopyBuffer::Selection::Refused);
  EXPECT_FALSE(image.unpack_layer(kNx, kNy, 1, 0, [](const void*) {}));
}

// 3D images: each z layer of kinetic.dvm's temperature, unpacked from its offset in the pixel
// buffer, equals that layer of the snapshot, on the cavity's uniform grid and on the cube's
// stretched grid (resampled on the device as the snapshot is on the host).
TEST(CudaGlInterop, ZeroCopyImageLayersHoldTheDvmTemperature) {
  const ks::CudaAvailability cuda = ks::query_cuda();
  if (!cuda.usable) GTEST_SKIP() << "CUDA-GL interop test skipped: " << cuda.reason;
  HeadlessGl gl;
  if (!gl.problem.empty()) GTEST_SKIP() << "CUDA-GL interop test skipped: " << gl.problem;

  const std::vector<std::vector<std::pair<std::string, std::string>>> cases = {
      {{"case", "cavity"}, {"lid_speed", "0.1"}, {"nx", "10"}, {"ny", "9"}, {"nz", "8"}, {"nv", "10"}},
      {{"case", "cube"}, {"mach", "2"}, {"nx", "18"}, {"ny", "14"}, {"nz", "14"}, {"body_cells", "4"}, {"nv", "12"}}};
  for (const auto& overrides : cases) {
    ks::ParamSet p(ks::dvm::DvmMethod::static_info().params);
    for (const auto& [key, value] : overrides) p.set(key, ks::parse_value(p.spec(key), value, "test"));
    const auto runner = cuda_runner("kinetic.dvm", p, "T", 2);
    ASSERT_NE(runner->device_field(), nullptr);
    ks::interop::ZeroCopyBuffer image(*runner->device_field());
    ASSERT_TRUE(image.refresh());
    const auto snapshot = runner->snapshot();
    const ks::FieldData T = field_named(*snapshot, "T");
    const auto [nx, ny, nz] = T.grid.cells;
    for (int z : {0, nz / 2, nz - 1}) {
      const std::vector<float> texels = texture_of_layer(image, nx, ny, nz, z);
      for (std::size_t c = 0; c < texels.size(); ++c) {
        const double expected = T.values[std::size_t(z) * texels.size() + c];
        ASSERT_NEAR(texels[c], expected, 2e-7 * std::fabs(expected)) << overrides[0].second << " layer " << z << " cell " << c;
      }
    }
  }
}

}  // namespace
