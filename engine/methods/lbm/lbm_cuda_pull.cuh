// lbm.binary on the GPU, the fused step (gpu_step = fused): one kernel a step over the fluid nodes
// only. A node pulls each population from the neighbour it streams from, takes the bounce-back where
// that neighbour is solid (eq. 14 on a wall link, full-way elsewhere), applies the pressure plane when
// it lies on one, collides (eq. 2) and stores its post-collision populations in place of its own.
// Solid nodes are neither launched nor stored: the populations of fluid node a (PullNodes' order) are
// entries a of [(s * 27 + i) * fluid nodes + a], and the entry a pulls population i from is read from
// the source table (pull_sources: indirect addressing, rows read coalesced), or in FP16 found through
// the lattice's slot table (pulls_from_sources). The bounce-back needs no pass of its own, every
// store is the node's own entry, and the bed's arrays are its fluid nodes only.
//
// The result equals the paper's sequence: a step of it computes, at a fluid node x,
//   pre(n+1)_i = post(n)_i(x - c_i)                                                  fluid source
//              = eq. (14)(delta, post(n)_d(x + c_i), post(n)_d(x), post(n)_i(x))      wall link, d = opposite(i)
//              = post(n-1)_d(x)                                                      full-way (what the wall node sent back)
// then the pressure planes and the collision. So the arrays hold post-collision states: the
// solver's `f` post(n) and its `next` the older post(n-1), whose entries the step reads before it
// overwrites them with post(n+1). The paper's state after n steps (pre-collision, what read_f, the
// moments and checkpoints give) is pull() of the stored one. A state written from outside (the
// start, write_f) is stored pre-collision in `f`, with what the wall nodes would send back (full-way)
// in `next`'s entries d; the first step from it collides in place (pull_start_kernel). A step
// applies the bounce-back and planes of the step before, so a live change of their parameters first
// settles the state into that form (pull_settle_kernel).
#pragma once

#include <cstdint>

#include "lbm_cuda_populations.cuh"
#include "lbm_pull_nodes.hpp"

namespace ks::lbm {

// The device copy of PullNodes.
template <class Real>
struct PullTable {
  const std::uint32_t* node;
  const std::uint32_t* solid;
  const std::uint32_t* linked;
  const std::uint32_t* first_link;
  const Real* delta;
  const std::uint32_t* slot;
  const std::uint32_t* source;  // pull_sources' table (the fused step in FP32 and FP64, see pulls_from_sources)
  std::uint32_t count;          // fluid nodes
};

// What a pull reads besides the node. Under MPI `c` is a rank's slab (lbm_slab.hpp): its held planes,
// the first of which is the lattice's plane `first_plane`, of `lattice_planes`.
template <class Real, class Storage>
struct PullStep {
  LbmConfig c;
  int first_plane;
  int lattice_planes;
  Populations<Real, Storage> post;   // post(n) (or the written pre-collision state), per fluid node
  Populations<Real, Storage> older;  // post(n-1) (or what the wall nodes send back); the step's destination
  PullTable<Real> table;
  PlaneDensities<Real> inlet, outlet;
  bool interpolated;      // eq. (14) on the wall links, else full-way everywhere
  NodeDivisors divisors;  // of c
};

// The sources of pre(n+1) that are solid (bit i of `solid`) by the bounce-back, at fluid node a of
// held plane z; fl holds what the fluid sources sent.
template <class Real, class Storage>
__device__ void pull_walls(const PullStep<Real, Storage>& p, std::uint32_t a, int s, int z, std::uint32_t solid, Real fl[kQ]) {
  if (!solid) return;
  const std::uint32_t linked = p.interpolated ? p.table.linked[a] : 0u;
  const Real* delta = p.table.delta + p.table.first_link[a];
#pragma unroll
  for (int i = 0; i < kQ; ++i) {
    if (!(solid >> i & 1u)) continue;
    const int d = opposite(i);
    if (linked >> i & 1u) {
      // fl[d] came from x + c_i, fluid where delta >= 0, so it is a pulled value, not a replaced one.
      const Real delta_i = *delta++;
      fl[i] = delta_i < Real(0) ? p.post.get(s, d, a, z) : yu_bounce_back(delta_i, fl[d], p.post.get(s, d, a, z), p.post.get(s, i, a, z));
    } else {
      fl[i] = p.older.get(s, d, a, z);
    }
  }
}

// The pressure plane at held plane z, where it lies on one.
template <class Real, class Storage>
__device__ void pull_planes(const PullStep<Real, Storage>& p, int s, int z, Real fl[kQ]) {
  const int plane = p.first_plane + z;
  if (!p.c.periodic_z() && (plane == 0 || plane == p.lattice_planes - 1)) {
    const PlaneDensities<Real>& e = plane == 0 ? p.inlet : p.outlet;
    pressure_boundary(fl, e.rho[s], e.theta[s], e.lattice_species[s], plane == 0 ? +1 : -1);
  }
}

// The FP16 plane factors (Populations::plane_factor) of the planes that a node of plane z pulls
// from, by c_z + 1 of the direction it pulls from (direction 1 + c_z is (-1, -1, c_z)).
template <class Real, class Storage>
__device__ void neighbour_plane_factors(const PullStep<Real, Storage>& p, int z, float g[3]) {
  if constexpr (Populations<Real, Storage>::kCompressed) {
#pragma unroll
    for (int dz = -1; dz <= 1; ++dz) g[dz + 1] = p.post.plane_factor(neighbour_plane(p.c, z, 1 + dz));
  }
}

// pull_neighbours at node k = (x, y, z); kInner: no neighbour wraps, its index is k plus a constant
// of the direction.
template <bool kSlots, bool kInner, class Real, class Storage>
__device__ void pull_neighbours_at(const PullStep<Real, Storage>& p, std::uint32_t k, int x, int y, int z, int s, std::uint32_t solid,
                                   Real fl[kQ]) {
  float g[3] = {0.0f, 0.0f, 0.0f};
  neighbour_plane_factors(p, z, g);
  const int nx = p.c.nx, nxy = p.c.nx * p.c.ny;
#pragma unroll
  for (int i = 0; i < kQ; ++i) {
    if (solid >> i & 1u) {
      fl[i] = Real(0);
      continue;
    }
    const int d = opposite(i);
    const std::uint32_t from = kInner ? k + std::uint32_t(cz(d) * nxy + cy(d) * nx + cx(d)) : std::uint32_t(neighbour(p.c, x, y, z, d));
    fl[i] = p.post.decode(p.post.entry(s, i, kSlots ? p.table.slot[from] : from), s, i, g[cz(d) + 1]);
  }
}

// The fluid sources of pre(n+1) at node k through its neighbours' node indices (the solid ones are
// left to pull_walls); returns the node's plane. kSlots: their entries through the slot table (FP16
// storage, see pulls_from_sources); else the neighbours' entries are their node indices.
template <bool kSlots, class Real, class Storage>
__device__ int pull_neighbours(const PullStep<Real, Storage>& p, std::uint32_t k, int s, std::uint32_t solid, Real fl[kQ]) {
  int x, y, z;
  p.divisors.position(k, x, y, z);
  // Away from the lattice's faces no neighbour wraps (most nodes): a loop without the wrap's branches.
  if (x > 0 && x < p.c.nx - 1 && y > 0 && y < p.c.ny - 1 && z > 0 && z < p.c.nz - 1)
    pull_neighbours_at<kSlots, true>(p, k, x, y, z, s, solid, fl);
  else pull_neighbours_at<kSlots, false>(p, k, x, y, z, s, solid, fl);
  return z;
}

// pull() where every held node is fluid (the periodic box): fluid node a is node a, its neighbours'
// entries are their node indices and none is solid, so no table is read.
template <class Real, class Storage>
__device__ int pull_all_fluid(const PullStep<Real, Storage>& p, std::uint32_t a, int s, Real fl[kQ]) {
  const int z = pull_neighbours<false>(p, a, s, 0u, fl);
  pull_planes(p, s, z, fl);
  return z;
}

// The fluid sources of pre(n+1) of fluid node a from pull_sources' rows (FP32 and FP64 storage);
// the solid ones are left to pull_walls. Returns the node's plane.
template <class Real, class Storage>
__device__ int pull_from_sources(const PullStep<Real, Storage>& p, std::uint32_t a, int s, std::uint32_t solid, Real fl[kQ]) {
  const int z = p.divisors.plane(p.table.node[a]);
#pragma unroll
  for (int i = 0; i < kQ; ++i) {
    if (i == kRest) {
      fl[i] = p.post.get(s, i, a, z);
    } else if (solid >> i & 1u) {
      fl[i] = Real(0);
    } else {
      const std::uint32_t from = __ldg(&p.table.source[std::size_t(source_row(i)) * p.table.count + a]);
      fl[i] = p.post.get(s, i, from, neighbour_plane(p.c, z, opposite(i)));
    }
  }
  return z;
}

// pre(n+1) of species s at fluid node a (see the top of the file); returns the node's plane.
template <class Real, class Storage>
__device__ int pull(const PullStep<Real, Storage>& p, std::uint32_t a, int s, Real fl[kQ]) {
  const std::uint32_t solid = p.table.solid[a];
  int z;
  if constexpr (pulls_from_sources(sizeof(Storage))) z = pull_from_sources(p, a, s, solid, fl);
  else z = pull_neighbours<true>(p, p.table.node[a], s, solid, fl);
  pull_walls(p, a, s, z, solid, fl);
  pull_planes(p, s, z, fl);
  return z;
}

// Fluid nodes [first, first + count) of the table: all of them in one process; under MPI the owned
// planes' (the halo planes' nodes are held, not stepped), whose planes are runs of the table.
struct NodeRange {
  std::uint32_t first, count;
  unsigned blocks(int threads) const { return unsigned((2 * (long long)count + threads - 1) / threads); }
};

// The blocks of 256 threads a step kernel (fused or in place) keeps on an SM: 4 in float (64
// registers), 2 in double (128). Left to itself the compiler's register count follows small changes of
// the collision across the occupancy steps (it gave the box's FP32 fused step 94 registers, FP16's 73
// and 86); the bound made the box's FP32 and FP16 fused steps 20 % faster and the bed's FP16 18 %
// (README, Performance).
template <class Real>
constexpr int kStepBlocksPerSm = sizeof(Real) == 4 ? 4 : 2;

// One step: a pair of lanes per fluid node (collide_pair), post(n+1) into `older`'s entries.
template <class Real, class Storage, bool kAllFluid>
__global__ void __launch_bounds__(256, kStepBlocksPerSm<Real>)
    pull_step_kernel(const __grid_constant__ PullStep<Real, Storage> p, CollisionParams<Real> cp, NodeRange r) {
  const long long lane = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (lane >= 2LL * r.count) return;  // both lanes of a pair leave together
  const std::uint32_t a = r.first + std::uint32_t(lane >> 1);
  const int s = int(lane & 1);
  Real fl[kQ];
  const int z = kAllFluid ? pull_all_fluid(p, a, s, fl) : pull(p, a, s, fl);
  collide_pair(fl, s, cp);
  const float g = p.older.plane_factor(z);
#pragma unroll
  for (int i = 0; i < kQ; ++i) p.older.entry(s, i, a) = p.older.encode(fl[i], s, i, g);
}

// The first step from a written (pre-collision) state: collides it in place.
template <class Real, class Storage>
__global__ void __launch_bounds__(256)
    pull_start_kernel(const __grid_constant__ PullStep<Real, Storage> p, CollisionParams<Real> cp, NodeRange r) {
  const long long lane = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (lane >= 2LL * r.count) return;
  const std::uint32_t a = r.first + std::uint32_t(lane >> 1);
  const int s = int(lane & 1);
  const int z = node_plane(p.c, p.table.node[a]);
  Real fl[kQ];
#pragma unroll
  for (int i = 0; i < kQ; ++i) fl[i] = p.post.get(s, i, a, z);
  collide_pair(fl, s, cp);
#pragma unroll
  for (int i = 0; i < kQ; ++i) p.post.put(s, i, a, z, fl[i]);
}

// The stored state back to the written form: pre(n+1) into `older`'s entries, whose full-way
// values the same thread reads first; then `post` (post(n)) holds what the wall nodes send back.
template <class Real, class Storage>
__global__ void pull_settle_kernel(const __grid_constant__ PullStep<Real, Storage> p, NodeRange r) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= 2LL * r.count) return;
  const std::uint32_t a = r.first + std::uint32_t(t >> 1);
  const int s = int(t & 1);
  Real fl[kQ];
  const int z = pull(p, a, s, fl);
#pragma unroll
  for (int i = 0; i < kQ; ++i) p.older.put(s, i, a, z, fl[i]);
}

// The fused step's state as the paper's (pre-collision) one, which the moment kernels and read_f
// read: pulled from the post-collision arrays, or as written.
template <class Real, class Storage>
struct FusedState {
  PullStep<Real, Storage> p;
  bool pulled;
  // At fluid node a.
  __device__ void fluid(std::uint32_t a, int s, Real fl[kQ]) const {
    if (pulled) {
      pull(p, a, s, fl);
      return;
    }
    const int z = node_plane(p.c, p.table.node[a]);
#pragma unroll
    for (int i = 0; i < kQ; ++i) fl[i] = p.post.get(s, i, a, z);
  }
  // At fluid node k of the lattice.
  __device__ void load(int s, long long k, Real fl[kQ]) const { fluid(p.table.slot[k], s, fl); }
  // Population i that fluid node a (plane z) sent into its solid neighbour a + c_i: its post(n)_i, or
  // as written in `older`.
  __device__ Real sent(std::uint32_t a, int s, int i, int z) const { return pulled ? p.post.get(s, i, a, z) : p.older.get(s, i, a, z); }
};

// The paper's (pre-collision) populations of the lattice's nodes [first, first + out.N) into `out`
// (one thread a node and species) from a fused or in-place step's state: at fluid nodes its
// populations; at a solid node, entry i is what the fluid node x - c_i sent into it, and otherwise
// the initial state, which no step changes (initial: [(plane * 2 + s) * 27 + i]).
template <class Real, class Storage, class State>
__global__ void lattice_state_kernel(const __grid_constant__ State state, const Real* __restrict__ initial, long long first,
                                     const __grid_constant__ Populations<Real, Storage> out) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= kSpecies * out.N) return;
  const LbmConfig& c = state.p.c;
  const std::uint32_t* slot = state.p.table.slot;
  const std::uint32_t k = std::uint32_t(first + t % out.N);
  const int s = int(t / out.N);
  int x, y, z;
  node_position(c, k, x, y, z);
  Real fl[kQ];
  if (slot[k] != kNotFluid) {
    state.fluid(slot[k], s, fl);
  } else {
    for (int i = 0; i < kQ; ++i) {
      const int d = opposite(i);
      const std::uint32_t from = slot[neighbour(c, x, y, z, d)];
      fl[i] = from == kNotFluid ? initial[(z * kSpecies + s) * kQ + i] : state.sent(from, s, i, neighbour_plane(c, z, d));
    }
  }
#pragma unroll
  for (int i = 0; i < kQ; ++i) out.put(s, i, k - first, z, fl[i]);
}

// The paper's kernels' state, stored pre-collision at every node of the held lattice.
template <class Real, class Storage>
struct StoredState {
  Populations<Real, Storage> f;
  long long plane;  // nodes a plane of the held lattice
  __device__ void load(int s, long long k, Real fl[kQ]) const {
    const int z = int(k / plane);
#pragma unroll
    for (int i = 0; i < kQ; ++i) fl[i] = f.get(s, i, k, z);
  }
};

}  // namespace ks::lbm
