// lbm.binary on the GPU, the in-place step (gpu_step = in_place): the fused step's work (lbm_cuda_pull.cuh:
// one kernel a step over the fluid nodes, bounce-back and pressure planes fused with the collision)
// with one copy of the populations instead of two, by the AA pattern (Bailey et al., ICPP 2009).
// Steps alternate between two layouts of the one array, and in each a node reads and writes the same
// entries, so no node overwrites what another still has to read:
//  - E (`odd` false): entry i of fluid node x holds pre_i(x). The step reads x's own entries,
//    collides and writes post_i(x) into x's own entry opposite(i). The array is then in layout O.
//  - O (`odd` true): post_i(y) is in entry opposite(i) of y. The step pulls pre_i(x) = post_i(x - c_i)
//    from entry opposite(i) of x - c_i, collides and pushes post_i(x) into entry i of x + c_i: the
//    entries it read. The array is then in layout E.
// Solid nodes hold no entries. Each solid source of a fluid node x (y = x - c_i solid, d = opposite(i))
// keeps one value per species beside the array, `wall`:
//  - Full-way: the full-way rule sends post(n)_d(x) back two steps later, so two values are in flight:
//    in layout E, `wall` holds post(n)_d(x) (what the full lattice keeps in y's entry d) and x's own
//    entry i post(n-1)_d(x), which only y would write; in layout O, x's entry i holds post(n)_d(x) and
//    `wall` post(n-1)_d(x). Either way the step finds its value where it reads.
//  - Eq. (14) link (interpolated scheme): it needs post(n)_d(x), kept in x's own entry i in both
//    layouts, and post(n)_i(x), which x sent to its fluid neighbour x + c_i, whose step consumes that
//    entry: `wall` keeps a copy.
// A state written from outside (the start, write_f, a settled one) is pre-collision and final (bounce-back and
// planes applied): in layout E in x's own entries (`wall`: the in-flight full-way value), in layout O
// where the O step reads (for solid sources: in `wall`; x's entry i: the in-flight value); the first
// step from it collides it without pulling. A live change of the bounce-back or the planes first
// settles a pulled state into that form (in_place_settle_kernel), as the fused step does.
// The result is the fused step's (the paper's sequence): the same pulled values and the same
// arithmetic, in another place in memory. FP16 codes an entry at the plane of the node that holds it.
#pragma once

#include <cstdint>

#include "lbm_cuda_pull.cuh"

namespace ks::lbm {

template <class Real, class Storage>
struct InPlaceStep {
  LbmConfig c;
  Populations<Real, Storage> f;     // [(s * 27 + i) * fluid nodes + a]
  Populations<Real, Storage> wall;  // element s * N + first_solid[a] + (rank of the source among a's solid bits)
  PullTable<Real> table;
  const std::uint32_t* first_solid;
  PlaneDensities<Real> inlet, outlet;
  bool interpolated;  // eq. (14) on the wall links, else full-way everywhere

  // The bits of node a's eq. (14) links, under the scheme in use.
  __device__ std::uint32_t links(std::uint32_t a) const { return interpolated ? table.linked[a] : 0u; }
  // Element of `wall` of node a's solid source i (species s).
  __device__ long long wall_entry(std::uint32_t a, int s, int i) const {
    return s * wall.N + first_solid[a] + __popc(table.solid[a] & ((1u << i) - 1u));
  }
};

// pre(n+1) of species s at fluid node a from the array in layout `odd`: pulled (bounce-back and planes
// applied) or, for a written state, as it stands. Returns the node's plane.
template <class Real, class Storage>
__device__ int in_place_load(const InPlaceStep<Real, Storage>& p, std::uint32_t a, int s, bool odd, bool pulled, Real fl[kQ]) {
  int x, y, z;
  node_position(p.c, p.table.node[a], x, y, z);
  const std::uint32_t solid = p.table.solid[a];
#pragma unroll
  for (int i = 0; i < kQ; ++i) {
    const int d = opposite(i);
    if (!odd) fl[i] = p.f.get(s, i, a, z);  // at a solid source: post(n-1)_d(x), or post(n)_d(x) for eq. (14)
    else if (solid >> i & 1u) fl[i] = p.wall.load(p.wall_entry(a, s, i), s, d, z);
    else fl[i] = p.f.get(s, d, p.table.slot[neighbour(p.c, x, y, z, d)], neighbour_plane(p.c, z, d));
  }
  if (!pulled) return z;
  const std::uint32_t linked = p.links(a);
  if (linked) {
    const Real* delta = p.table.delta + p.table.first_link[a];
#pragma unroll
    for (int i = 0; i < kQ; ++i) {
      if (!(linked >> i & 1u)) continue;
      const int d = opposite(i);
      // post(n)_d(x), what the full lattice holds in y's entry d; fl[d] came from the fluid x + c_i.
      const Real back = odd ? p.f.get(s, i, a, z) : fl[i];
      const Real delta_i = *delta++;
      fl[i] = delta_i < Real(0) ? back : yu_bounce_back(delta_i, fl[d], back, p.wall.load(p.wall_entry(a, s, i), s, i, z));
    }
  }
  if (!p.c.periodic_z() && (z == 0 || z == p.c.nz - 1)) {
    const PlaneDensities<Real>& e = z == 0 ? p.inlet : p.outlet;
    pressure_boundary(fl, e.rho[s], e.theta[s], e.lattice_species[s], z == 0 ? +1 : -1);
  }
  return z;
}

// Value v of population k of fluid node a (at x, y, z) where layout O keeps what a sends along c_k: in
// entry k of the fluid neighbour a + c_k, or in `wall` where that neighbour is a's solid source.
template <class Real, class Storage>
__device__ void put_toward(const InPlaceStep<Real, Storage>& p, std::uint32_t a, int s, int x, int y, int z, int k, Real v) {
  const int i = opposite(k);  // a + c_k = a - c_i
  if (p.table.solid[a] >> i & 1u) p.wall.store(p.wall_entry(a, s, i), s, k, z, v);
  else p.f.put(s, k, p.table.slot[neighbour(p.c, x, y, z, k)], neighbour_plane(p.c, z, k), v);
}

// post(n+1) of species s at fluid node a (plane z) into the array in layout `odd`, which leaves it in
// the other layout; the eq. (14) links' post_i(x) into `wall`.
template <class Real, class Storage>
__device__ void in_place_store_post(const InPlaceStep<Real, Storage>& p, std::uint32_t a, int s, int z, bool odd, const Real fl[kQ]) {
  const std::uint32_t linked = p.links(a);
  int x = 0, y = 0, zz = 0;
  if (odd) node_position(p.c, p.table.node[a], x, y, zz);
#pragma unroll
  for (int k = 0; k < kQ; ++k) {
    const int i = opposite(k);
    if (!odd || (linked >> i & 1u)) p.f.put(s, i, a, z, fl[k]);
    else put_toward(p, a, s, x, y, z, k, fl[k]);
  }
#pragma unroll
  for (int i = 0; i < kQ; ++i)
    if (linked >> i & 1u) p.wall.store(p.wall_entry(a, s, i), s, i, z, fl[i]);
}

// A pre-collision state (pulled) back where in_place_load reads a written one, the layout kept; in
// layout E an eq. (14) link's in-flight value (x's entry i) moves to `wall`, as a full-way one is kept.
template <class Real, class Storage>
__device__ void in_place_store_written(const InPlaceStep<Real, Storage>& p, std::uint32_t a, int s, int z, bool odd, const Real fl[kQ]) {
  const std::uint32_t linked = p.links(a);
  int x = 0, y = 0, zz = 0;
  if (odd) node_position(p.c, p.table.node[a], x, y, zz);
#pragma unroll
  for (int i = 0; i < kQ; ++i) {
    const int d = opposite(i);
    if (odd) {
      put_toward(p, a, s, x, y, z, d, fl[i]);  // where the O step pulls pre_i from
      continue;
    }
    if (linked >> i & 1u) p.wall.store(p.wall_entry(a, s, i), s, d, z, p.f.get(s, i, a, z));
    p.f.put(s, i, a, z, fl[i]);
  }
}

// One step from layout Odd: a pair of lanes per fluid node (collide_pair). Pulled false: the first
// step from a written state.
template <bool Odd, bool Pulled, class Real, class Storage>
__global__ void __launch_bounds__(256, kStepBlocksPerSm<Real>)
    in_place_step_kernel(const __grid_constant__ InPlaceStep<Real, Storage> p, CollisionParams<Real> cp) {
  const long long lane = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (lane >= 2LL * p.table.count) return;  // both lanes of a pair leave together
  const std::uint32_t a = std::uint32_t(lane >> 1);
  const int s = int(lane & 1);
  Real fl[kQ];
  const int z = in_place_load(p, a, s, Odd, Pulled, fl);
  collide_pair(fl, s, cp);
  in_place_store_post(p, a, s, z, Odd, fl);
}

// The pulled state of layout `odd` to the written form of the same layout.
template <class Real, class Storage>
__global__ void in_place_settle_kernel(const __grid_constant__ InPlaceStep<Real, Storage> p, bool odd) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= 2LL * p.table.count) return;
  const std::uint32_t a = std::uint32_t(t >> 1);
  const int s = int(t & 1);
  Real fl[kQ];
  const int z = in_place_load(p, a, s, odd, true, fl);
  in_place_store_written(p, a, s, z, odd, fl);
}

// The in-place step's state as the paper's (pre-collision) one (FusedState's counterpart).
template <class Real, class Storage>
struct InPlaceState {
  InPlaceStep<Real, Storage> p;
  bool odd, pulled;
  __device__ void fluid(std::uint32_t a, int s, Real fl[kQ]) const { in_place_load(p, a, s, odd, pulled, fl); }
  __device__ void load(int s, long long k, Real fl[kQ]) const { fluid(p.table.slot[k], s, fl); }
  // Population i that fluid node a (plane z) sent into its solid neighbour a + c_i (its solid source
  // d = opposite(i)), in flight: in a's own entry d, or in `wall` in layout E but at an eq. (14) link
  // of a pulled state.
  __device__ Real sent(std::uint32_t a, int s, int i, int z) const {
    const int d = opposite(i);
    if (odd || (pulled && (p.links(a) >> d & 1u))) return p.f.get(s, d, a, z);
    return p.wall.load(p.wall_entry(a, s, d), s, i, z);
  }
};

}  // namespace ks::lbm
