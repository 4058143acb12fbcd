// GPU inverse Monte Carlo with smart bookkeeping (Wei & Kruis 2013, Algorithms 1-3).
// The paper launches several sub-kernels per event; here the whole event loop stays in
// one kernel. A run is one thread-block cluster of G blocks (G = 1 for ensembles that
// fill the GPU with runs, up to 16 for one large run); block r owns a contiguous slice of
// the particles, each of its warps a chunk of the slice and each lane a run of the chunk.
// Blocks push their sums (chunk prefixes, totals) into every block's shared memory; warp 0 of
// every block makes the same selection from them, reading only the chosen chunk's run prefix
// and the chosen run from its owner through distributed shared memory. A choice so needs no
// barrier to be shared, and an event costs two run barriers and no host round trip.
// With selection = rejection (rejection_kernel) warp 0 draws the pair by acceptance-rejection
// against bounds instead (pair_rejection.hpp): no prefix sums, no row of i, one run barrier.
#include "inverse_mc_cuda.hpp"

#include <cooperative_groups.h>

#include <algorithm>

#include "core/ceil_div.hpp"
#include "core/checked.hpp"
#include "core/cuda_check.hpp"
#include "core/cuda_shared_memory.hpp"
#include "core/device_buffer.hpp"
#include "core/errors.hpp"
#include "pair_rejection.hpp"

namespace ks::coag {

namespace {

namespace cg = cooperative_groups;

constexpr int kBlock = 512;
constexpr int kWarps = kBlock / 32;
constexpr int kMaxCluster = 16;              // non-portable cluster size on Hopper
// Particles a block should own at most, tuned on the H100 (bench --cluster-sweep): the inverse
// transform's event is a few long barriers, the rejection's mostly the update, which gains from
// more blocks sooner.
constexpr int kTargetParticlesPerBlock = 1024;
constexpr int kTargetParticlesPerBlockRejection = 512;
constexpr unsigned kFullMask = 0xffffffffu;

struct Arrays {
  double* v;
  double* w;
  double* C;
  ParticleAux* aux;
  double* row_or_next;  // a fourth value per particle: the row of i (prefix) or the second buffer of C' (rejection)
  double* t;
  unsigned long long* events;
  unsigned long long* since_refresh;
  const double* t_target;
  unsigned long long* done;
};

// A block's scratch, and the sums the other blocks of its run read (through distributed shared
// memory) between the two barriers of an event.
struct Shared {
  double pair[2][kWarps];      // per-warp shares of the new rows of i and j (block-local)
  // [0] C', [1] row of i: within each warp chunk, the inclusive prefix over its lanes' runs
  double lane_incl[2][kWarps][32];
  // Pushed by every block q of the run into every block's copy at [q], so that selections
  // read them locally: the inclusive prefix over q's warp chunks and q's sum ...
  struct Sums {
    double incl[kWarps];
    double total;
  } pushed[2][kMaxCluster];
  double partial[kMaxCluster][2];  // ... and q's shares of the new pair's row sums
  // warp 0's choice, for the rest of the block
  int picked;
  bool stop;
  double dt;
  double picked_w;
  ParticleAux picked_aux;
};

// A run is a cluster of blocks (kClustered) or one block: barriers and shared-memory
// access across the run go through here, so one block pays no cluster-scope fences.
template <bool kClustered>
struct Run;

template <>
struct Run<false> {
  int blocks = 1, rank = 0;
  __device__ void sync() const { __syncthreads(); }
  // sync() in two halves, so that a thread can work between arriving and waiting (one block:
  // the whole barrier at arrive()).
  __device__ void arrive() const { __syncthreads(); }
  __device__ void wait() const {}
  template <class T>
  __device__ T* peer(T* local, int) const {
    return local;
  }
};

// Thread-block clusters and distributed shared memory exist from sm_90. Code built for an older
// architecture keeps a clustered instance that traps; the host never launches it there
// (clusters_usable(): a run is then one block, with the same events for the same seed).
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
template <>
struct Run<true> {
  cg::cluster_group cluster;
  int blocks, rank;
  __device__ Run() : cluster(cg::this_cluster()), blocks(int(cluster.num_blocks())), rank(int(cluster.block_rank())) {}
  __device__ void sync() const { cluster.sync(); }
  __device__ void arrive() const { asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory"); }
  __device__ void wait() const { asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); }
  template <class T>
  __device__ T* peer(T* local, int q) const {
    return cluster.map_shared_rank(local, q);
  }
};
#else
template <>
struct Run<true> : Run<false> {
  __device__ Run() { __trap(); }
};
#endif

// The largest of a warp's 32 values: one instruction from sm_80, a shuffle tree before it.
__device__ std::uint32_t warp_max(std::uint32_t x) {
#if __CUDA_ARCH__ >= 800
  return __reduce_max_sync(kFullMask, x);
#else
  for (int o = 16; o > 0; o >>= 1) x = max(x, __shfl_xor_sync(kFullMask, x, o));
  return x;
#endif
}

// Where a particle sits: block, warp chunk and lane run, as rank = warp * 32 + lane.
struct Position {
  int block = -1, rank = 0;
};

// How a run's n particles are split, all contiguous and in index order: block b owns a slice,
// each of its warps a chunk of the slice and each lane a run of the chunk.
struct Layout {
  int n, per_block;
  __device__ int lo(int b) const { return min(b * per_block, n); }
  __device__ int hi(int b) const { return min((b + 1) * per_block, n); }
  __device__ int owner(int k) const { return k / per_block; }
  __device__ int per_warp(int b) const { return ceil_div(hi(b) - lo(b), kWarps); }
  __device__ int chunk_lo(int b, int w) const { return min(lo(b) + w * per_warp(b), hi(b)); }
  __device__ int chunk_hi(int b, int w) const { return min(chunk_lo(b, w) + per_warp(b), hi(b)); }
  __device__ int per_lane(int b, int w) const { return ceil_div(chunk_hi(b, w) - chunk_lo(b, w), 32); }
  __device__ int run_lo(int b, int w, int l) const { return min(chunk_lo(b, w) + l * per_lane(b, w), chunk_hi(b, w)); }
  __device__ int run_hi(int b, int w, int l) const { return min(run_lo(b, w, l) + per_lane(b, w), chunk_hi(b, w)); }
  __device__ Position position(int k) const {
    const int b = owner(k), w = (k - lo(b)) / per_warp(b);
    return {b, w * 32 + (k - chunk_lo(b, w)) / per_lane(b, w)};
  }
};

// Where a run's particle data lives during a launch. Resident: each block copies its slice
// into shared memory at the start and back at the end, and other blocks read it through
// distributed shared memory. Otherwise the run's global arrays are used directly (runs too
// large for shared memory).
template <bool kClustered, bool kResident>
struct Store {
  const Run<kClustered>& run;
  Layout layout;
  ParticleAux* aux;
  double* w;
  double* C;
  double* row_or_next;  // prefix: beta_ik pair_weight(w_i, w_k) of the selected i; rejection: the second buffer of C'
  int lo;               // resident: the first particle of this block's slice
  template <class T>
  __device__ T& local(T* a, int k) const {  // particle k of this block's slice
    if constexpr (kResident) return a[k - lo];
    else return a[k];
  }
  template <class T>
  __device__ T& any(T* a, int k) const {  // particle k of the run, in whichever block owns it
    if constexpr (kResident) {
      const int b = layout.owner(k);
      return run.peer(a, b)[k - b * layout.per_block];
    } else {
      return a[k];
    }
  }
};

// done of a run whose pair selection gave up (selection by rejection with non-finite rates).
constexpr unsigned long long kRunFailed = ~0ull;

// A run's time and event counters during a launch (in every thread of the run).
struct RunClock {
  double t, t_target;
  unsigned long long ev, since, done;  // events so far (the RNG counter), since the last refresh, in this launch
  __device__ static RunClock load(const Arrays& a, int run_index) {
    return {a.t[run_index], a.t_target[run_index], a.events[run_index], a.since_refresh[run_index], 0};
  }
};

// The block's view of its run: with kResident its slice is copied into the dynamic shared memory
// (aux, w, C' and one more array per particle: the row of i or the second buffer of C').
template <bool kClustered, bool kResident>
__device__ Store<kClustered, kResident> open_store(const Run<kClustered>& run, const Layout& L, const Arrays& a,
                                                   std::size_t base, unsigned char* resident) {
  Store<kClustered, kResident> s{run, L, a.aux + base, a.w + base, a.C + base, a.row_or_next + base, 0};
  if constexpr (kResident) {
    s.aux = reinterpret_cast<ParticleAux*>(resident);
    s.w = reinterpret_cast<double*>(s.aux + L.per_block);
    s.C = s.w + L.per_block;
    s.row_or_next = s.C + L.per_block;
    s.lo = L.lo(run.rank);
    for (int k = L.lo(run.rank) + threadIdx.x; k < L.hi(run.rank); k += kBlock) {
      s.local(s.aux, k) = a.aux[base + k];
      s.local(s.w, k) = a.w[base + k];
      s.local(s.C, k) = a.C[base + k];
    }
    __syncthreads();
  }
  return s;
}

// Writes the block's slice back (C' from `C`, the buffer holding the current rates) and the run's
// counters; no block leaves while others may still read its shared memory.
template <bool kClustered, bool kResident>
__device__ void close_store(const Store<kClustered, kResident>& s, const Arrays& a, std::size_t base, const double* C,
                            int run_index, const RunClock& c) {
  __syncthreads();
  const Layout& L = s.layout;
  for (int k = L.lo(s.run.rank) + threadIdx.x; k < L.hi(s.run.rank); k += kBlock) {
    const ParticleAux ak = s.local(s.aux, k);
    if constexpr (kResident) {
      a.aux[base + k] = ak;
      a.w[base + k] = s.local(s.w, k);
    }
    a.v[base + k] = ak.v;  // the global arrays' v follows aux
    if (kResident || C != a.C + base) a.C[base + k] = s.local(C, k);
  }
  if (s.run.rank == 0 && threadIdx.x == 0) {
    a.t[run_index] = c.t;
    a.events[run_index] = c.ev;
    a.since_refresh[run_index] = c.since;
    a.done[run_index] = c.done;
  }
  s.run.sync();
}

// The last event's pair: the chunk sums of C' left it out; its new C' (value) is known only
// once every block's share of its rows is in (after the next barrier).
struct Pending {
  int k[2] = {-1, -1};
  double value[2] = {0.0, 0.0};
  Position at[2];
  // The pair's C' that falls in block b's lane runs of ranks [first, last].
  __device__ double added(int b, int first, int last) const {
    double x = 0.0;
    for (int c = 0; c < 2; ++c)
      if (at[c].block == b && at[c].rank >= first && at[c].rank <= last) x += value[c];
    return x;
  }
};

// Inclusive prefix sum over the lanes of a warp.
__device__ double warp_inclusive_scan(double x) {
  const int lane = threadIdx.x & 31;
  for (int o = 1; o < 32; o <<= 1) {
    const double y = __shfl_up_sync(kFullMask, x, o);
    if (lane >= o) x += y;
  }
  return x;
}

// Sum over the lanes of a warp; every lane gets the same bits (addition commutes).
__device__ double warp_sum(double x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(kFullMask, x, o);
  return x;
}

// Lane `from`'s particle state, in every lane.
__device__ ParticleAux shfl_aux(const ParticleAux& a, int from) {
  return {__shfl_sync(kFullMask, a.v, from), __shfl_sync(kFullMask, a.d, from), __shfl_sync(kFullMask, a.a, from),
          __shfl_sync(kFullMask, a.c, from), __shfl_sync(kFullMask, a.g, from)};
}

// Every thread merges the chosen pair in registers (coalesce()): the new states, weights and the
// pair's own kernel term beta_ij pair_weight(w_i, w_j).
__device__ void coalesce_pair(const ParticleAux& ai, const ParticleAux& aj, double wi_old, double wj_old,
                              const KernelParams& kp, ParticleAux& ni, ParticleAux& nj, double& wi, double& wj,
                              double& rij) {
  double vi = ai.v, vj = aj.v;
  wi = wi_old;
  wj = wj_old;
  coalesce(vi, wi, vj, wj);
  ni = make_aux(vi, kp);
  nj = make_aux(vj, kp);
  rij = beta(ni, nj, kp) * pair_weight(wi, wj);
}

// Warp 0, after the barrier that brought every block's shares (share_i, share_j: lane q's of block
// q) of the last pair's new rows: completes the pair's C' (eq. 6) and has the pair's owners write
// it back (aux, w, and C' into the buffer C).
template <bool kClustered, bool kResident>
__device__ void complete_pending(const Store<kClustered, kResident>& s, Pending& pend, double* C, double share_i,
                                 double share_j, const ParticleAux& ni, const ParticleAux& nj, double wi, double wj,
                                 double rij) {
  pend.value[0] = 2.0 * wi * (rij + warp_sum(share_i));
  pend.value[1] = 2.0 * wj * (rij + warp_sum(share_j));
  if ((threadIdx.x & 31) != 0) return;
  for (int c = 0; c < 2; ++c) {
    const int k = pend.k[c];
    if (pend.at[c].block != s.run.rank) continue;
    s.local(s.aux, k) = c == 0 ? ni : nj;
    s.local(s.w, k) = c == 0 ? wi : wj;
    s.local(C, k) = pend.value[c];
  }
}

// Eq. (2) for the block's slice into C, once every particle's new state is visible.
template <bool kClustered, bool kResident>
__device__ void recompute_slice_rates(const Store<kClustered, kResident>& s, const KernelParams& kp, double* C) {
  const Layout& L = s.layout;
  for (int k = L.lo(s.run.rank) + threadIdx.x; k < L.hi(s.run.rank); k += kBlock) {
    const ParticleAux ak = s.local(s.aux, k);
    const double wk = s.local(s.w, k);
    double sum = 0.0;
    for (int l = 0; l < L.n; ++l)
      if (l != k) sum += beta(ak, s.any(s.aux, l), kp) * weight_factor(wk, s.any(s.w, l));
    s.local(C, k) = sum;
  }
}

// Inverse transform (eq. 5a, 5b) over value(k), k in [0, n), in index order, by one warp.
// Warp 0 of every block runs it on the same data and gets the same pick, so the choice needs
// no barrier to be shared. Lanes read, in parallel, the blocks' totals (lane q's of block q)
// and the chosen block's chunk prefix from the local pushed copies, then the chosen chunk's
// lane-run prefix and last the chosen run's values and states from the owner. As on the CPU,
// values <= 0 are skipped and rounding past a run's end takes its last positive value.
// The pick's state comes back in picked_aux, picked_w.
template <bool kClustered, bool kResident, class Value, class State>
__device__ int warp_select(const Store<kClustered, kResident>& s, Shared& sh, int sel, const Pending& pend, double u,
                           Value value, State state, ParticleAux& picked_aux, double& picked_w, double& total) {
  const int lane = threadIdx.x & 31;
  const Layout& L = s.layout;
  const int blocks = s.run.blocks;
  // The first of `ends` (lanes < count) above the target; ends[-1] is `before`.
  const auto first_above = [&](double target, double ends, int count, double before, double& lower) {
    const unsigned above = __ballot_sync(kFullMask, lane < count && target < ends);
    const int q = above ? __ffs(above) - 1 : count - 1;
    const double prev = __shfl_sync(kFullMask, ends, max(q - 1, 0));
    lower = q > 0 ? prev : before;
    return q;
  };
  const double block_sum = lane < blocks ? sh.pushed[sel][lane].total + pend.added(lane, 0, kBlock - 1) : 0.0;
  const double block_end = warp_inclusive_scan(block_sum);
  total = __shfl_sync(kFullMask, block_end, blocks - 1);
  const double target = fmin(u * total, nextafter(total, 0.0));
  double start;
  const int b = first_above(target, block_end, blocks, 0.0, start);
  // The last chunk ends where the block does, and the last run where its chunk does.
  double chunk_end = __shfl_sync(kFullMask, block_end, b);
  if (lane < kWarps - 1) chunk_end = start + (sh.pushed[sel][b].incl[lane] + pend.added(b, 0, 32 * lane + 31));
  const int w = first_above(target, chunk_end, kWarps, start, start);
  double run_end = __shfl_sync(kFullMask, chunk_end, w);
  if (lane < 31) run_end = start + (s.run.peer(&sh, b)->lane_incl[sel][w][lane] + pend.added(b, 32 * w, 32 * w + lane));
  const int r = first_above(target, run_end, 32, start, start);
  const int lo = L.run_lo(b, w, r), hi = L.run_hi(b, w, r);
  double acc = start;
  int last_positive = lo;
  for (int first = lo; first < hi; first += 32) {
    const int k = first + lane;
    ParticleAux ak{};
    double wk = 0.0;
    const double x = k < hi ? value(k) : 0.0;
    if (k < hi) state(k, ak, wk);  // loaded with the values: no further round trip
    const bool positive = x > 0.0;
    const double sum = warp_inclusive_scan(positive ? x : 0.0);
    const unsigned hit = __ballot_sync(kFullMask, positive && target < acc + sum);
    if (hit) {
      const int from = __ffs(hit) - 1;
      picked_aux = shfl_aux(ak, from);
      picked_w = __shfl_sync(kFullMask, wk, from);
      return first + from;
    }
    const unsigned any_positive = __ballot_sync(kFullMask, positive);
    if (any_positive) last_positive = first + 31 - __clz(any_positive);
    acc += __shfl_sync(kFullMask, sum, 31);
  }
  state(last_positive, picked_aux, picked_w);
  return last_positive;
}

// Warp 0, after each warp published its lane-run prefix (entry 31: its chunk's sum): the
// block's prefix and sum of `sel`, pushed into every block of the run.
template <bool kClustered>
__device__ void finish_block_prefix(const Run<kClustered>& run, Shared& sh, int sel) {
  const int lane = threadIdx.x & 31;
  const double incl = warp_inclusive_scan(lane < kWarps ? sh.lane_incl[sel][lane][31] : 0.0);
  Shared::Sums& mine = sh.pushed[sel][run.rank];
  if (lane < kWarps) mine.incl[lane] = incl;
  if (lane == kWarps - 1) mine.total = incl;
  __syncwarp();
  constexpr int kCount = kWarps + 1;
  const double* from = &mine.incl[0];
  for (int e = lane; e < run.blocks * kCount; e += 32) {
    const int q = e / kCount;
    if (q != run.rank) (&run.peer(&sh, q)->pushed[sel][run.rank].incl[0])[e % kCount] = from[e % kCount];
  }
}

// Each lane's sum over its run goes into the block's prefixes of `sel` (the block's warps all call it).
template <bool kClustered>
__device__ void publish_prefix(const Run<kClustered>& run, Shared& sh, int sel, double run_sum) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const double incl = warp_inclusive_scan(run_sum);
  sh.lane_incl[sel][warp][lane] = incl;
  __syncthreads();
  if (warp == 0) finish_block_prefix(run, sh, sel);
}

// Each lane sums value(k) over its run of the block's slice, into the block's prefixes of `sel`.
template <bool kClustered, class Value>
__device__ void block_prefix(const Run<kClustered>& run, const Layout& L, Shared& sh, int sel, Value value) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  double s = 0.0;
  for (int k = L.run_lo(run.rank, warp, lane); k < L.run_hi(run.rank, warp, lane); ++k) s += value(k);
  publish_prefix(run, sh, sel, s);
}

__global__ void __launch_bounds__(kBlock) make_aux_kernel(const double* v, ParticleAux* aux, std::size_t count,
                                                          KernelParams kp) {
  const std::size_t k = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (k < count) aux[k] = make_aux(v[k], kp);
}

constexpr int kResidentBytesPerParticle = sizeof(ParticleAux) + 3 * sizeof(double);  // aux, w, C, row_or_next
constexpr int kResidentMaxParticles = 3200;  // 3200 * 64 B = 200 KB of the 227 KB a block may have on Hopper

// The event loops' kKind >= 0 fixes the kernel kind at compile time (the switch in beta() and
// make_aux() folds away: n_s 12000 with rejection 0.94 s -> 0.82 s on the H100); kAnyKind reads it
// from kp.
constexpr int kAnyKind = -1;

// The event loop. An event costs two run barriers:
//   B1  every block's C' prefix and its share of the last pair's new rows are in. Warp 0 of
//       every block completes the last pair's C' (eq. 6), selects i (eq. 5a) and the waiting
//       time (eq. 4); the owners write the last pair back. Each lane computes its run of the
//       row of i; the block's prefix is published and its sums pushed to every block.
//   B2  every block's row prefix is in. Warp 0 selects j (eq. 5b). Every thread coalesces the
//       pair in registers; each lane updates C'_k of its run (Algorithm 3, eq. 6), summing
//       the new C' and the shares of the new rows of i and j, which are pushed likewise.
template <bool kClustered, bool kResident, int kKind>
__global__ void __launch_bounds__(kBlock) advance_kernel(Arrays a, int n, double box_volume, KernelParams kp,
                                                         unsigned long long seed, unsigned long long refresh_every,
                                                         unsigned long long max_events) {
  if constexpr (kKind != kAnyKind) kp.kind = KernelKind(kKind);
  __shared__ Shared sh;
  extern __shared__ __align__(16) unsigned char resident[];
  const Run<kClustered> run;
  const int warp = threadIdx.x >> 5;
  const int run_index = blockIdx.x / run.blocks;
  const Layout L{n, ceil_div(n, run.blocks)};
  const std::size_t base = std::size_t(run_index) * n;
  const Store<kClustered, kResident> s = open_store<kClustered, kResident>(run, L, a, base, resident);
  const PhiloxStream rng = run_stream(seed, run_index);
  RunClock c = RunClock::load(a, run_index);
  auto& [t, t_target, ev, since, done] = c;

  block_prefix(run, L, sh, 0, [&](int k) { return s.local(s.C, k); });
  // Warp 0 shares its pick (a particle of the run) and the pick's state with the block.
  const auto share_pick = [&](int k, const ParticleAux& ak, double wk) {
    if ((threadIdx.x & 31) == 0) {
      sh.picked = k;
      sh.picked_aux = ak;
      sh.picked_w = wk;
    }
  };
  Pending pend;                   // warp 0's view of the last pair
  ParticleAux ni{}, nj{};         // the last pair's new states, in every thread
  double wi = 0.0, wj = 0.0, rij = 0.0, u_j = 0.0;
  while (true) {
    run.sync();  // B1
    if (warp == 0 && pend.k[0] >= 0) {
      const bool in_run = (threadIdx.x & 31) < run.blocks;
      complete_pending(s, pend, s.C, in_run ? sh.partial[threadIdx.x & 31][0] : 0.0,
                       in_run ? sh.partial[threadIdx.x & 31][1] : 0.0, ni, nj, wi, wj, rij);
    }
    if (since >= refresh_every) {
      run.sync();
      recompute_slice_rates(s, kp, s.C);
      __syncthreads();
      block_prefix(run, L, sh, 0, [&](int k) { return s.local(s.C, k); });
      pend = Pending{};
      since = 0;
      run.sync();
    }
    if (done >= max_events) break;

    if (warp == 0) {
      double u_i, total;
      rng.uniform2(ev, kPurposeEvent, u_i, u_j);
      ParticleAux ai;
      double wi_old;
      // The last pair's owners may be writing it back just now: its values come from registers.
      const int i = warp_select(
          s, sh, 0, pend, u_i,
          [&](int k) { return k == pend.k[0] ? pend.value[0] : k == pend.k[1] ? pend.value[1] : s.any(s.C, k); },
          [&](int k, ParticleAux& ak, double& wk) {
            ak = k == pend.k[0] ? ni : k == pend.k[1] ? nj : s.any(s.aux, k);
            wk = k == pend.k[0] ? wi : k == pend.k[1] ? wj : s.any(s.w, k);
          },
          ai, wi_old, total);
      share_pick(i, ai, wi_old);
      if ((threadIdx.x & 31) == 0) {
        sh.dt = waiting_time(total, box_volume);
        sh.stop = !(t + sh.dt <= t_target);  // the same total in every block
      }
    }
    __syncthreads();
    if (sh.stop) break;
    const int i = sh.picked;
    const double dt = sh.dt, wi_old = sh.picked_w;
    const ParticleAux ai = sh.picked_aux;
    block_prefix(run, L, sh, 1, [&](int k) {
      const double r = k == i ? 0.0 : beta(ai, s.local(s.aux, k), kp) * pair_weight(wi_old, s.local(s.w, k));
      s.local(s.row_or_next, k) = r;
      return r;
    });
    run.sync();  // B2

    if (warp == 0) {
      double total_j;
      // Eq. (5b) over beta'_ik = 2 w_i row[k]; the common factor does not change the choice.
      ParticleAux aj;
      double wj_old;
      const int j = warp_select(
          s, sh, 1, Pending{}, u_j, [&](int k) { return s.any(s.row_or_next, k); },
          [&](int k, ParticleAux& ak, double& wk) {
            ak = s.any(s.aux, k);
            wk = s.any(s.w, k);
          },
          aj, wj_old, total_j);
      share_pick(j, aj, wj_old);
    }
    __syncthreads();
    const int j = sh.picked;
    const double wj_old = sh.picked_w;
    const ParticleAux aj = sh.picked_aux;
    coalesce_pair(ai, aj, wi_old, wj_old, kp, ni, nj, wi, wj, rij);

    // Smart bookkeeping, eq. (6): beta'_ki = 2 w_k beta_ki pair_weight(w_k, w_i); the old
    // terms of j are computed here rather than stored.
    {
      const int lane = threadIdx.x & 31;
      double c_sum = 0.0, ri_sum = 0.0, rj_sum = 0.0;
      for (int k = L.run_lo(run.rank, warp, lane); k < L.run_hi(run.rank, warp, lane); ++k) {
        if (k == i || k == j) continue;
        const ParticleAux ak = s.local(s.aux, k);
        const double wk = s.local(s.w, k);
        const double rj_old = beta(aj, ak, kp) * pair_weight(wj_old, wk);
        const double ri = beta(ak, ni, kp) * pair_weight(wk, wi), rj = beta(ak, nj, kp) * pair_weight(wk, wj);
        double& Ck = s.local(s.C, k);
        Ck += 2.0 * wk * (ri + rj - s.local(s.row_or_next, k) - rj_old);
        c_sum += Ck;
        ri_sum += ri;
        rj_sum += rj;
      }
      ri_sum = warp_sum(ri_sum);
      rj_sum = warp_sum(rj_sum);
      if (lane == 0) {
        sh.pair[0][warp] = ri_sum;
        sh.pair[1][warp] = rj_sum;
      }
      publish_prefix(run, sh, 0, c_sum);
      if (warp == 0) {
        const double pi = warp_sum(lane < kWarps ? sh.pair[0][lane] : 0.0);
        const double pj = warp_sum(lane < kWarps ? sh.pair[1][lane] : 0.0);
        if (lane < run.blocks) {
          double* to = run.peer(&sh, lane)->partial[run.rank];
          to[0] = pi;
          to[1] = pj;
        }
      }
    }
    pend = Pending{{i, j}, {0.0, 0.0}, {L.position(i), L.position(j)}};
    t += dt;
    ++ev;
    ++done;
    ++since;
  }
  close_store(s, a, base, s.C, run_index, c);
}

// Shared memory of the event loop with selection by rejection: per-warp sums of the update and,
// pushed by every block q of the run into every block's [parity][q], q's totals. Two parities:
// an event reads what the previous event's update pushed while faster blocks already push the
// next, and likewise for C' (two buffers), so the event needs only one run barrier.
struct RejectionShared {
  struct Totals {
    double sum;             // of C' over q's slice (the last pair left out)
    double share[2];        // q's shares of the last pair's new rows
    std::uint32_t high;     // largest rate_high_word(C') of q's slice
  } pushed[2][kMaxCluster];
  struct Extremes {
    double v_min, v_max, w_min, w_max;
    __device__ Extremes merged(const Extremes& o) const {
      return {fmin(v_min, o.v_min), fmax(v_max, o.v_max), fmin(w_min, o.w_min), fmax(w_max, o.w_max)};
    }
  } extremes[kMaxCluster];  // of q's slice, at the start and after each refresh
  double warp_totals[3][kWarps];  // per warp: sum of C', shares of the new rows of i and j
  std::uint32_t warp_high[kWarps];
  int picked[2];
  ParticleAux picked_aux[2];
  double picked_w[2];
  double dt;
  bool stop;
  bool failed;  // a selection gave up (kMaxRounds): the run stops and the host reports it
};

// Every thread's PairBounds over the whole run: each block reduces its slice, pushes the result
// into every block, and after the barrier every thread combines them.
template <bool kClustered, bool kResident>
__device__ PairBounds gather_bounds(const Store<kClustered, kResident>& s, RejectionShared& sh, const KernelParams& kp) {
  const Layout& L = s.layout;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  RejectionShared::Extremes e{INFINITY, -INFINITY, INFINITY, -INFINITY};
  for (int k = L.lo(s.run.rank) + threadIdx.x; k < L.hi(s.run.rank); k += kBlock) {
    const double v = s.local(s.aux, k).v, w = s.local(s.w, k);
    e = e.merged({v, v, w, w});
  }
  for (int o = 16; o > 0; o >>= 1)
    e = e.merged({__shfl_xor_sync(kFullMask, e.v_min, o), __shfl_xor_sync(kFullMask, e.v_max, o),
                  __shfl_xor_sync(kFullMask, e.w_min, o), __shfl_xor_sync(kFullMask, e.w_max, o)});
  __shared__ RejectionShared::Extremes per_warp[kWarps];
  if (lane == 0) per_warp[warp] = e;
  __syncthreads();
  if (warp == 0) {
    for (int q = 0; q < kWarps; ++q) e = e.merged(per_warp[q]);
    if (lane < s.run.blocks) s.run.peer(&sh, lane)->extremes[s.run.rank] = e;
  }
  s.run.sync();
  for (int q = 0; q < s.run.blocks; ++q) e = e.merged(sh.extremes[q]);
  return {make_aux(e.v_min, kp), make_aux(e.v_max, kp), e.w_min, e.w_max};
}

// The update's sums (each lane's over its run: C' and its largest high word, the shares of the
// new rows of i and j) reduced over the block and pushed into every block's pushed[parity].
template <bool kClustered>
__device__ void push_totals(const Run<kClustered>& run, RejectionShared& sh, int parity, double c_sum, std::uint32_t c_high,
                            double ri_sum, double rj_sum) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  c_sum = warp_sum(c_sum);
  ri_sum = warp_sum(ri_sum);
  rj_sum = warp_sum(rj_sum);
  c_high = warp_max(c_high);
  if (lane == 0) {
    sh.warp_totals[0][warp] = c_sum;
    sh.warp_totals[1][warp] = ri_sum;
    sh.warp_totals[2][warp] = rj_sum;
    sh.warp_high[warp] = c_high;
  }
  __syncthreads();
  if (warp != 0) return;
  const bool mine = lane < kWarps;
  const RejectionShared::Totals totals{warp_sum(mine ? sh.warp_totals[0][lane] : 0.0),
                                       {warp_sum(mine ? sh.warp_totals[1][lane] : 0.0),
                                        warp_sum(mine ? sh.warp_totals[2][lane] : 0.0)},
                                       warp_max(mine ? sh.warp_high[lane] : 0u)};
  if (lane < run.blocks) run.peer(&sh, lane)->pushed[parity][run.rank] = totals;
}

// A lane's candidate and what it read of it: state and rate.
struct Seen {
  Candidate c;
  ParticleAux a;
  double w, C;
};

// Eq. (5a) or (5b) by acceptance-rejection (pair_rejection.hpp), by one warp: each lane holds a
// candidate of the round and what it read of it (round 0 drawn and read by the caller, so the
// two picks' first reads are in flight together); the first accepted lane's candidate is the
// pick, else the next round is drawn and read; -1 after kMaxRounds. Warp 0 of every block draws
// the same candidates and makes the same pick.
template <class Read, class Value>
__device__ int warp_reject(const PhiloxStream& rng, unsigned long long event, std::uint32_t purpose, int n, double bound,
                           Seen seen, Read read, Value value, ParticleAux& picked_aux, double& picked_w) {
  const int lane = threadIdx.x & 31;
  for (int round = 1; round <= kMaxRounds; ++round) {
    const unsigned hit = __ballot_sync(kFullMask, accepted(seen.c, value(seen), bound));
    if (hit) {
      const int from = __ffs(hit) - 1;
      picked_aux = shfl_aux(seen.a, from);
      picked_w = __shfl_sync(kFullMask, seen.w, from);
      return __shfl_sync(kFullMask, seen.c.k, from);
    }
    seen = read(draw_candidate(rng, event, purpose, round, lane, n));
  }
  return -1;  // non-finite rates (kMaxRounds)
}

// The event loop with selection by rejection: one run barrier an event.
//   B   every block's totals of C' (sum, largest high word) and its shares of the last pair's new
//       rows are in. Warp 0 of every block completes the last pair's C', the owners write it
//       back; warp 0 draws i against the bound on C' and j against row_bound (no row, no prefix
//       sums) and shares them with the block. Every thread coalesces the pair in registers;
//       each lane updates C'_k of its run from one buffer into the other (eq. 6, with the old
//       row of i computed rather than stored) and the block's totals are pushed to every block.
template <bool kClustered, bool kResident, int kKind>
__global__ void __launch_bounds__(kBlock) rejection_kernel(Arrays a, int n, double box_volume, KernelParams kp,
                                                           unsigned long long seed, unsigned long long refresh_every,
                                                           unsigned long long max_events) {
  if constexpr (kKind != kAnyKind) kp.kind = KernelKind(kKind);
  __shared__ RejectionShared sh;
  extern __shared__ __align__(16) unsigned char resident[];
  const Run<kClustered> run;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int run_index = blockIdx.x / run.blocks;
  const Layout L{n, ceil_div(n, run.blocks)};
  const std::size_t base = std::size_t(run_index) * n;
  const Store<kClustered, kResident> s = open_store<kClustered, kResident>(run, L, a, base, resident);
  const PhiloxStream rng = run_stream(seed, run_index);
  RunClock c = RunClock::load(a, run_index);
  auto& [t, t_target, ev, since, done] = c;
  double* C[2] = {s.C, s.row_or_next};  // C[parity] holds the rates the event reads
  int parity = 0;

  // Each lane's sum and largest high word of C' over its run.
  const auto run_totals = [&](const double* rates, double& sum, std::uint32_t& high) {
    sum = 0.0;
    high = 0;
    for (int k = L.run_lo(run.rank, warp, lane); k < L.run_hi(run.rank, warp, lane); ++k) {
      sum += s.local(rates, k);
      high = max(high, rate_high_word(s.local(rates, k)));
    }
  };
  PairBounds bounds = gather_bounds(s, sh, kp);
  {
    double sum;
    std::uint32_t high;
    run_totals(C[0], sum, high);
    push_totals(run, sh, 0, sum, high, 0.0, 0.0);
  }
  Pending pend;            // warp 0's view of the last pair
  ParticleAux ni{}, nj{};  // the last pair's new states, in every thread
  double wi = 0.0, wj = 0.0, rij = 0.0;
  while (true) {
    run.arrive();  // B
    Candidate first{}, second{};
    if (warp == 0) {  // the event's first candidates, drawn while the other blocks arrive
      first = draw_candidate(rng, ev, kPurposeFirstPick, 0, lane, n);
      second = draw_candidate(rng, ev, kPurposeSecondPick, 0, lane, n);
    }
    run.wait();
    const RejectionShared::Totals* totals = sh.pushed[parity];
    if (warp == 0 && pend.k[0] >= 0)
      complete_pending(s, pend, C[parity], lane < run.blocks ? totals[lane].share[0] : 0.0,
                       lane < run.blocks ? totals[lane].share[1] : 0.0, ni, nj, wi, wj, rij);
    if (since >= refresh_every) {
      run.sync();
      recompute_slice_rates(s, kp, C[parity]);
      __syncthreads();
      double sum;
      std::uint32_t high;
      run_totals(C[parity], sum, high);
      push_totals(run, sh, parity, sum, high, 0.0, 0.0);
      bounds = gather_bounds(s, sh, kp);  // its barrier also brings the totals
      pend = Pending{};
      since = 0;
    }
    if (done >= max_events) break;

    if (warp == 0) {
      // Eq. (4) and the bound on C' over the blocks' totals and the last pair.
      double total = warp_sum(lane < run.blocks ? totals[lane].sum : 0.0);
      std::uint32_t high = warp_max(lane < run.blocks ? totals[lane].high : 0u);
      if (pend.k[0] >= 0) {
        total += pend.value[0] + pend.value[1];
        high = max(high, max(rate_high_word(pend.value[0]), rate_high_word(pend.value[1])));
      }
      const double dt = waiting_time(total, box_volume);
      const bool stop = !(t + dt <= t_target);  // the same total in every block
      // The last pair's owners may be writing it back just now: its values come from registers.
      const double* rates = C[parity];
      const auto read = [&](const Candidate& candidate) {
        const int k = candidate.k;
        Seen x{candidate};
        x.a = k == pend.k[0] ? ni : k == pend.k[1] ? nj : s.any(s.aux, k);
        x.w = k == pend.k[0] ? wi : k == pend.k[1] ? wj : s.any(s.w, k);
        x.C = k == pend.k[0] ? pend.value[0] : k == pend.k[1] ? pend.value[1] : s.any(rates, k);
        return x;
      };
      ParticleAux ai{}, aj{};
      double wi_old = 0.0, wj_old = 0.0;
      int i = -1, j = -1;
      if (!stop) {
        const Seen seen_i = read(first), seen_j = read(second);
        i = warp_reject(rng, ev, kPurposeFirstPick, n, rate_bound(high), seen_i, read, [](const Seen& x) { return x.C; },
                        ai, wi_old);
        if (i >= 0)
          j = warp_reject(rng, ev, kPurposeSecondPick, n, row_bound(ai, wi_old, bounds, kp), seen_j, read,
                          [&](const Seen& x) { return x.c.k == i ? 0.0 : beta(ai, x.a, kp) * pair_weight(wi_old, x.w); },
                          aj, wj_old);
      }
      if (lane == 0) {
        sh.picked[0] = i;
        sh.picked[1] = j;
        sh.picked_aux[0] = ai;
        sh.picked_aux[1] = aj;
        sh.picked_w[0] = wi_old;
        sh.picked_w[1] = wj_old;
        sh.dt = dt;
        sh.failed = !stop && j < 0;
        sh.stop = stop || sh.failed;
      }
    }
    __syncthreads();
    if (sh.failed) done = kRunFailed;
    if (sh.stop) break;
    const int i = sh.picked[0], j = sh.picked[1];
    const ParticleAux ai = sh.picked_aux[0], aj = sh.picked_aux[1];
    const double wi_old = sh.picked_w[0], wj_old = sh.picked_w[1], dt = sh.dt;
    coalesce_pair(ai, aj, wi_old, wj_old, kp, ni, nj, wi, wj, rij);
    bounds.note(ni, wi);
    bounds.note(nj, wj);

    // Smart bookkeeping, eq. (6), from C[parity] into C[parity ^ 1].
    const double* from = C[parity];
    double* to = C[parity ^ 1];
    double c_sum = 0.0, ri_sum = 0.0, rj_sum = 0.0;
    std::uint32_t c_high = 0;
    for (int k = L.run_lo(run.rank, warp, lane); k < L.run_hi(run.rank, warp, lane); ++k) {
      if (k == i || k == j) continue;
      const ParticleAux ak = s.local(s.aux, k);
      const double wk = s.local(s.w, k);
      const double ri_old = beta(ai, ak, kp) * pair_weight(wi_old, wk);
      const double rj_old = beta(aj, ak, kp) * pair_weight(wj_old, wk);
      const double ri = beta(ak, ni, kp) * pair_weight(wk, wi), rj = beta(ak, nj, kp) * pair_weight(wk, wj);
      const double Ck = s.local(from, k) + 2.0 * wk * (ri + rj - ri_old - rj_old);
      s.local(to, k) = Ck;
      c_sum += Ck;
      c_high = max(c_high, rate_high_word(Ck));
      ri_sum += ri;
      rj_sum += rj;
    }
    parity ^= 1;
    push_totals(run, sh, parity, c_sum, c_high, ri_sum, rj_sum);
    pend = Pending{{i, j}, {0.0, 0.0}, {L.position(i), L.position(j)}};
    t += dt;
    ++ev;
    ++done;
    ++since;
  }
  close_store(s, a, base, C[parity], run_index, c);
}

// Algorithm 1 (initialisation): one thread per particle sums its row of eq. (2); the block
// stages the other particles in shared memory tile by tile. Rows are summed in index order,
// as on the CPU.
constexpr int kRateTile = 256;
__global__ void __launch_bounds__(kRateTile) rates_kernel(const ParticleAux* aux_all, const double* w_all, double* C_all,
                                                          int n, KernelParams kp) {
  __shared__ ParticleAux tile_aux[kRateTile];
  __shared__ double tile_w[kRateTile];
  const std::size_t base = std::size_t(blockIdx.y) * n;
  const int k = blockIdx.x * kRateTile + threadIdx.x;
  const ParticleAux ak = k < n ? aux_all[base + k] : ParticleAux{};
  const double wk = k < n ? w_all[base + k] : 1.0;
  double sum = 0.0;
  for (int start = 0; start < n; start += kRateTile) {
    const int l = start + threadIdx.x;
    if (l < n) {
      tile_aux[threadIdx.x] = aux_all[base + l];
      tile_w[threadIdx.x] = w_all[base + l];
    }
    __syncthreads();
    const int count = min(kRateTile, n - start);
    for (int m = 0; m < count; ++m)
      if (start + m != k) sum += beta(ak, tile_aux[m], kp) * weight_factor(wk, tile_w[m]);
    __syncthreads();
  }
  if (k < n) C_all[base + k] = sum;
}

// Display copy of run 0's particles: the host snapshot's positions and values, as floats.
__global__ void particles_kernel(const ParticleAux* aux, const double* w, int n, unsigned long long seed, double side,
                                 unsigned purpose, bool diameter, float4* out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const PhiloxCounter c = run_stream(seed, 0).draw(std::uint64_t(k), purpose);
  out[k] = make_float4(float(side * uniform_open01(c.v[0], 0)), float(side * uniform_open01(c.v[1], 0)),
                       float(side * uniform_open01(c.v[2], 0)), float(diameter ? aux[k].d : w[k]));
}

using EventLoop = void (*)(Arrays, int, double, KernelParams, unsigned long long, unsigned long long, unsigned long long);

// The event loop of kernel kind kKind for a selection, a cluster or a single block, and shared-memory residency.
template <int kKind>
EventLoop event_loop_of_kind(bool by_rejection, bool clustered, bool resident) {
  if (by_rejection)
    return clustered ? (resident ? rejection_kernel<true, true, kKind> : rejection_kernel<true, false, kKind>)
                     : (resident ? rejection_kernel<false, true, kKind> : rejection_kernel<false, false, kKind>);
  return clustered ? (resident ? advance_kernel<true, true, kKind> : advance_kernel<true, false, kKind>)
                   : (resident ? advance_kernel<false, true, kKind> : advance_kernel<false, false, kKind>);
}

// The event loop for a selection, a cluster or a single block, shared-memory residency, and the
// kernel kind (the paper's free-molecular kernel fixed at compile time, the others read at run time).
EventLoop event_loop(bool by_rejection, bool clustered, bool resident, KernelKind kind) {
  return kind == KernelKind::FreeMolecular
             ? event_loop_of_kind<int(KernelKind::FreeMolecular)>(by_rejection, clustered, resident)
             : event_loop_of_kind<kAnyKind>(by_rejection, clustered, resident);
}

// What the device and this build's kernels allow: blocks per run (a cluster needs sm_90 code on an
// sm_90 device) and particles a block keeps in shared memory (its opt-in limit less the static part).
struct EventLoopLimits {
  int max_cluster = 1;
  int max_resident = 0;
};

EventLoopLimits configure_event_loops(int device) {
  int major = 0;
  KS_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  cudaFuncAttributes clustered{};
  KS_CUDA_CHECK(cudaFuncGetAttributes(&clustered, event_loop(false, true, true, KernelKind::Constant)));
  EventLoopLimits limits;
  limits.max_cluster = major >= 9 && clustered.ptxVersion >= 90 ? kMaxCluster : 1;
  std::size_t dynamic = SIZE_MAX;
  for (const bool by_rejection : {false, true})
    for (const bool clustered_loop : {false, true})
      for (const KernelKind kind : {KernelKind::FreeMolecular, KernelKind::Constant})  // fixed and any kind
        dynamic = std::min(dynamic, max_dynamic_shared_memory(event_loop(by_rejection, clustered_loop, true, kind), device));
  limits.max_resident = int(std::min<std::size_t>(kResidentMaxParticles, dynamic / kResidentBytesPerParticle));
  for (const bool by_rejection : {false, true})
    for (const bool clustered : {false, true})
      for (const bool resident : {false, true})
        for (const KernelKind kind : {KernelKind::FreeMolecular, KernelKind::Constant}) {
          if (clustered && limits.max_cluster == 1) continue;
          const EventLoop kernel = event_loop(by_rejection, clustered, resident, kind);
          if (clustered) KS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
          if (resident && limits.max_resident > 0)
            KS_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               limits.max_resident * kResidentBytesPerParticle));
        }
  return limits;
}

}  // namespace

struct CudaEnsemble::Device {
  int device = 0;
  int sm_count = 1;
  int n_runs = 0;
  int cluster = 1;           // blocks per run
  int requested_cluster = 0; // 0: choose
  EventLoopLimits limits;
  EnsembleConfig cfg;
  DeviceBuffer<double> v, w, C, row_or_next, t, t_target;
  DeviceBuffer<ParticleAux> aux;
  DeviceBuffer<unsigned long long> events, since_refresh, done;
};

CudaEnsemble::CudaEnsemble(int device) : d_(std::make_unique<Device>()) {
  d_->device = device;
  KS_CUDA_CHECK(cudaSetDevice(device));
  KS_CUDA_CHECK(cudaDeviceGetAttribute(&d_->sm_count, cudaDevAttrMultiProcessorCount, device));
  d_->limits = configure_event_loops(device);
}

void CudaEnsemble::set_cluster_size(int blocks_per_run) { d_->requested_cluster = blocks_per_run; }
int CudaEnsemble::cluster_size() const { return d_->cluster; }
int CudaEnsemble::max_cluster_size() const { return d_->limits.max_cluster; }
int CudaEnsemble::max_resident_particles() const { return d_->limits.max_resident; }

namespace {

// Blocks per run: the smallest power of two that brings a block's share under the selection's
// target (shared-memory residency and enough threads per particle), no more than the SMs each
// run can have or the cluster limit (1 where clusters are not usable).
int choose_cluster(int requested, int n_runs, int n_s, int sm_count, bool by_rejection, int max_cluster) {
  if (requested > 0) return std::min(requested, max_cluster);
  const int by_sms = std::max(1, sm_count / std::max(1, n_runs));
  const int target = by_rejection ? kTargetParticlesPerBlockRejection : kTargetParticlesPerBlock;
  int g = 1;
  while (g * 2 <= std::min(by_sms, max_cluster) && ceil_div(n_s, g) > target) g *= 2;
  return g;
}

}  // namespace

CudaEnsemble::~CudaEnsemble() = default;

void CudaEnsemble::upload(const Ensemble& e, const EnsembleConfig& cfg) {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  d_->cfg = cfg;
  d_->n_runs = e.n_runs;
  const std::size_t count = std::size_t(e.n_runs) * cfg.n_s;
  d_->v.upload(e.v.data(), count);
  d_->w.upload(e.w.data(), count);
  d_->C.upload(e.C.data(), count);
  d_->row_or_next.resize(count);
  d_->aux.resize(count);
  d_->t.upload(e.t.data(), e.n_runs);
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t));
  d_->events.upload(reinterpret_cast<const unsigned long long*>(e.events.data()), e.n_runs);
  d_->since_refresh.upload(reinterpret_cast<const unsigned long long*>(e.since_refresh.data()), e.n_runs);
  d_->done.resize(e.n_runs);
  d_->t_target.resize(e.n_runs);
  d_->cluster = choose_cluster(d_->requested_cluster, e.n_runs, cfg.n_s, d_->sm_count, selects_by_rejection(cfg),
                               d_->limits.max_cluster);
  if (count) {
    const auto blocks =
        unsigned(checked_narrow<int>(std::int64_t(ceil_div(count, kBlock)), "n_s * n_runs / 512 (CUDA blocks of make_aux)"));
    make_aux_kernel<<<blocks, kBlock>>>(d_->v.ptr, d_->aux.ptr, count, cfg.kernel);
    KS_CUDA_CHECK_LAUNCH();
  }
}

void CudaEnsemble::download(Ensemble& e) const {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  const std::size_t count = std::size_t(d_->n_runs) * d_->cfg.n_s;
  e.resize(d_->n_runs, d_->cfg.n_s);
  d_->v.download(e.v.data(), count);
  d_->w.download(e.w.data(), count);
  d_->C.download(e.C.data(), count);
  d_->t.download(e.t.data(), d_->n_runs);
  d_->events.download(reinterpret_cast<unsigned long long*>(e.events.data()), d_->n_runs);
  d_->since_refresh.download(reinterpret_cast<unsigned long long*>(e.since_refresh.data()), d_->n_runs);
}

void CudaEnsemble::write_particles(bool diameter, double box_side, std::uint32_t position_purpose, void* dst) const {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  const int n = d_->cfg.n_s;
  particles_kernel<<<ceil_div(n, 256), 256>>>(d_->aux.ptr, d_->w.ptr, n, d_->cfg.seed, box_side, position_purpose, diameter,
                                              static_cast<float4*>(dst));
  KS_CUDA_CHECK_LAUNCH();
}

void CudaEnsemble::recompute_rates(int first_run) {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  if (first_run >= d_->n_runs) return;
  const std::size_t offset = std::size_t(first_run) * d_->cfg.n_s;
  const dim3 grid(unsigned(ceil_div(d_->cfg.n_s, kRateTile)), unsigned(d_->n_runs - first_run));
  rates_kernel<<<grid, kRateTile>>>(d_->aux.ptr + offset, d_->w.ptr + offset, d_->C.ptr + offset, d_->cfg.n_s,
                                    d_->cfg.kernel);
  KS_CUDA_CHECK_LAUNCH();
  KS_CUDA_CHECK(cudaDeviceSynchronize());
}

std::uint64_t CudaEnsemble::launch(const std::vector<double>& t_target, std::uint64_t max_events, bool& all_reached) {
  KS_CUDA_CHECK(cudaSetDevice(d_->device));
  all_reached = true;
  if (d_->n_runs == 0) return 0;
  d_->t_target.upload(t_target.data(), d_->n_runs);
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(checked_narrow<int>(checked_mul(d_->n_runs, d_->cluster, "n_runs * blocks per run"),
                                                    "n_runs * blocks per run (CUDA blocks of the event loop)")));
  config.blockDim = dim3(kBlock);
  cudaLaunchAttribute cluster_dim{};
  cluster_dim.id = cudaLaunchAttributeClusterDimension;
  cluster_dim.val.clusterDim.x = unsigned(d_->cluster);
  cluster_dim.val.clusterDim.y = 1;
  cluster_dim.val.clusterDim.z = 1;
  config.attrs = &cluster_dim;
  config.numAttrs = d_->cluster > 1 ? 1 : 0;  // no cluster attribute where clusters do not exist
  const Arrays arrays{d_->v.ptr, d_->w.ptr,      d_->C.ptr,             d_->aux.ptr,      d_->row_or_next.ptr,
                      d_->t.ptr, d_->events.ptr, d_->since_refresh.ptr, d_->t_target.ptr, d_->done.ptr};
  const int per_block = ceil_div(d_->cfg.n_s, d_->cluster);
  const bool resident = per_block <= d_->limits.max_resident;
  config.dynamicSmemBytes = resident ? std::size_t(per_block) * kResidentBytesPerParticle : 0;
  const EventLoop kernel = event_loop(selects_by_rejection(d_->cfg), d_->cluster > 1, resident, d_->cfg.kernel.kind);
  KS_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, arrays, d_->cfg.n_s, d_->cfg.box_volume, d_->cfg.kernel,
                                   static_cast<unsigned long long>(d_->cfg.seed),
                                   static_cast<unsigned long long>(d_->cfg.refresh_every),
                                   static_cast<unsigned long long>(max_events)));
  std::vector<unsigned long long> done(d_->n_runs);
  d_->done.download(done.data(), d_->n_runs);  // synchronises; execution errors surface here
  std::uint64_t total = 0;
  for (int r = 0; r < d_->n_runs; ++r) {
    if (done[r] == kRunFailed) {
      std::vector<unsigned long long> events(d_->n_runs);
      d_->events.download(events.data(), d_->n_runs);
      throw run_failed(no_pair_message(r, events[r]));
    }
    total += done[r];
    all_reached = all_reached && done[r] < max_events;
  }
  return total;
}

std::uint64_t CudaEnsemble::advance(const std::vector<double>& t_target, std::uint64_t max_events_per_launch) {
  std::uint64_t total = 0;
  bool all_reached = false;
  while (!all_reached) total += launch(t_target, max_events_per_launch, all_reached);
  return total;
}

}  // namespace ks::coag
