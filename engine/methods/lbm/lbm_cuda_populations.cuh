// lbm.binary on the GPU: what the paper's kernels (lbm_cuda.cu) and the fused pull step
// (lbm_cuda_pull.cuh) share: the population arrays, the pressure planes' states and the collision
// of a node by a pair of lanes.
#pragma once

#include <cuda_fp16.h>

#include <cmath>
#include <type_traits>

#include "lbm_model.hpp"

namespace ks::lbm {

// Where and how the populations live: f[(s * 27 + i) * N + entry] of Storage, used in Real. FP32 and
// FP64 store f itself. FP16 ("compressed") stores f - f0, with f0 the species' rest populations of
// the state the run starts in, whose pressure falls linearly along z (tube, bed; uniform in the
// periodic box): f0 = rest_si (1 + rest_slope z) at global plane z, fixed when the solver is made.
// The half's 11-bit significand then resolves the deviations that carry the flow instead of the
// large rest part and the pressure drop. Every access names the held plane z of the entry's node
// (ignored, and optimised away, by FP32 and FP64).
template <class Real, class Storage>
struct Populations {
  Storage* f;
  long long N;
  Real rest[kSpecies][kQ];  // FP16: f0 at global plane 0
  Real rest_slope = 0;      // FP16: f0's relative change per plane
  int z_first = 0;          // FP16: global plane of held plane 0 (unwrapped)

  static constexpr bool kCompressed = std::is_same_v<Storage, __half>;
  // FP16: f0 = rest_si x plane_factor(z), rounded as rest_f0 (the host's) rounds it: written states
  // decode and encode to the same bits. A kernel that reads many populations of a few planes takes
  // each plane's factor once (decode, encode).
  __device__ float plane_factor(int z) const { return __fmaf_rn(rest_slope, float(z_first + z), 1.0f); }
  __device__ Real get(int s, int i, long long k, int z) const { return decode(entry(s, i, k), s, i, plane_factor(z)); }
  __device__ void put(int s, int i, long long k, int z, Real v) const { entry(s, i, k) = encode(v, s, i, plane_factor(z)); }
  // Element e of the array holding population i of species s (coded at plane z): for arrays laid out
  // otherwise than [(s * 27 + i) * N + k], such as the in-place step's per-link values.
  __device__ Real load(long long e, int s, int i, int z) const { return decode(f[e], s, i, plane_factor(z)); }
  __device__ void store(long long e, int s, int i, int z, Real v) const { f[e] = encode(v, s, i, plane_factor(z)); }
  // Population i of species s at entry k.
  __device__ Storage& entry(int s, int i, long long k) const { return f[(s * kQ + i) * N + k]; }
  // A stored value of population i of species s at a plane whose plane_factor is g, and back.
  __device__ Real decode(Storage v, int s, int i, float g) const {
    if constexpr (kCompressed) return f0(s, i, g) + __half2float(v);
    else return v;
  }
  __device__ Storage encode(Real v, int s, int i, float g) const {
    if constexpr (kCompressed) return __float2half_rn(v - f0(s, i, g));
    else return v;
  }
  // FP16's f0 of population i of species s at a plane whose plane_factor is g.
  __device__ float f0(int s, int i, float g) const { return __fmul_rn(s == 0 ? rest[0][i] : rest[1][i], g); }
};

// f0 of the FP16 storage on the host, rounded as Populations::f0 rounds it.
inline float rest_f0(float rest, float slope, int z) { return rest * std::fma(slope, float(z), 1.0f); }

// The species' states of a pressure plane (inlet or outlet).
template <class Real>
struct PlaneDensities {
  Real rho[kSpecies], theta[kSpecies];
  bool lattice_species[kSpecies];
};

// Eq. (2) at one node by two adjacent lanes, lane parity = species: each holds only its own 27
// populations, which halves the registers per thread and doubles the warps that hide memory latency;
// the pair swaps density and momentum with two-lane shuffles for the mixture part of the collision.
// Both lanes of the pair must be active.
template <class Real>
__device__ void collide_pair(Real fl[kQ], int s, const CollisionParams<Real>& p) {
  const SpeciesMoments<Real> mine = species_moments(fl);
  const unsigned pair = 3u << (threadIdx.x & 30u);
  SpeciesMoments<Real> other;
  other.rho = __shfl_xor_sync(pair, mine.rho, 1);
#pragma unroll
  for (int a = 0; a < 3; ++a) other.j[a] = __shfl_xor_sync(pair, mine.j[a], 1);
  // The operands are selected, not the call: the lanes of a pair differ in s, and two calls would
  // each be issued for the whole warp.
  const MixtureRelaxation<Real> r = mixture_relaxation(s == 0 ? mine : other, s == 0 ? other : mine, p);
  relax_species(fl, mine, r, s == 0 ? p.theta[0] : p.theta[1], s == 0 ? p.lattice_species[0] : p.lattice_species[1]);
}

}  // namespace ks::lbm
