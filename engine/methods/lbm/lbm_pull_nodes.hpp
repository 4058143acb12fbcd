// lbm.binary's fused GPU step (lbm_cuda_pull.cuh) runs over the fluid nodes only and pulls each
// population from the neighbour it streams from. Where that neighbour is solid, the population comes
// from the bounce-back instead: the interpolated rule of eq. (14) where the node has a wall link in
// that direction, the full-way rule otherwise. This is the per-node table it reads, built once from
// the geometry on the host.
#pragma once

#include <cstdint>
#include <vector>

#include "core/host_device.hpp"
#include "lbm_config.hpp"
#include "lbm_geometry.hpp"

namespace ks::lbm {

constexpr std::uint32_t kNotFluid = 0xffffffffu;

// Nodes of the paper's state made at a time from the fused step's on the GPU (read_f): a device
// block of 54 populations each, which the memory estimate counts.
constexpr long long kStateBlockNodes = 1 << 18;

struct PullNodes {
  // Per fluid node of the lattice, in index order except within the tiled planes (pull_nodes):
  std::vector<std::uint32_t> node;         // its index
  std::vector<std::uint32_t> solid;        // bit i: the node it pulls population i from (node - c_i) is solid
  std::vector<std::uint32_t> linked;       // bit i: ... and a wall link (dir = opposite(i)) gives its eq. (14) fraction
  std::vector<std::uint32_t> first_link;   // where its links start in `delta`
  std::vector<std::uint32_t> first_solid;  // where its solid sources start, counted over the nodes' `solid` bits
                                           // (the in-place step's values per solid source: lbm_cuda_in_place.cuh)
  // Per link, by node and then pulled direction: delta of eq. (15), or -1 where no fluid node lies
  // behind the node (ff < 0: the half-way rule, as bounce_back_kernel's).
  std::vector<double> delta;
  std::size_t solid_sources = 0;  // the `solid` bits of all nodes
  // Per node of the lattice: its place in `node`, or kNotFluid.
  std::vector<std::uint32_t> slot;
};

// The side of the tiles the planes [tiled_begin, tiled_end) order their fluid nodes by: a warp's lanes
// then pull from neighbours near each other in all three directions. On the packed bed 128^2 x 256
// (FP32, an H200) the list kernel ran 7 % faster in 4^3 tiles' order than in index order, and
// faster than in 8x4x2, 16x2x2 or 32x2x1 tiles (bench_lbm_tiles on branch wip/lbm-tiles, 2026-11-30).
constexpr int kOrderTile = 4;

// The rest population (c = 0 in lbm_model.hpp's product order), which a node keeps; the row of
// pull_sources' table that holds the source of population i != kRest.
constexpr int kRest = 13;
KS_HD constexpr int source_row(int i) { return i < kRest ? i : i - 1; }

// Whether the fused step reads each fluid node's sources from pull_sources' table, by the bytes of a
// stored population. On the packed bed 128^2 x 256 (an H200, bench_lbm beside the slot table in one
// call, 2026-12-01) the table ran FP32 17 % and FP64 13 % faster; in FP16, whose 27 populations take
// 54 B a species, its 104 B a node made the step 22 % slower, so FP16 finds its sources through the
// node's position and the slot table.
KS_HD constexpr bool pulls_from_sources(int storage_bytes) { return storage_bytes >= 4; }

// For the whole lattice of `c` in one process (the geometry of slab_of(c.nz, 0, 1)), or a rank's held
// planes (its slab's LbmConfig and geometry). The fluid nodes of planes [tiled_begin, tiled_end) are
// in the order of tiles of kOrderTile^3 nodes (tiles counted from x = y = 0 and z = tiled_begin,
// in index order of the tiles, then of the nodes inside one); the other planes' in index order.
PullNodes pull_nodes(const LbmConfig& c, const LatticeGeometry& g, int tiled_begin = 0, int tiled_end = 0);

// The fused step's source table of `p` (built for the lattice of `c`): [source_row(i) * F + a], for
// the F fluid nodes a and the 26 moving populations i, the place in p.node of the node a pulls i from
// (node - c_i), or kNotFluid where that node is solid. 104 B a fluid node.
std::vector<std::uint32_t> pull_sources(const LbmConfig& c, const PullNodes& p);

// Where each plane z of `c`'s lattice starts in p.node, for z in [0, c.nz] (the last: the fluid
// nodes' count): a plane outside the tiled ones is the run [start[z], start[z + 1]), and the tiled
// planes [b, e) together are the run [start[b], start[e]). A rank steps its owned planes' run and
// its end planes' runs, and sends the end planes' rows (lbm_cuda.cu).
std::vector<std::uint32_t> plane_starts(const LbmConfig& c, const PullNodes& p);

}  // namespace ks::lbm
