// lbm.binary on the GPU: the paper's three kernels (section 4), launched in sequence each step:
//  - collide_stream_kernel: a pair of lanes per node, one per species, sharing their moments (the
//    collision couples the species through the mixture velocity); structure of arrays, both species
//    in one array and one launch (the "hybrid grid" of Fig. 5); collision (eq. 2, 6, 8, 9) fused with
//    push streaming; wall nodes send back what they received (full-way bounce-back).
//  - bounce_back_kernel: eq. (14) over the wall links (interpolated scheme only).
//  - boundary_kernel: pressure inlet and outlet (Zou-He for D3Q27), one thread per node of a plane.
// Bytes per node and step in collide_stream: 2 species x 27 x (read + write) x sizeof(Real) =
// 432 (FP32) or 864 (FP64); the node type byte is not counted.
// With gpu_step = fused a step is instead one kernel over the fluid nodes (lbm_cuda_pull.cuh), the same
// results; with gpu_step = in_place (one process) the same kernel's work on one copy of the populations
// (lbm_cuda_in_place.cuh).
// Across MPI ranks (lbm_slab.hpp) the owned end planes step first, on their own stream, and their halo
// rows go to the neighbours (device to device where they share the node, else through pinned host
// memory: core/device_ring.hpp) while the interior planes step. The paper's kernels push: the rows
// the end planes streamed into the halo planes come back into the neighbours' end planes before the
// bounce-back. The fused step pulls: the end planes' new rows that point at a neighbour go into its
// halo plane, from which its end plane pulls at the next step.
#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <type_traits>

#include "core/ceil_div.hpp"
#include "core/cuda_check.hpp"
#include "core/device_ring.hpp"
#include "core/display_value.hpp"
#include "core/device_buffer.hpp"
#include "lbm_cuda_in_place.cuh"
#include "lbm_model.hpp"
#include "lbm_node_fields.hpp"
#include "lbm_solver.hpp"

namespace ks::lbm {

namespace {

// The blocks of 256 an SM collide_stream_kernel asks for. FP16 storage: 4 (64 registers; the compiler
// took 74): +7 % on the 128^3 box on an H200, where FP32 lost 5 % with the same bound
// (bench/results/lbm-launch-bounds-h200.json). FP32 and FP64: 0, no minimum, the compiler's choice
// (66 and 128 registers on sm_90); a minimum of 1 let it take 124 and 196, and the paper's kernels
// lost 17-23 % in FP32 and FP64 (one H200, 2026-12-01: bench/results/lbm-fp16-planes-h200.json's
// base against lbm-launch-bounds-h200.json's).
template <class Storage>
constexpr int kCollideStreamBlocksPerSm = sizeof(Storage) == 2 ? 4 : 0;

// Over the list of nodes that take part (fluid and wall nodes; interior solid nodes are not launched,
// so a warp's lanes are not idled by the solid half of a packed bed). Two adjacent lanes per node
// (collide_pair).
template <class Real, class Storage>
__global__ void __launch_bounds__(256, kCollideStreamBlocksPerSm<Storage>)
    collide_stream_kernel(LbmConfig c, CollisionParams<Real> p, const __grid_constant__ Populations<Real, Storage> f,
                          const __grid_constant__ Populations<Real, Storage> next, const std::uint8_t* __restrict__ type,
                          const std::uint32_t* __restrict__ active, std::uint32_t count) {
  const long long lane = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (lane >= 2LL * count) return;  // both lanes of a pair leave together (same node) here and below
  const std::uint32_t k = active[lane >> 1];
  const int s = int(lane & 1);
  int x, y, z;
  node_position(c, k, x, y, z);
  if (type[k] == kWall) {
    for (int i = 0; i < kQ; ++i) {
      const long long src = neighbour(c, x, y, z, opposite(i));
      if (type[src] == kFluid) next.put(s, opposite(i), src, neighbour_plane(c, z, opposite(i)), f.get(s, i, k, z));
    }
    return;
  }
  Real fl[kQ];
#pragma unroll
  for (int i = 0; i < kQ; ++i) fl[i] = f.get(s, i, k, z);
  collide_pair(fl, s, p);
#pragma unroll
  for (int i = 0; i < kQ; ++i) next.put(s, i, neighbour(c, x, y, z, i), neighbour_plane(c, z, i), fl[i]);
}

template <class Real, class Storage>
__global__ void bounce_back_kernel(const WallLink* __restrict__ links, long long count, long long plane,
                                   const __grid_constant__ Populations<Real, Storage> next) {
  const long long l = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (l >= count) return;
  const WallLink L = links[l];
  const int back = opposite(L.dir);
  const int z_fluid = int(L.fluid / plane), z_solid = int(L.solid / plane), z_ff = L.ff >= 0 ? int(L.ff / plane) : 0;
  for (int s = 0; s < kSpecies; ++s) {
    const Real v = L.ff >= 0 ? yu_bounce_back(Real(L.delta), next.get(s, L.dir, L.fluid, z_fluid), next.get(s, L.dir, L.solid, z_solid),
                                              next.get(s, back, L.ff, z_ff))
                             : next.get(s, L.dir, L.solid, z_solid);
    next.put(s, back, L.fluid, z_fluid, v);
  }
}

template <class Real, class Storage>
__global__ void boundary_kernel(LbmConfig c, PlaneDensities<Real> d, int z, int side,
                                const __grid_constant__ Populations<Real, Storage> next, const std::uint8_t* __restrict__ type) {
  const long long plane = (long long)c.nx * c.ny;
  const long long xy = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (xy >= plane) return;
  const long long k = z * plane + xy;
  if (type[k] != kFluid) return;
  for (int s = 0; s < kSpecies; ++s) {
    Real f[kQ];
    KS_UNROLL
    for (int i = 0; i < kQ; ++i) f[i] = next.get(s, i, k, z);
    pressure_boundary(f, d.rho[s], d.theta[s], d.lattice_species[s], side);
    KS_UNROLL
    for (int i = 0; i < kQ; ++i)
      if (cz(i) == side) next.put(s, i, k, z, f[i]);
  }
}

// Over the owned nodes [first, first + N): density and momentum of both species, zero at solid nodes.
template <class Real, class State>
__global__ void moments_kernel(long long first, long long N, const __grid_constant__ State state, const std::uint8_t* __restrict__ type,
                               double* out) {
  const long long o = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (o >= N) return;
  const long long k = first + o;
  const bool fluid = type[k] == kFluid;
  for (int s = 0; s < kSpecies; ++s) {
    SpeciesMoments<Real> m;
    if (fluid) {
      Real fl[kQ];
      state.load(s, k, fl);
      m = species_moments(fl);
    }
    out[(kRhoO2 + s) * N + o] = double(m.rho);
    for (int a = 0; a < 3; ++a) out[(kJO2x + 3 * s + a) * N + o] = double(m.j[a]);
  }
}

// Zero-copy views: one float per owned node from the moments (LbmSolver::write_display_field).
__global__ void display_kernel(long long N, const double* m, const std::uint8_t* __restrict__ type, int field, int component, LbmConfig c,
                               double density_unit, double velocity_unit, float* out) {
  const long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (k >= N) return;
  const NodeFields f = node_fields(m, N, k, type[k] == kFluid, c.mass, density_unit, velocity_unit);
  out[k] = float(display_value(f.values(field), NodeFields::components(field), component));
}

constexpr int kReduceThreads = 256;

// Per plane of the owned planes (block b: plane b, from node first + b * plane) the sum over its
// fluid nodes of |J_O2|^2 + |J_N2|^2 (eq. 20). A plane's reduction does not depend on which rank
// holds it, so the planes' sums added in plane order are one process's on any number of ranks.
template <class Real, class State>
__global__ void momentum_square_kernel(long long first, long long plane, const __grid_constant__ State state,
                                       const std::uint8_t* __restrict__ type, double* per_plane) {
  __shared__ double part[kReduceThreads];
  double acc = 0.0;
  const long long begin = first + blockIdx.x * plane;
  for (long long k = begin + threadIdx.x; k < begin + plane; k += blockDim.x) {
    if (type[k] != kFluid) continue;
    for (int s = 0; s < kSpecies; ++s) {
      Real fl[kQ];
      state.load(s, k, fl);
      const SpeciesMoments<Real> m = species_moments(fl);
      for (int a = 0; a < 3; ++a) acc += double(m.j[a]) * double(m.j[a]);
    }
  }
  part[threadIdx.x] = acc;
  __syncthreads();
  for (int half = kReduceThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) part[threadIdx.x] += part[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) per_plane[blockIdx.x] = part[0];
}

template <class Real, class Storage>
class CudaSolver final : public LbmSolver {
  using View = Populations<Real, Storage>;

 public:
  CudaSolver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g, int device, const Slab& slab, const Communicator& comm)
      : slab_(slab),
        comm_(comm),
        g_(std::move(g)),
        fused_(gpu_step_of(c, slab) != GpuStep::Paper),
        in_place_(gpu_step_of(c, slab) == GpuStep::InPlace) {
    KS_CUDA_CHECK(cudaSetDevice(device));
    configure(c);
    // The geometry has fewer than 2^31 nodes (build_geometry): the node indices fit 32 bits. The
    // memory was checked against LbmMethod::estimate_memory before set-up or a grid-level switch.
    set_rest_populations(c);
    type_.upload(g_->type);
    if (fused_) {
      upload_pull_table();
    } else {
      upload_active_nodes();
      upload_links();
    }
    plane_sums_.resize(slab.owned());
    // Both buffers start from the initial state: entries no stage writes (solid sources, halo
    // entries no owned node streams into) stay equal.
    const InitialState f0 = initial_state(c, slab);
    if (fused_) {
      write_fused_state(f0);  // the held nodes' (under MPI the halo planes' too)
    } else {
      std::vector<Storage> v(std::size_t(kSpecies) * kQ * held_.nodes());
      for (std::size_t e = 0; e < v.size(); ++e)
        v[e] = encode(f0(e / held_.nodes(), e % held_.nodes()), e / held_.nodes(), e % held_.nodes());
      f_.upload(v);
      next_.upload(v);
    }
    if (slab_.halo) {
      ring_ = std::make_unique<DeviceRing>(comm, device, std::size_t(kHaloRows) * plane() * sizeof(Storage), true, true);
      KS_CUDA_CHECK(cudaStreamCreateWithFlags(&halo_stream_, cudaStreamNonBlocking));
      KS_CUDA_CHECK(cudaEventCreateWithFlags(&step_done_, cudaEventDisableTiming));
      KS_CUDA_CHECK(cudaEventCreateWithFlags(&halo_done_, cudaEventDisableTiming));
    }
  }
  ~CudaSolver() override {
    if (halo_stream_) cudaStreamDestroy(halo_stream_);
    if (step_done_) cudaEventDestroy(step_done_);
    if (halo_done_) cudaEventDestroy(halo_done_);
  }

  void configure(const LbmConfig& c) override {
    // The fused step applies the bounce-back and the pressure planes of step n when it makes step
    // n + 1 (lbm_cuda_pull.cuh); the paper's kernels applied them at step n, with the parameters of
    // then. So the state is made the paper's first, under those.
    if (pulled_) settle();
    c_ = c;
    held_ = c;
    held_.nz = slab_.planes();
    params_ = collision_params<Real>(c);
    const double p_in = inlet_pressure(c);
    double in[kSpecies], out[kSpecies];
    mixture_densities(c, c.x_o2, p_in, in);
    mixture_densities(c, c.x_o2, p_in * c.pressure_ratio, out);
    for (int s = 0; s < kSpecies; ++s) {
      inlet_.rho[s] = Real(in[s]);
      outlet_.rho[s] = Real(out[s]);
      inlet_.theta[s] = outlet_.theta[s] = params_.theta[s];
      inlet_.lattice_species[s] = outlet_.lattice_species[s] = params_.lattice_species[s];
    }
  }

  int step(int steps, const Interrupt& interrupt) override {
    const int done = run(steps, nullptr, interrupt);
    KS_CUDA_CHECK(cudaDeviceSynchronize());
    return done;
  }

  StageTimes profile(int steps) override {
    StageTimes t;
    run(steps, &t);
    return t.per_step(steps);
  }

  std::vector<double> moments() const override {
    const long long owned = owned_nodes();
    moments_.resize(std::size_t(kNodeMoments) * owned);
    with_state([&](const auto& state) {
      moments_kernel<Real><<<ceil_div(owned, 128), 128>>>(first_owned_node(), owned, state, type_.ptr, moments_.ptr);
    });
    KS_CUDA_CHECK_LAUNCH();
    return moments_.to_host();
  }

  std::size_t write_display_field(int field, int component, double density_unit, double velocity_unit, void* dst,
                                  std::size_t capacity) const override {
    const long long N = owned_nodes();
    const std::size_t bytes = std::size_t(N) * sizeof(float);
    if (moments_.count == 0 || field < 0 || field >= kNodeFields || component >= NodeFields::components(field)) return 0;
    if (!dst) return bytes;
    if (capacity < bytes) return 0;
    display_kernel<<<ceil_div(N, 128), 128>>>(N, moments_.ptr, type_.ptr + first_owned_node(), field, component, c_, density_unit,
                                              velocity_unit, static_cast<float*>(dst));
    KS_CUDA_CHECK_LAUNCH();
    return bytes;
  }

  double momentum_rms() const override {
    const int planes = slab_.owned();
    with_state([&](const auto& state) {
      momentum_square_kernel<Real><<<planes, kReduceThreads>>>(first_owned_node(), plane(), state, type_.ptr, plane_sums_.ptr);
    });
    KS_CUDA_CHECK_LAUNCH();
    std::vector<double> per_plane(planes, 0.0);
    plane_sums_.download(per_plane.data(), per_plane.size());
    if (slab_.halo) per_plane = comm_.all_gather(per_plane);  // rank order is plane order
    double sum = 0.0;
    for (double v : per_plane) sum += v;
    return std::sqrt(sum / double(g_->lattice_fluid_nodes));
  }

  // The owned planes: rows of the held array at a pitch of its nodes.
  void read_f(std::vector<double>& f) const override {
    const std::size_t owned = owned_nodes(), rows = std::size_t(kSpecies) * kQ;
    std::vector<Storage> v(rows * owned);
    if (fused_) {
      read_fused_state(v);
    } else {
      KS_CUDA_CHECK(cudaMemcpy2D(v.data(), owned * sizeof(Storage), f_.ptr + first_owned_node(), held_.nodes() * sizeof(Storage),
                                 owned * sizeof(Storage), rows, cudaMemcpyDeviceToHost));
    }
    f.resize(v.size());
    for (std::size_t e = 0; e < v.size(); ++e) f[e] = decode(v[e], e / owned, first_owned_node() + e % owned);
  }
  void write_f(const std::vector<double>& f) override {
    const std::size_t owned = owned_nodes(), rows = std::size_t(kSpecies) * kQ;
    if (fused_) {
      // Under MPI the halo planes' state comes from the neighbours' end planes: the full-way rule sends
      // back what a wall node holds, and an owned node's wall neighbour may lie in a halo plane. Their
      // fluid nodes' entries are replaced by the neighbours' post-collision rows after the first step.
      const std::size_t first = first_owned_node(), P = std::size_t(plane());
      std::vector<double> below, above;
      if (slab_.halo) exchange_end_planes(f, below, above);
      write_fused_state([&](std::size_t row, std::size_t node) {
        if (node < first) return below[row * P + node];
        if (node - first >= owned) return above[row * P + node - first - owned];
        return f[row * owned + node - first];
      });
      return;
    }
    std::vector<Storage> v(f.size());
    for (std::size_t e = 0; e < v.size(); ++e) v[e] = encode(f[e], e / owned, first_owned_node() + e % owned);
    // Into both arrays, as at the start: the entries no step writes stay equal.
    for (DeviceBuffer<Storage>* b : {&f_, &next_})
      KS_CUDA_CHECK(cudaMemcpy2D(b->ptr + first_owned_node(), held_.nodes() * sizeof(Storage), v.data(), owned * sizeof(Storage),
                                 owned * sizeof(Storage), rows, cudaMemcpyHostToDevice));
  }

 private:
  long long plane() const { return (long long)c_.nx * c_.ny; }
  long long owned_nodes() const { return plane() * slab_.owned(); }
  long long first_owned_node() const { return plane() * slab_.first_owned(); }

  // The three kernels of a step (and under MPI the halo exchange, overlapped with the interior's
  // streaming); with `t`, each stage is timed with events (which serialises them, the exchange
  // counted in collide_stream).
  // Returns the steps launched: fewer once `interrupt` is requested. With a Runner's stop the host waits for
  // the device every kStepsInFlight steps, so that a request is seen within that many steps.
  int run(int steps, StageTimes* t, const Interrupt& interrupt = {}) {
    constexpr int kStepsInFlight = 8;
    cudaEvent_t start = nullptr, stop = nullptr;
    if (t) {
      KS_CUDA_CHECK(cudaEventCreate(&start));
      KS_CUDA_CHECK(cudaEventCreate(&stop));
    }
    auto timed = [&](double StageTimes::*stage, auto&& launch) {
      if (t) KS_CUDA_CHECK(cudaEventRecord(start));
      launch();
      KS_CUDA_CHECK_LAUNCH();
      if (!t) return;
      KS_CUDA_CHECK(cudaEventRecord(stop));
      KS_CUDA_CHECK(cudaEventSynchronize(stop));
      float ms = 0.0f;
      KS_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
      t->*stage += 1e-3 * ms;
    };
    int n = 0;
    for (; n < steps && !interrupt.requested(); ++n) {
      if (interrupt.armed() && n % kStepsInFlight == kStepsInFlight - 1) KS_CUDA_CHECK(cudaDeviceSynchronize());
      if (fused_) {  // the whole step is one kernel (and the halo rows): its time counts as collide_stream
        timed(&StageTimes::collide_stream, [&] { slab_.halo ? pull_step_exchanging() : pull_step(); });
        continue;
      }
      timed(&StageTimes::collide_stream, [&] { slab_.halo ? collide_stream_exchanging() : collide_stream(0, active_.count, nullptr); });
      if (c_.bounce_back == BounceBack::Interpolated && links_.count)
        timed(&StageTimes::bounce_back,
              [&] { bounce_back_kernel<<<ceil_div(links_.count, 256), 256>>>(links_.ptr, links_.count, plane(), view(next_)); });
      if (!c_.periodic_z())
        timed(&StageTimes::boundary, [&] {
          const long long plane_nodes = plane();
          if (slab_.owns(0))
            boundary_kernel<<<ceil_div(plane_nodes, 128), 128>>>(held_, inlet_, slab_.local(0), +1, view(next_), type_.ptr);
          if (slab_.owns(c_.nz - 1))
            boundary_kernel<<<ceil_div(plane_nodes, 128), 128>>>(held_, outlet_, slab_.local(c_.nz - 1), -1, view(next_), type_.ptr);
        });
      f_.swap(next_);
    }
    if (t) {
      cudaEventDestroy(start);
      cudaEventDestroy(stop);
    }
    return n;
  }

  // One fused step; the first from a pre-collision state collides it in place (lbm_cuda_pull.cuh).
  void pull_step() {
    const unsigned blocks = unsigned(ceil_div(2 * (long long)pull_.count(), 256));
    if (!blocks) return;
    if (in_place_) {
      in_place_step(blocks);
      return;
    }
    launch_pull(owned_fluid(), 0);
    finish_pull();
  }

  // Under MPI, from the owned planes' state f (rows at a pitch of the owned nodes): the state of the
  // held plane below them and of the one above, as the neighbours hold them (rows at a pitch of a plane).
  void exchange_end_planes(const std::vector<double>& f, std::vector<double>& below, std::vector<double>& above) const {
    const std::size_t P = std::size_t(plane()), owned = owned_nodes(), rows = std::size_t(kSpecies) * kQ;
    std::vector<double> first(rows * P), last(rows * P);
    for (std::size_t r = 0; r < rows; ++r) {
      std::copy_n(&f[r * owned], P, &first[r * P]);
      std::copy_n(&f[r * owned + owned - P], P, &last[r * P]);
    }
    below.resize(rows * P);
    above.resize(rows * P);
    comm_.ring_exchange(first.data(), last.data(), below.data(), above.data(), rows * P * sizeof(double));
  }

  // The fused step on the fluid nodes `r`, on `stream`: into f_ (the start) or next_.
  void launch_pull(NodeRange r, cudaStream_t stream) const {
    if (!r.count) return;
    if (!pulled_) {
      pull_start_kernel<<<r.blocks(256), 256, 0, stream>>>(pull_view(), params_, r);
      return;
    }
    // Without the table where every node is fluid, in FP32 and FP16 (the 128^3 box on an H200:
    // +6 % and +88 %); FP64 lost 6 % with it (bench_lbm, 2026-11-30).
    if constexpr (!std::is_same_v<Real, double>)
      if (all_fluid_) {
        pull_step_kernel<Real, Storage, true><<<r.blocks(256), 256, 0, stream>>>(pull_view(), params_, r);
        return;
      }
    pull_step_kernel<Real, Storage, false><<<r.blocks(256), 256, 0, stream>>>(pull_view(), params_, r);
  }
  // After launch_pull: f_ holds post(n + 1).
  void finish_pull() {
    if (pulled_) f_.swap(next_);
    pulled_ = true;
  }

  // Under MPI: the owned end planes step first on the halo stream, and the rows of their new
  // post-collision populations that the neighbours pull (c_z towards them) go into the neighbours'
  // halo planes while the interior steps on the default stream. The next step's end planes pull from
  // those halo planes once the rows are in.
  void pull_step_exchanging() {
    const int first = slab_.first_owned(), last = first + slab_.owned() - 1;
    KS_CUDA_CHECK(cudaEventRecord(step_done_, 0));
    KS_CUDA_CHECK(cudaStreamWaitEvent(halo_stream_, step_done_, 0));
    launch_pull(fluid_of_planes(first, first + 1), halo_stream_);
    if (last > first) launch_pull(fluid_of_planes(last, last + 1), halo_stream_);
    KS_CUDA_CHECK_LAUNCH();
    launch_pull(fluid_of_planes(first + 1, last), 0);
    Storage* written = pulled_ ? next_.ptr : f_.ptr;
    ring_->exchange(fused_rows(written, first, -1), fused_rows(written, last, +1), fused_rows(written, 0, +1),
                    fused_rows(written, slab_.planes() - 1, -1), halo_stream_);
    KS_CUDA_CHECK(cudaEventRecord(halo_done_, halo_stream_));
    KS_CUDA_CHECK(cudaStreamWaitEvent(0, halo_done_, 0));
    finish_pull();
  }

  // The kHaloRows rows (halo_row) of held plane z's fluid nodes in a fused-step array: each a run of
  // the table, since the end and halo planes' nodes are in index order.
  DeviceRows fused_rows(Storage* array, int z, int side) const {
    const std::size_t F = pull_.count();
    const NodeRange r = fluid_of_planes(z, z + 1);
    return {array + halo_row(0, side) * F + r.first, 3 * F * sizeof(Storage), r.count * sizeof(Storage), std::size_t(kHaloRows)};
  }
  // The fluid nodes of held planes [z0, z1) (none where z1 <= z0), and those of the owned planes.
  NodeRange fluid_of_planes(int z0, int z1) const {
    if (z1 <= z0) return {plane_fluid_[z0], 0};
    return {plane_fluid_[z0], plane_fluid_[z1] - plane_fluid_[z0]};
  }
  NodeRange owned_fluid() const { return fluid_of_planes(slab_.first_owned(), slab_.first_owned() + slab_.owned()); }

  // One in-place step from the array's layout, which it flips (lbm_cuda_in_place.cuh).
  void in_place_step(unsigned blocks) {
    const InPlaceStep<Real, Storage> p = in_place_view();
    if (odd_) {
      if (pulled_) in_place_step_kernel<true, true><<<blocks, 256>>>(p, params_);
      else in_place_step_kernel<true, false><<<blocks, 256>>>(p, params_);
    } else {
      if (pulled_) in_place_step_kernel<false, true><<<blocks, 256>>>(p, params_);
      else in_place_step_kernel<false, false><<<blocks, 256>>>(p, params_);
    }
    odd_ = !odd_;
    pulled_ = true;
  }

  // The stored state back to the written form (lbm_cuda_pull.cuh, lbm_cuda_in_place.cuh).
  void settle() {
    const long long threads = 2 * (long long)pull_.count();
    if (in_place_) {
      if (threads) in_place_settle_kernel<<<ceil_div(threads, 128), 128>>>(in_place_view(), odd_);
    } else {
      const NodeRange r = owned_fluid();  // pulls from the halo planes, whose rows the last step brought
      if (r.count) pull_settle_kernel<<<r.blocks(128), 128>>>(pull_view(), r);
      f_.swap(next_);
    }
    KS_CUDA_CHECK_LAUNCH();
    pulled_ = false;
  }

  PullStep<Real, Storage> pull_view() const {
    return {held_,
            first_held_plane(),
            c_.nz,
            view(f_),
            view(next_),
            pull_.table(),
            inlet_,
            outlet_,
            c_.bounce_back == BounceBack::Interpolated,
            NodeDivisors(held_)};
  }
  InPlaceStep<Real, Storage> in_place_view() const {
    return {held_,  view(f_), view(wall_, (long long)(wall_.count / kSpecies)), pull_.table(), pull_.first_solid.ptr,
            inlet_, outlet_,  c_.bounce_back == BounceBack::Interpolated};
  }

  // Runs `launch` with the state the moment kernels read.
  template <class Launch>
  void with_state(Launch&& launch) const {
    if (fused_) with_fused_state(launch);
    else launch(StoredState<Real, Storage>{view(f_), plane()});
  }
  // ... of the fused or in-place step.
  template <class Launch>
  void with_fused_state(Launch&& launch) const {
    if (in_place_) launch(InPlaceState<Real, Storage>{in_place_view(), odd_, pulled_});
    else launch(FusedState<Real, Storage>{pull_view(), pulled_});
  }

  // The paper's state of the owned planes from the fused step's, a block of nodes at a time, rows at a
  // pitch of the owned nodes.
  void read_fused_state(std::vector<Storage>& v) const {
    const long long N = owned_nodes(), first_owned = first_owned_node(), block = std::min<long long>(N, kStateBlockNodes);
    DeviceBuffer<Storage> out;
    out.resize(std::size_t(kSpecies) * kQ * block);
    View o = view(out);
    for (long long done = 0; done < N; done += block) {
      o.N = std::min(block, N - done);
      with_fused_state([&](const auto& state) {
        lattice_state_kernel<<<ceil_div(kSpecies * o.N, 128), 128>>>(state, initial_.ptr, first_owned + done, o);
      });
      KS_CUDA_CHECK_LAUNCH();
      KS_CUDA_CHECK(cudaMemcpy2D(v.data() + done, N * sizeof(Storage), out.ptr, o.N * sizeof(Storage), o.N * sizeof(Storage),
                                 std::size_t(kSpecies) * kQ, cudaMemcpyDeviceToHost));
    }
  }

  // The paper's state, f(row, node) for row s * 27 + i, into the fused step's arrays: the fluid
  // nodes' populations into f_, and into next_'s entries d of each solid source x - c_i (d =
  // opposite(i)) what that wall node holds in d, which the full-way rule sends back next (the
  // in-place step: into its wall values, layout E).
  template <class State>
  void write_fused_state(const State& f) {
    const std::size_t F = pull_.count(), rows = std::size_t(kSpecies) * kQ;
    const std::vector<std::uint32_t> node = pull_.node.to_host(), solid = pull_.solid.to_host();
    std::vector<Storage> written(rows * F);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t a = 0; a < F; ++a) written[r * F + a] = encode(f(r, node[a]), r, node[a]);
    f_.upload(written);
    pulled_ = false;
    if (in_place_) {
      const std::size_t W = wall_.count / kSpecies;
      std::vector<Storage> wall(wall_.count);
      for_each_sent_back(f, node, solid, [&](std::size_t, std::size_t l, std::size_t r, Storage v) { wall[r / kQ * W + l] = v; });
      wall_.upload(wall);
      odd_ = false;  // layout E
      return;
    }
    // The same array, with the wall nodes' entries in place, for next_ (one host copy of the state).
    std::vector<Storage>& sent_back = written;
    for_each_sent_back(f, node, solid, [&](std::size_t a, std::size_t, std::size_t r, Storage v) { sent_back[r * F + a] = v; });
    next_.upload(sent_back);
  }

  // For each solid source y = x - c_i of fluid node x = node[a] (the l-th, counted in node and then
  // direction order) and each species, put(a, l, r, v): v is what y holds in row r = (s * 27 +
  // opposite(i)) of the paper's state f(row, node), which the full-way rule sends back next, coded at
  // x's plane.
  template <class State, class Put>
  void for_each_sent_back(const State& f, const std::vector<std::uint32_t>& node, const std::vector<std::uint32_t>& solid,
                          Put&& put) const {
    std::size_t l = 0;
    for (std::size_t a = 0; a < node.size(); ++a) {
      if (!solid[a]) continue;
      int x, y, z;
      node_position(held_, node[a], x, y, z);
      for (int i = 0; i < kQ; ++i) {
        if (!(solid[a] >> i & 1u)) continue;
        const std::size_t wall = std::size_t(neighbour(held_, x, y, z, opposite(i)));
        for (int s = 0; s < kSpecies; ++s) {
          const std::size_t r = std::size_t(s) * kQ + opposite(i);
          put(a, l, r, encode(f(r, wall), r, node[a]));
        }
        ++l;
      }
    }
  }

  // Active nodes [begin, end) of the list.
  void collide_stream(std::size_t begin, std::size_t end, cudaStream_t stream) {
    if (end <= begin) return;
    const std::uint32_t count = std::uint32_t(end - begin);
    collide_stream_kernel<<<ceil_div(2 * (long long)count, 256), 256, 0, stream>>>(held_, params_, view(f_), view(next_), type_.ptr,
                                                                                   active_.ptr + begin, count);
  }

  // The end planes stream on the halo stream and their halo rows go to the neighbours while the
  // interior planes stream on the default stream; the rows from the neighbours come back into the end
  // planes (other entries than the interior writes) before the default stream goes on.
  void collide_stream_exchanging() {
    const std::size_t N = held_.nodes(), P = std::size_t(plane());
    // kHaloRows rows of a plane, every third row of the [(s * 27 + i)][node] array (halo_row).
    const auto rows = [&](Storage* plane_start, int side) {
      return DeviceRows{plane_start + halo_row(0, side) * N, 3 * N * sizeof(Storage), P * sizeof(Storage), std::size_t(kHaloRows)};
    };
    Storage* lower = next_.ptr;                             // halo plane below (c_z = -1 rows)
    Storage* upper = next_.ptr + (slab_.planes() - 1) * P;  // halo plane above (c_z = +1 rows)
    Storage* first = next_.ptr + first_owned_node();        // gets c_z = +1 rows from below
    Storage* last = next_.ptr + (slab_.planes() - 2) * P;   // gets c_z = -1 rows from above
    KS_CUDA_CHECK(cudaEventRecord(step_done_, 0));
    KS_CUDA_CHECK(cudaStreamWaitEvent(halo_stream_, step_done_, 0));
    collide_stream(0, edge_count_, halo_stream_);
    KS_CUDA_CHECK_LAUNCH();
    collide_stream(edge_count_, active_.count, 0);
    ring_->exchange(rows(lower, -1), rows(upper, +1), rows(first, +1), rows(last, -1), halo_stream_);
    KS_CUDA_CHECK(cudaEventRecord(halo_done_, halo_stream_));
    KS_CUDA_CHECK(cudaStreamWaitEvent(0, halo_done_, 0));
  }

  // A population array [(s * 27 + i) * N + k] (N from its size), or with N given, any array of values
  // coded as its populations (the in-place step's per-link values).
  View view(const DeviceBuffer<Storage>& b, long long N = -1) const {
    View v{b.ptr, N >= 0 ? N : (long long)(b.count / (std::size_t(kSpecies) * kQ)), {}, Real(rest_slope_), first_held_plane()};
    std::copy(&rest_[0][0], &rest_[0][0] + kSpecies * kQ, &v.rest[0][0]);
    return v;
  }

  // FP16 keeps f - f0 (see Populations); f0 from the state the run starts in (at rest, the pressure
  // falling linearly from the inlet's to the outlet's along z), fixed from then on.
  void set_rest_populations(const LbmConfig& c) {
    if (!View::kCompressed) return;
    double in[kSpecies];
    mixture_densities(c, c.x_o2, inlet_pressure(c), in);
    const double u0[3] = {0.0, 0.0, 0.0};
    for (int s = 0; s < kSpecies; ++s) {
      const Product<double> rest(u0, c.theta(s), c.lattice_species(s));
      for (int i = 0; i < kQ; ++i) rest_[s][i] = Real(rest(in[s], i));
    }
    rest_slope_ = c.periodic_z() ? 0.0f : float((c.pressure_ratio - 1.0) / (c.nz - 1.0));
  }
  // A value of row (s * 27 + i) of the populations of held node `node` on the host.
  double decode(Storage v, std::size_t row, std::size_t node) const {
    if constexpr (View::kCompressed) return double(rest_f0(row, node)) + double(__half2float(v));
    else return double(v);
  }
  Storage encode(double f, std::size_t row, std::size_t node) const {
    if constexpr (View::kCompressed) return __float2half_rn(float(f - rest_f0(row, node)));
    else return Storage(f);
  }
  float rest_f0(std::size_t row, std::size_t node) const {
    return ks::lbm::rest_f0(float(rest_[row / kQ][row % kQ]), rest_slope_, first_held_plane() + int(node / std::size_t(plane())));
  }
  // The global plane of held plane 0, unwrapped (f0's planes on every rank agree with one process's).
  int first_held_plane() const { return slab_.begin - slab_.halo; }

  // Fluid and wall nodes of the owned planes in index order (grouping the wall nodes at the end
  // measured 5 % slower: the wall nodes' scattered stores then no longer overlap the fluid nodes'
  // streaming). Under MPI the two end planes come first (edge_count_ of them), then the interior.
  void upload_active_nodes() {
    std::vector<std::uint32_t> edge, inner;
    const int z0 = slab_.first_owned(), z1 = z0 + slab_.owned() - 1;
    const std::size_t P = std::size_t(plane());
    for (std::size_t k = P * z0; k < P * (z1 + 1); ++k) {
      if (g_->type[k] == kInterior) continue;
      const int z = int(k / P);
      (slab_.halo && (z == z0 || z == z1) ? edge : inner).push_back(std::uint32_t(k));
    }
    edge_count_ = edge.size();
    edge.insert(edge.end(), inner.begin(), inner.end());
    active_.upload(edge);
  }

  // The table with the owned planes between the end planes in tiles' order (lbm_pull_nodes.hpp); where
  // every node is fluid, in index order, which the step without the table takes.
  void upload_pull_table() {
    const int first = slab_.first_owned(), last = first + slab_.owned() - 1;
    all_fluid_ = std::count(g_->type.begin(), g_->type.end(), kFluid) == held_.nodes();
    const PullNodes p = all_fluid_ ? pull_nodes(held_, *g_) : pull_nodes(held_, *g_, first + 1, last);
    plane_fluid_ = plane_starts(held_, p);
    pull_.node.upload(p.node);
    pull_.solid.upload(p.solid);
    pull_.linked.upload(p.linked);
    pull_.first_link.upload(p.first_link);
    if (in_place_) {
      pull_.first_solid.upload(p.first_solid);
      wall_.resize(kSpecies * p.solid_sources);
    }
    pull_.delta.upload(std::vector<Real>(p.delta.begin(), p.delta.end()));
    pull_.slot.upload(p.slot);
    if (!in_place_ && pulls_from_sources(sizeof(Storage)))
      pull_.source.upload(pull_sources(held_, p));  // pull(): the steps, settle, read_f
    const std::vector<double> initial = initial_plane_populations(c_, slab_);
    initial_.upload(std::vector<Real>(initial.begin(), initial.end()));
  }

  // Links by direction, then fluid node: neighbouring threads then read and write neighbouring
  // entries of one population array. Each link writes its own entry, so the order is free.
  void upload_links() {
    std::vector<WallLink> links = g_->links;
    std::stable_sort(links.begin(), links.end(), [](const WallLink& a, const WallLink& b) { return a.dir < b.dir; });
    links_.upload(links);
  }

  LbmConfig c_, held_;  // the whole lattice; the planes this process holds
  Slab slab_;
  const Communicator& comm_;
  CollisionParams<Real> params_;
  PlaneDensities<Real> inlet_, outlet_;
  std::shared_ptr<const LatticeGeometry> g_;
  Real rest_[kSpecies][kQ] = {};  // f0 of the FP16 storage at plane 0 ...
  float rest_slope_ = 0.0f;       // ... and its relative change per plane
  DeviceBuffer<Storage> f_, next_;
  DeviceBuffer<std::uint8_t> type_;
  DeviceBuffer<std::uint32_t> active_;  // fluid and wall nodes: the end planes' (under MPI), then the rest
  std::size_t edge_count_ = 0;
  DeviceBuffer<WallLink> links_;
  // The fused step: its table, and whether f_ holds post-collision populations.
  const bool fused_;
  // The in-place step: f_ is its one array (next_ is not allocated), its layout (O if odd_), and the
  // value it keeps per solid source and species (wall_).
  const bool in_place_;
  bool odd_ = false;
  DeviceBuffer<Storage> wall_;
  struct DevicePullNodes {
    DeviceBuffer<std::uint32_t> node, solid, linked, first_link, first_solid, slot, source;
    DeviceBuffer<Real> delta;
    std::uint32_t count() const { return std::uint32_t(node.count); }
    PullTable<Real> table() const { return {node.ptr, solid.ptr, linked.ptr, first_link.ptr, delta.ptr, slot.ptr, source.ptr, count()}; }
  } pull_;
  DeviceBuffer<Real> initial_;              // initial_plane_populations: what read_f gives where no fluid node streams
  std::vector<std::uint32_t> plane_fluid_;  // per held plane and one past the last: its first fluid node in the table
  bool all_fluid_ = false;                  // every held node is fluid: the step reads no table (pull_all_fluid)
  bool pulled_ = false;
  mutable DeviceBuffer<double> plane_sums_;  // momentum_rms's, one per owned plane
  mutable DeviceBuffer<double> moments_;     // those of the last moments(), which write_display_field shows
  // Under MPI: the exchange of the halo rows and the stream that moves them.
  std::unique_ptr<DeviceRing> ring_;
  cudaStream_t halo_stream_ = nullptr;
  cudaEvent_t step_done_ = nullptr, halo_done_ = nullptr;
};

}  // namespace

std::unique_ptr<LbmSolver> make_cuda_solver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g, int device, const Slab& slab,
                                            const Communicator& comm) {
  switch (c.precision) {
    case Precision::Fp16: return std::make_unique<CudaSolver<float, __half>>(c, std::move(g), device, slab, comm);
    case Precision::Fp32: return std::make_unique<CudaSolver<float, float>>(c, std::move(g), device, slab, comm);
    case Precision::Fp64: break;
  }
  return std::make_unique<CudaSolver<double, double>>(c, std::move(g), device, slab, comm);
}

}  // namespace ks::lbm
