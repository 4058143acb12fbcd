// The event loop with selection by acceptance-rejection (coag_rejection.hpp): one run barrier an event.
#include "coag_cuda_event_loop.cuh"

namespace ks::coag::gpu {

namespace {

// Shared memory of the event loop with selection by rejection: per-warp sums of the update and,
// pushed by every block q of the run into every block's [parity][q], q's totals. Two parities:
// an event reads what the previous event's update pushed while faster blocks already push the
// next, and likewise for C' (two buffers), so the event needs only one run barrier.
struct RejectionShared {
  struct Totals {
    double sum;          // of C' over q's slice (the last pair left out)
    double share[2];     // q's shares of the last pair's new rows
    std::uint32_t high;  // largest rate_high_word(C') of q's slice
  } pushed[2][kMaxCluster];
  struct Extremes {
    double v_min, v_max, w_min, w_max;
    __device__ Extremes merged(const Extremes& o) const {
      return {fmin(v_min, o.v_min), fmax(v_max, o.v_max), fmin(w_min, o.w_min), fmax(w_max, o.w_max)};
    }
  } extremes[kMaxCluster];        // of q's slice, at the start and after each refresh
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
    e = e.merged({__shfl_xor_sync(kFullMask, e.v_min, o), __shfl_xor_sync(kFullMask, e.v_max, o), __shfl_xor_sync(kFullMask, e.w_min, o),
                  __shfl_xor_sync(kFullMask, e.w_max, o)});
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
__device__ void push_totals(const Run<kClustered>& run, RejectionShared& sh, int parity, double c_sum, std::uint32_t c_high, double ri_sum,
                            double rj_sum) {
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
                                       {warp_sum(mine ? sh.warp_totals[1][lane] : 0.0), warp_sum(mine ? sh.warp_totals[2][lane] : 0.0)},
                                       warp_max(mine ? sh.warp_high[lane] : 0u)};
  if (lane < run.blocks) run.peer(&sh, lane)->pushed[parity][run.rank] = totals;
}

// A lane's candidate and what it read of it: state and rate.
struct Seen {
  Candidate c;
  ParticleAux a;
  double w, C;
};

// Eq. (5a) or (5b) by acceptance-rejection (coag_rejection.hpp), by one warp: each lane holds a
// candidate of the round and what it read of it (round 0 drawn and read by the caller, so the
// two picks' first reads are in flight together); the first accepted lane's candidate is the
// pick, else the next round is drawn and read; -1 after kMaxRounds. Warp 0 of every block draws
// the same candidates and makes the same pick.
template <class Read, class Value>
__device__ int warp_reject(const PhiloxStream& rng, unsigned long long event, std::uint32_t purpose, int n, double bound, Seen seen,
                           Read read, Value value, ParticleAux& picked_aux, double& picked_w) {
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
__global__ void __launch_bounds__(kBlock) rejection_kernel(Arrays a, int n, double box_volume, KernelParams kp, unsigned long long seed,
                                                           int first_run, unsigned long long refresh_every, unsigned long long max_events) {
  if constexpr (kKind != kAnyKind) kp.kind = KernelKind(kKind);
  __shared__ RejectionShared sh;
  extern __shared__ __align__(16) unsigned char resident[];
  const Run<kClustered> run;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int run_index = blockIdx.x / run.blocks;
  const Layout L{n, ceil_div(n, run.blocks)};
  const std::size_t base = std::size_t(run_index) * n;
  const Store<kClustered, kResident> s = open_store<kClustered, kResident>(run, L, a, base, resident);
  const PhiloxStream rng = run_stream(seed, first_run + run_index);
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
      complete_pending(s, pend, C[parity], lane < run.blocks ? totals[lane].share[0] : 0.0, lane < run.blocks ? totals[lane].share[1] : 0.0,
                       ni, nj, wi, wj, rij);
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
        i = warp_reject(
            rng, ev, kPurposeFirstPick, n, rate_bound(high), seen_i, read, [](const Seen& x) { return x.C; }, ai, wi_old);
        if (i >= 0)
          j = warp_reject(
              rng, ev, kPurposeSecondPick, n, row_bound(ai, wi_old, bounds, kp), seen_j, read,
              [&](const Seen& x) { return x.c.k == i ? 0.0 : beta(ai, x.a, kp) * pair_weight(wi_old, x.w); }, aj, wj_old);
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

struct RejectionLoops {
  template <bool kClustered, bool kResident, int kKind>
  static EventLoop of() {
    return rejection_kernel<kClustered, kResident, kKind>;
  }
};

}  // namespace

EventLoop rejection_event_loop(bool clustered, bool resident, KernelKind kind) {
  return event_loop_instance<RejectionLoops>(clustered, resident, kind);
}

}  // namespace ks::coag::gpu
