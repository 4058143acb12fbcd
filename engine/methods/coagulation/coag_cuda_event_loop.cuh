// The device side of the GPU event loops (Wei & Kruis 2013, Algorithms 1-3) that both selections
// share: a run's blocks and their barriers (Run), how its particles are laid out over blocks, warps
// and lanes (Layout, Store), and the steps of an event (pair completion, prefix sums, the inverse
// transform). The loops themselves: coag_cuda_prefix_loop.cu and coag_cuda_rejection_loop.cu; the
// host side: coag_cuda.cu.
//
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
// against bounds instead (coag_rejection.hpp): no prefix sums, no row of i, one run barrier.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

#include "coag_ensemble.hpp"
#include "coag_rejection.hpp"
#include "core/ceil_div.hpp"

namespace ks::coag::gpu {

namespace cg = cooperative_groups;

constexpr int kBlock = 512;
constexpr int kWarps = kBlock / 32;
constexpr int kMaxCluster = 16;  // non-portable cluster size on Hopper
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
  double pair[2][kWarps];  // per-warp shares of the new rows of i and j (block-local)
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
__device__ inline std::uint32_t warp_max(std::uint32_t x) {
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
__device__ Store<kClustered, kResident> open_store(const Run<kClustered>& run, const Layout& L, const Arrays& a, std::size_t base,
                                                   unsigned char* resident) {
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
__device__ void close_store(const Store<kClustered, kResident>& s, const Arrays& a, std::size_t base, const double* C, int run_index,
                            const RunClock& c) {
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
__device__ inline double warp_inclusive_scan(double x) {
  const int lane = threadIdx.x & 31;
  for (int o = 1; o < 32; o <<= 1) {
    const double y = __shfl_up_sync(kFullMask, x, o);
    if (lane >= o) x += y;
  }
  return x;
}

// Sum over the lanes of a warp; every lane gets the same bits (addition commutes).
__device__ inline double warp_sum(double x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(kFullMask, x, o);
  return x;
}

// Lane `from`'s particle state, in every lane.
__device__ inline ParticleAux shfl_aux(const ParticleAux& a, int from) {
  return {__shfl_sync(kFullMask, a.v, from), __shfl_sync(kFullMask, a.d, from), __shfl_sync(kFullMask, a.a, from),
          __shfl_sync(kFullMask, a.c, from), __shfl_sync(kFullMask, a.g, from)};
}

// Every thread merges the chosen pair in registers (coalesce()): the new states, weights and the
// pair's own kernel term beta_ij pair_weight(w_i, w_j).
__device__ inline void coalesce_pair(const ParticleAux& ai, const ParticleAux& aj, double wi_old, double wj_old, const KernelParams& kp,
                                     ParticleAux& ni, ParticleAux& nj, double& wi, double& wj, double& rij) {
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
__device__ void complete_pending(const Store<kClustered, kResident>& s, Pending& pend, double* C, double share_i, double share_j,
                                 const ParticleAux& ni, const ParticleAux& nj, double wi, double wj, double rij) {
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
__device__ int warp_select(const Store<kClustered, kResident>& s, Shared& sh, int sel, const Pending& pend, double u, Value value,
                           State state, ParticleAux& picked_aux, double& picked_w, double& total) {
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

constexpr int kResidentBytesPerParticle = sizeof(ParticleAux) + 3 * sizeof(double);  // aux, w, C, row_or_next
constexpr int kResidentMaxParticles = 3200;  // 3200 * 64 B = 200 KB of the 227 KB a block may have on Hopper

// The event loops' kKind >= 0 fixes the kernel kind at compile time (the switch in beta() and
// make_aux() folds away: n_s 12000 with rejection 0.94 s -> 0.82 s on the H100); kAnyKind reads it
// from kp.
constexpr int kAnyKind = -1;

// One event loop instance: (arrays, n_s, V, kernel, seed, first_run, refresh_every, max_events).
using EventLoop = void (*)(Arrays, int, double, KernelParams, unsigned long long, int, unsigned long long, unsigned long long);

// The loop of each selection for a cluster or a single block, shared-memory residency and the kernel
// kind (the paper's free-molecular kernel fixed at compile time, the others read at run time).
EventLoop prefix_event_loop(bool clustered, bool resident, KernelKind kind);
EventLoop rejection_event_loop(bool clustered, bool resident, KernelKind kind);

// The instance of one selection's kernel template for those three choices: Loops::of<kClustered,
// kResident, kKind>() returns the kernel's address.
template <class Loops, int kKind>
EventLoop event_loop_of_kind(bool clustered, bool resident) {
  return clustered ? (resident ? Loops::template of<true, true, kKind>() : Loops::template of<true, false, kKind>())
                   : (resident ? Loops::template of<false, true, kKind>() : Loops::template of<false, false, kKind>());
}
template <class Loops>
EventLoop event_loop_instance(bool clustered, bool resident, KernelKind kind) {
  return kind == KernelKind::FreeMolecular ? event_loop_of_kind<Loops, int(KernelKind::FreeMolecular)>(clustered, resident)
                                           : event_loop_of_kind<Loops, kAnyKind>(clustered, resident);
}

}  // namespace ks::coag::gpu
