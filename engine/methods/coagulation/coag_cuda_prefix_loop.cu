// The event loop with selection by inverse transform (eq. 5a, 5b): the paper's.
#include "coag_cuda_event_loop.cuh"

namespace ks::coag::gpu {

namespace {

// The event loop. An event costs two run barriers:
//   B1  every block's C' prefix and its share of the last pair's new rows are in. Warp 0 of
//       every block completes the last pair's C' (eq. 6), selects i (eq. 5a) and the waiting
//       time (eq. 4); the owners write the last pair back. Each lane computes its run of the
//       row of i; the block's prefix is published and its sums pushed to every block.
//   B2  every block's row prefix is in. Warp 0 selects j (eq. 5b). Every thread coalesces the
//       pair in registers; each lane updates C'_k of its run (Algorithm 3, eq. 6), summing
//       the new C' and the shares of the new rows of i and j, which are pushed likewise.
template <bool kClustered, bool kResident, int kKind>
__global__ void __launch_bounds__(kBlock) advance_kernel(Arrays a, int n, double box_volume, KernelParams kp, unsigned long long seed,
                                                         int first_run, unsigned long long refresh_every, unsigned long long max_events) {
  if constexpr (kKind != kAnyKind) kp.kind = KernelKind(kKind);
  __shared__ Shared sh;
  extern __shared__ __align__(16) unsigned char resident[];
  const Run<kClustered> run;
  const int warp = threadIdx.x >> 5;
  const int run_index = blockIdx.x / run.blocks;
  const Layout L{n, ceil_div(n, run.blocks)};
  const std::size_t base = std::size_t(run_index) * n;
  const Store<kClustered, kResident> s = open_store<kClustered, kResident>(run, L, a, base, resident);
  const PhiloxStream rng = run_stream(seed, first_run + run_index);
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
  Pending pend;            // warp 0's view of the last pair
  ParticleAux ni{}, nj{};  // the last pair's new states, in every thread
  double wi = 0.0, wj = 0.0, rij = 0.0, u_j = 0.0;
  while (true) {
    run.sync();  // B1
    if (warp == 0 && pend.k[0] >= 0) {
      const bool in_run = (threadIdx.x & 31) < run.blocks;
      complete_pending(s, pend, s.C, in_run ? sh.partial[threadIdx.x & 31][0] : 0.0, in_run ? sh.partial[threadIdx.x & 31][1] : 0.0, ni, nj,
                       wi, wj, rij);
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
          s, sh, 0, pend, u_i, [&](int k) { return k == pend.k[0]   ? pend.value[0]
                                                   : k == pend.k[1] ? pend.value[1]
                                                                    : s.any(s.C, k); },
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

struct PrefixLoops {
  template <bool kClustered, bool kResident, int kKind>
  static EventLoop of() {
    return advance_kernel<kClustered, kResident, kKind>;
  }
};

}  // namespace

EventLoop prefix_event_loop(bool clustered, bool resident, KernelKind kind) {
  return event_loop_instance<PrefixLoops>(clustered, resident, kind);
}

}  // namespace ks::coag::gpu
