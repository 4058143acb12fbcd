// Backend selection: auto takes CUDA only on a device that ran this build's probe kernel, and says
// why not otherwise; the probe itself refuses a device that does not exist.
#include <gtest/gtest.h>

#include "core/backend.hpp"
#include "core/errors.hpp"
#ifdef KS_HAVE_CUDA
#include "core/cuda_probe.hpp"
#endif

TEST(Backend, AutoSaysWhyItRunsOnTheCpuOrUsesADeviceThatRanTheProbe) {
  const ks::CudaAvailability cuda = ks::query_cuda();
  const ks::ExecutionContext ctx = ks::resolve_backend(ks::BackendRequest::Auto);
  if (cuda.usable) {
    EXPECT_EQ(ctx.backend, ks::BackendKind::Cuda);
    EXPECT_TRUE(ctx.cuda_unused_reason.empty()) << ctx.cuda_unused_reason;
    EXPECT_EQ(ctx.device_name, cuda.device_name);
    return;
  }
  EXPECT_EQ(ctx.backend, ks::BackendKind::Cpu);
  EXPECT_FALSE(cuda.reason.empty());
  // A CUDA build explains the fallback in one line; a CPU-only build has nothing to explain.
  EXPECT_EQ(ctx.cuda_unused_reason, cuda.compiled ? cuda.reason : std::string());
  EXPECT_EQ(ctx.cuda_unused_reason.find('\n'), std::string::npos);
  try {
    ks::resolve_backend(ks::BackendRequest::Cuda);
    ADD_FAILURE() << "--backend cuda without a usable device must be refused";
  } catch (const ks::Error& e) {
    EXPECT_EQ(e.kind(), ks::ErrorKind::BackendUnavailable);
    EXPECT_NE(std::string(e.what()).find(cuda.reason), std::string::npos) << e.what();
  }
}

#ifdef KS_HAVE_CUDA
TEST(CudaProbe, ADeviceThatDoesNotExistIsRefusedWithAReason) {
  const ks::CudaProbe p = ks::probe_cuda_device(4096);
  EXPECT_FALSE(p.ok);
  EXPECT_FALSE(p.reason.empty());
}

TEST(CudaProbe, TheFirstUsableDeviceRunsTheProbeKernel) {
  const ks::CudaAvailability cuda = ks::query_cuda();
  if (!cuda.usable) GTEST_SKIP() << "no usable CUDA device: " << cuda.reason;
  const ks::CudaProbe p = ks::probe_cuda_device(cuda.device);
  EXPECT_TRUE(p.ok) << p.reason;
  EXPECT_GE(p.major * 10 + p.minor, 75) << "the product supports Turing (7.5) and newer";
}
#endif
