// radiation.rmc: the CUDA tracer (Algorithm 2, domain parallelisation). One thread per (cell, chunk of
// its rays), grid-stride; consecutive threads hold consecutive cells of one chunk, so with sorting
// on they march rays of similar k together (section 4.2). With `texture` the k and I_b tables are
// read through 2D float textures with hardware linear interpolation and the cell temperatures
// through 1D textures (section 4.1); without it, the same double tables as the CPU path. With
// `single_precision` rays march in float (the CPU path always marches in double).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "core/ceil_div.hpp"
#include "core/checked.hpp"
#include "core/cuda_check.hpp"
#include "core/errors.hpp"
#include "core/device_buffer.hpp"
#include "rmc_solver.hpp"
#include "rmc_params.hpp"

namespace ks::rmc {

namespace {

// A 2D texture of `channels` floats per texel (width nt, one row per band or point) with linear
// filtering along T.
class TableTexture {
 public:
  TableTexture() = default;
  TableTexture(const TableTexture&) = delete;
  TableTexture& operator=(const TableTexture&) = delete;
  ~TableTexture() { release(); }

  void load(const std::vector<float>& texels, int channels, int nt) {
    release();
    const std::size_t row_bytes = std::size_t(nt) * channels * sizeof(float);
    const int rows = int(texels.size() / (std::size_t(nt) * channels));
    const cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, channels > 1 ? 32 : 0, 0, 0, cudaChannelFormatKindFloat);
    KS_CUDA_CHECK(cudaMallocArray(&array_, &desc, nt, rows));
    KS_CUDA_CHECK(cudaMemcpy2DToArray(array_, 0, 0, texels.data(), row_bytes, row_bytes, rows, cudaMemcpyHostToDevice));
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array_;
    cudaTextureDesc tex{};
    tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
    tex.filterMode = cudaFilterModeLinear;
    tex.readMode = cudaReadModeElementType;
    tex.normalizedCoords = 0;
    KS_CUDA_CHECK(cudaCreateTextureObject(&object_, &res, &tex, nullptr));
  }
  cudaTextureObject_t object() const { return object_; }
  void release() {
    if (object_) cudaDestroyTextureObject(object_);
    if (array_) cudaFreeArray(array_);
    object_ = 0;
    array_ = nullptr;
  }

 private:
  cudaArray_t array_ = nullptr;
  cudaTextureObject_t object_ = 0;
};

// A 1D texture over linear float memory (cell temperatures as table coordinates), point sampled.
class LinearTexture {
 public:
  LinearTexture() = default;
  LinearTexture(const LinearTexture&) = delete;
  LinearTexture& operator=(const LinearTexture&) = delete;
  ~LinearTexture() { release(); }

  void load(const std::vector<double>& values) {
    release();
    std::vector<float> f(values.begin(), values.end());
    data_.upload(f);
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = data_.ptr;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = f.size() * sizeof(float);
    cudaTextureDesc tex{};
    tex.readMode = cudaReadModeElementType;
    KS_CUDA_CHECK(cudaCreateTextureObject(&object_, &res, &tex, nullptr));
  }
  cudaTextureObject_t object() const { return object_; }
  std::size_t bytes() const { return data_.count * sizeof(float); }
  void release() {
    if (object_) cudaDestroyTextureObject(object_);
    object_ = 0;
  }

 private:
  DeviceBuffer<float> data_;
  cudaTextureObject_t object_ = 0;
};

struct TextureLookup {
  cudaTextureObject_t emission;  // E [band][t]
  cudaTextureObject_t kE;        // (k, E of the point's band) [point][t]: both in one fetch per step
  // Every level's cell coordinates back to back in one texture (level l from first[l]): one texture
  // object for the whole warp, whatever level each lane's ray is on (a handle per level made the
  // compiler loop over the distinct handles of a warp at every step).
  cudaTextureObject_t coord_tex;
  int first[kMaxLevels];

  __device__ double E(int band, double t) const { return tex2D<float>(emission, float(t) + 0.5f, band + 0.5f); }
  __device__ void k_and_E(int point, int, double t, double& k, double& E) const {
    const float2 v = tex2D<float2>(kE, float(t) + 0.5f, point + 0.5f);
    k = v.x;
    E = v.y;
  }
  __device__ double coord(int level, const LevelView&, long long cell) const {
    return tex1Dfetch<float>(coord_tex, first[level] + int(cell));
  }
};

// Float marching is capped at 64 registers (8 blocks of 128 per SM): the extra resident warps hide
// more texture latency than the few spilled registers cost (measured, README). Double marching takes
// the compiler's choice (no minimum of blocks): 3.62 s against 3.92 s with a minimum of one block
// (case 10 at 64^3, H200, bench/results/rmc-trace-bounds-h200.json).
constexpr int kTraceThreads = 128;
constexpr int kTraceBlocksPerSm(int real_bytes) { return real_bytes == 4 ? 8 : 0; }

template <class Real, class Lookup>
__global__ void __launch_bounds__(kTraceThreads, kTraceBlocksPerSm(sizeof(Real)))
    trace_kernel(const __grid_constant__ MarchView v, const __grid_constant__ Lookup look, int nx, int ny, long long first, long long cells,
                 int chunks, int rays, std::uint32_t batch, double* psum, double* psum2, double* psteps) {
  const long long total = cells * chunks;
  for (long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x; t < total; t += (long long)gridDim.x * blockDim.x) {
    const int ch = int(t / cells);
    const long long cell = first + (t - ch * cells);
    const int ci[3] = {int(cell % nx), int(cell / nx % ny), int(cell / ((long long)nx * ny))};
    double s = 0.0, s2 = 0.0, st = 0.0;
    trace_rays<Real>(v, look, cell, ci, batch, chunk_begin(rays, chunks, ch), chunk_begin(rays, chunks, ch + 1), rays, s, s2, st);
    psum[t] = s;
    psum2[t] = s2;
    psteps[t] = st;
  }
}

// Per cell, the chunks' sums in chunk order (as the CPU path adds them).
__global__ void reduce_kernel(long long cells, int chunks, const double* psum, const double* psum2, const double* psteps, double* sum,
                              double* sum2, double* steps) {
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells; c += (long long)gridDim.x * blockDim.x) {
    double s = 0.0, s2 = 0.0, st = 0.0;
    for (int ch = 0; ch < chunks; ++ch) {
      s += psum[ch * cells + c];
      s2 += psum2[ch * cells + c];
      st += psteps[ch * cells + c];
    }
    sum[c] = s;
    sum2[c] = s2;
    steps[c] = st;
  }
}

// The device copy of the running sums takes a batch as the host's does: one addition per cell.
__global__ void add_batch_kernel(long long cells, const double* batch_sum, const double* batch_sum2, double* sum, double* sum2) {
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells; c += (long long)gridDim.x * blockDim.x) {
    sum[c] += batch_sum[c];
    sum2[c] += batch_sum2[c];
  }
}

// add_batch_kernel with the batch's series (RmcMethod::advance) reduced on the way: block b writes its
// sums of |Q after - Q before|, |Q after|, standard error and face crossings to totals[k * gridDim.x + b]
// (k = 0..3), which the host adds in block order, so a run's series are the same bits every time;
// first_bad becomes the smallest cell whose Q is not finite.
__global__ void add_batch_series_kernel(long long cells, const double* batch_sum, const double* batch_sum2, const double* batch_steps,
                                        double* sum, double* sum2, long long rays_before, long long rays_after, double* totals,
                                        unsigned long long* first_bad) {
  double t[4] = {0.0, 0.0, 0.0, 0.0};
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells; c += (long long)gridDim.x * blockDim.x) {
    const double before = estimate_mean(sum[c], rays_before);
    const double s = sum[c] + batch_sum[c], s2 = sum2[c] + batch_sum2[c];
    sum[c] = s;
    sum2[c] = s2;
    const double now = estimate_mean(s, rays_after);
    if (!isfinite(now)) atomicMin(first_bad, static_cast<unsigned long long>(c));
    t[0] += fabs(now - before);
    t[1] += fabs(now);
    t[2] += estimate_std_error(s, s2, rays_after);
    t[3] += batch_steps[c];
  }
  __shared__ double warp_totals[4][32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int k = 0; k < 4; ++k) {
    for (int o = 16; o > 0; o /= 2) t[k] += __shfl_down_sync(0xffffffffu, t[k], o);
    if (lane == 0) warp_totals[k][warp] = t[k];
  }
  __syncthreads();
  if (threadIdx.x < 4) {
    double block = 0.0;
    for (int w = 0; w < int(blockDim.x / 32); ++w) block += warp_totals[threadIdx.x][w];
    totals[threadIdx.x * gridDim.x + blockIdx.x] = block;
  }
}

// Zero-copy views: Q^R or its standard error per cell as floats ...
__global__ void display_kernel(long long cells, const double* sum, const double* sum2, bool std_error, long long rays, float* out) {
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells; c += (long long)gridDim.x * blockDim.x)
    out[c] = float(std_error ? estimate_std_error(sum[c], sum2[c], rays) : estimate_mean(sum[c], rays));
}

// ... and a fixed field (T, kappa_P).
__global__ void to_float_kernel(long long cells, const double* in, float* out) {
  for (long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x; c < cells; c += (long long)gridDim.x * blockDim.x)
    out[c] = float(in[c]);
}

class CudaSolver final : public RmcSolver {
 public:
  explicit CudaSolver(int device) : device_(device) {
    KS_CUDA_CHECK(cudaSetDevice(device_));
    KS_CUDA_CHECK(cudaDeviceGetAttribute(&sms_, cudaDevAttrMultiProcessorCount, device_));
    // Not synchronised with the default stream, nor with each other. A batch traced ahead goes on the
    // ahead_ stream of its slot, so it runs beside the batch before it (on the other one) and fills
    // that batch's tail: a 200-ray batch keeps the busiest SM 1.37 times as long as the average one
    // (Nsight Compute, H200), and with both batches on one stream kinetic-run lost a quarter of the
    // kernel's rate (4.93e9 rays/s, 6.34e9 now). The sums and series on main_ go first (priority).
    int low = 0, high = 0;
    KS_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&low, &high));
    KS_CUDA_CHECK(cudaStreamCreateWithPriority(&main_, cudaStreamNonBlocking, high));
    for (int k = 0; k < 2; ++k) {
      KS_CUDA_CHECK(cudaStreamCreateWithPriority(&ahead_[k], cudaStreamNonBlocking, low));
      KS_CUDA_CHECK(cudaEventCreateWithFlags(&ahead_done_[k], cudaEventDisableTiming));
    }
  }
  ~CudaSolver() override {
    cudaSetDevice(device_);
    for (int k = 0; k < 2; ++k) cudaStreamSynchronize(ahead_[k]);
    cudaStreamSynchronize(main_);
    for (int k = 0; k < 2; ++k) {
      cudaEventDestroy(ahead_done_[k]);
      cudaStreamDestroy(ahead_[k]);
    }
    cudaStreamDestroy(main_);
  }

  void load(const RmcProblem& p) override {
    KS_CUDA_CHECK(cudaSetDevice(device_));
    drop_ahead();  // it reads the tables replaced here
    problem_ = p;
    view_ = march_view(problem_);
    const SpectralTables& t = problem_.tables;
    emission_.upload(t.emission);
    absorption_.upload(t.absorption);
    cdf_band_.upload(t.cdf_band);
    cdf_point_.upload(t.cdf_point);
    cdf_sorted_.upload(t.cdf_sorted);
    sorted_point_.upload(t.sorted_point);
    inv_source_.upload(t.inv_source);
    view_.cdf_band = cdf_band_.ptr;
    view_.cdf_point = cdf_point_.ptr;
    view_.cdf_sorted = cdf_sorted_.ptr;
    view_.sorted_point = sorted_point_.ptr;
    view_.inv_source = inv_source_.ptr;
    for (int l = 0; l < view_.levels; ++l) {
      coord_[l].upload(problem_.levels[l].coord);
      view_.level[l].coord = coord_[l].ptr;
    }
    texture_ = problem_.settings.texture;
    single_ = problem_.settings.single_precision;
    if (texture_) {
      emission_tex_.load(std::vector<float>(t.emission.begin(), t.emission.end()), 1, t.nt);
      std::vector<float> kE(2 * t.absorption.size());
      for (std::size_t i = 0; i < t.absorption.size(); ++i) {
        const std::size_t point = i / t.nt, ti = i % t.nt;
        kE[2 * i] = float(t.absorption[i]);
        kE[2 * i + 1] = float(t.emission[point / t.per_band * t.nt + ti]);
      }
      kE_tex_.load(kE, 2, t.nt);
      std::vector<double> coords;
      for (int l = 0; l < view_.levels; ++l) {
        coord_first_[l] = int(coords.size());
        coords.insert(coords.end(), problem_.levels[l].coord.begin(), problem_.levels[l].coord.end());
      }
      int max_texels = 0;
      KS_CUDA_CHECK(cudaDeviceGetAttribute(&max_texels, cudaDevAttrMaxTexture1DLinearWidth, device_));
      if (coords.size() > std::size_t(max_texels))
        throw bad_input(param_key(&RmcParams::texture),
                        "the cells of all grid levels (" + std::to_string(coords.size()) + ") exceed this GPU's 1D texture of " +
                            std::to_string(max_texels) + " values",
                        "texture = false, or fewer cells");
      coord_tex_.load(coords);
    }
  }

  bool trace(std::uint32_t batch, int rays, Block origins, std::vector<double>& sum, std::vector<double>& sum2, double& steps,
             const Interrupt&) override {
    const long long first = origins.begin, cells = origins.count();  // the cells traced here
    drop_ahead();
    launch_batch(batch, rays, origins, 0, main_);
    sum_chunks(0, cells);
    KS_CUDA_CHECK(cudaStreamSynchronize(main_));  // the default stream's copies below do not wait for main_
    if (dsum_.count == std::size_t(problem_.config.cells())) {
      add_batch_kernel<<<int(std::min<long long>(ceil_div(cells, 256), 8LL * sms_)), 256>>>(cells, csum_.ptr, csum2_.ptr, dsum_.ptr + first,
                                                                                            dsum2_.ptr + first);
      KS_CUDA_CHECK(cudaGetLastError());
    }
    host_.resize(cells);
    csum_.download(host_.data(), cells);
    for (long long i = 0; i < cells; ++i) sum[first + i] += host_[i];
    csum2_.download(host_.data(), cells);
    for (long long i = 0; i < cells; ++i) sum2[first + i] += host_[i];
    csteps_.download(host_.data(), cells);
    for (long long i = 0; i < cells; ++i) steps += host_[i];
    return true;
  }

  bool keeps_sums() const override { return dsum_.count == std::size_t(problem_.config.cells()); }

  double trace_kept(std::uint32_t batch, int rays, long long rays_before, BatchSeries& series, int next_rays) override {
    const long long cells = problem_.config.cells();
    int slot = 0;
    if (ahead_batch_ && ahead_batch_->batch == batch && ahead_batch_->rays == rays) {
      slot = ahead_batch_->slot;  // traced ahead on ahead_[slot] beside the last batch
      KS_CUDA_CHECK(cudaStreamWaitEvent(main_, ahead_done_[slot], 0));
      ahead_batch_.reset();
    } else {
      drop_ahead();  // another batch or another size than was traced ahead (rays_per_batch is live)
      launch_batch(batch, rays, {0, cells}, 0, main_);
    }
    sum_chunks(slot, cells);
    const int blocks = int(std::min<long long>(ceil_div(cells, 256), 8LL * sms_));
    totals_.resize(4 * std::size_t(blocks));
    first_bad_.resize(1);
    KS_CUDA_CHECK(cudaMemsetAsync(first_bad_.ptr, 0xff, sizeof(unsigned long long), main_));
    add_batch_series_kernel<<<blocks, 256, 0, main_>>>(cells, csum_.ptr, csum2_.ptr, csteps_.ptr, dsum_.ptr, dsum2_.ptr, rays_before,
                                                       rays_before + rays, totals_.ptr, first_bad_.ptr);
    KS_CUDA_CHECK(cudaGetLastError());
    // The next batch starts on the other slot's stream now, beside this one's last rays, sums and
    // series, so no batch's tail leaves the GPU idle (issue 49). Its chunk sums go to the other slot;
    // they count only when the next call asks for that batch.
    if (next_rays > 0) {
      launch_batch(batch + 1, next_rays, {0, cells}, 1 - slot, ahead_[1 - slot]);
      KS_CUDA_CHECK(cudaEventRecord(ahead_done_[1 - slot], ahead_[1 - slot]));
      ahead_batch_ = AheadBatch{batch + 1, next_rays, 1 - slot};
    }
    std::vector<double> per_block(totals_.count);
    unsigned long long bad = 0;
    KS_CUDA_CHECK(cudaMemcpyAsync(per_block.data(), totals_.ptr, per_block.size() * sizeof(double), cudaMemcpyDeviceToHost, main_));
    KS_CUDA_CHECK(cudaMemcpyAsync(&bad, first_bad_.ptr, sizeof(bad), cudaMemcpyDeviceToHost, main_));
    KS_CUDA_CHECK(cudaStreamSynchronize(main_));
    double t[4] = {0.0, 0.0, 0.0, 0.0};
    for (int k = 0; k < 4; ++k)
      for (int b = 0; b < blocks; ++b) t[k] += per_block[std::size_t(k) * blocks + b];
    series = {t[0], t[1], t[2] / double(cells), bad == ~0ull ? -1 : (long long)bad};
    return t[3];
  }

  void download_sums(std::vector<double>& sum, std::vector<double>& sum2) const override {
    KS_CUDA_CHECK(cudaSetDevice(device_));
    sum.resize(dsum_.count), sum2.resize(dsum2_.count);
    dsum_.download(sum.data(), sum.size());
    dsum2_.download(sum2.data(), sum2.size());
  }

 private:
  // The trace kernel of one batch from the cells of `origins` on `stream`: each chunk's sums in slot
  // `slot` of the chunk buffers.
  void launch_batch(std::uint32_t batch, int rays, Block origins, int slot, cudaStream_t stream) {
    KS_CUDA_CHECK(cudaSetDevice(device_));
    const RmcConfig& c = problem_.config;
    const long long first = origins.begin, cells = origins.count();  // the cells traced here
    const int chunks = ray_chunks(c.cells(), rays);
    const std::size_t total = std::size_t(checked_mul(cells, chunks, "cells x ray chunks"));
    ChunkSums& p = chunk_sums_[slot];
    p.sum.resize(total), p.sum2.resize(total), p.steps.resize(total);
    p.chunks = chunks;
    const int blocks = int(std::min<long long>(ceil_div(total, kTraceThreads), 64LL * sms_));
    auto launch = [&](const auto& look) {
      if (single_)
        trace_kernel<float><<<blocks, kTraceThreads, 0, stream>>>(view_, look, c.n[0], c.n[1], first, cells, chunks, rays, batch, p.sum.ptr,
                                                                  p.sum2.ptr, p.steps.ptr);
      else
        trace_kernel<double><<<blocks, kTraceThreads, 0, stream>>>(view_, look, c.n[0], c.n[1], first, cells, chunks, rays, batch,
                                                                   p.sum.ptr, p.sum2.ptr, p.steps.ptr);
    };
    if (texture_) {
      TextureLookup look{emission_tex_.object(), kE_tex_.object(), coord_tex_.object(), {}};
      std::copy(coord_first_.begin(), coord_first_.end(), look.first);
      launch(look);
    } else {
      launch(TableLookup{emission_.ptr, absorption_.ptr, problem_.tables.nt});
    }
    KS_CUDA_CHECK(cudaGetLastError());
  }

  // On main_: per cell, the chunks' sums of slot `slot` in csum_, csum2_ and csteps_.
  void sum_chunks(int slot, long long cells) {
    const ChunkSums& p = chunk_sums_[slot];
    csum_.resize(cells), csum2_.resize(cells), csteps_.resize(cells);
    reduce_kernel<<<int(std::min<long long>(ceil_div(cells, 256), 8LL * sms_)), 256, 0, main_>>>(
        cells, p.chunks, p.sum.ptr, p.sum2.ptr, p.steps.ptr, csum_.ptr, csum2_.ptr, csteps_.ptr);
    KS_CUDA_CHECK(cudaGetLastError());
  }

  // Forgets a batch traced ahead, once it has ended (its slot may be written again).
  void drop_ahead() {
    if (!ahead_batch_) return;
    for (int k = 0; k < 2; ++k) KS_CUDA_CHECK(cudaStreamSynchronize(ahead_[k]));
    ahead_batch_.reset();
  }

 public:
  void set_sums(const std::vector<double>& sum, const std::vector<double>& sum2) override {
    KS_CUDA_CHECK(cudaSetDevice(device_));
    drop_ahead();  // a new estimate (a checkpoint, a reset) starts its own batches
    dsum_.upload(sum);
    dsum2_.upload(sum2);
  }

  void set_fixed_fields(const std::vector<double>& T, const std::vector<double>& kappa_planck) override {
    KS_CUDA_CHECK(cudaSetDevice(device_));
    dT_.upload(T);
    dkappa_.upload(kappa_planck);
  }

  std::size_t write_display_field(Display what, long long rays, void* dst, std::size_t capacity) const override {
    const long long cells = problem_.config.cells();
    const std::size_t bytes = std::size_t(cells) * sizeof(float);
    const bool fixed = what == Display::Temperature || what == Display::KappaPlanck;
    const DeviceBuffer<double>& source = what == Display::Temperature ? dT_ : what == Display::KappaPlanck ? dkappa_ : dsum_;
    if (source.count != std::size_t(cells)) return 0;
    if (!dst) return bytes;
    if (capacity < bytes) return 0;
    const int blocks = int(std::min<long long>(ceil_div(cells, 256), 8LL * sms_));
    float* out = static_cast<float*>(dst);
    if (fixed) to_float_kernel<<<blocks, 256>>>(cells, source.ptr, out);
    else display_kernel<<<blocks, 256>>>(cells, dsum_.ptr, dsum2_.ptr, what == Display::QStdError, rays, out);
    KS_CUDA_CHECK(cudaGetLastError());
    return bytes;
  }

  std::size_t bytes() const override {
    std::size_t b = (emission_.count + absorption_.count + cdf_band_.count + cdf_point_.count + cdf_sorted_.count + inv_source_.count +
                     csum_.count + csum2_.count + csteps_.count + dsum_.count + dsum2_.count + dT_.count + dkappa_.count) *
                        sizeof(double) +
                    sorted_point_.count * sizeof(int);
    for (int l = 0; l < view_.levels; ++l) b += coord_[l].count * sizeof(double);
    for (const ChunkSums& p : chunk_sums_) b += (p.sum.count + p.sum2.count + p.steps.count) * sizeof(double);
    if (texture_) b += coord_tex_.bytes() + (emission_.count + 2 * absorption_.count) * sizeof(float);
    return b;
  }

 private:
  int device_ = 0, sms_ = 1;
  bool texture_ = false, single_ = false;
  RmcProblem problem_;
  MarchView view_{};
  DeviceBuffer<double> emission_, absorption_, cdf_band_, cdf_point_, cdf_sorted_, inv_source_;
  DeviceBuffer<int> sorted_point_;
  std::array<DeviceBuffer<double>, kMaxLevels> coord_;
  TableTexture emission_tex_, kE_tex_;
  LinearTexture coord_tex_;  // every level's coord, back to back
  std::array<int, kMaxLevels> coord_first_{};
  // A batch's sums per (cell, chunk of its rays): two slots, the batch being summed and the one traced ahead.
  struct ChunkSums {
    DeviceBuffer<double> sum, sum2, steps;
    int chunks = 1;
  };
  std::array<ChunkSums, 2> chunk_sums_;
  struct AheadBatch {
    std::uint32_t batch;
    int rays, slot;
  };
  std::optional<AheadBatch> ahead_batch_;                        // launched on ahead_[slot], ends at ahead_done_[slot]
  cudaStream_t main_ = nullptr, ahead_[2] = {nullptr, nullptr};  // per slot: a batch traced ahead
  cudaEvent_t ahead_done_[2] = {nullptr, nullptr};
  DeviceBuffer<double> csum_, csum2_, csteps_;
  DeviceBuffer<double> dsum_, dsum2_;  // the running sums (zero-copy views; trace_kept keeps them here alone)
  DeviceBuffer<double> totals_;        // a batch's series (add_batch_series_kernel)
  DeviceBuffer<unsigned long long> first_bad_;
  DeviceBuffer<double> dT_, dkappa_;  // the fixed fields, for zero-copy views
  std::vector<double> host_;
};

}  // namespace

std::unique_ptr<RmcSolver> make_cuda_solver(int device) { return std::make_unique<CudaSolver>(device); }

}  // namespace ks::rmc
