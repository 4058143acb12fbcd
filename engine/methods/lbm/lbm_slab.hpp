// lbm.binary across MPI ranks: the lattice cut into slabs of whole z planes (the flow axis), one per
// rank in rank order. A rank owns planes [begin, end) and holds one halo plane more on each side,
// where the populations its planes stream out land before they go to the neighbouring rank; the
// ranks form a ring in z (the one process wraps z onto itself: the open ends overwrite what wraps
// around, so every rank exchanges as the one process wraps and the results agree bit for bit).
// Local plane zl of a slab is global plane begin - halo + zl.
#pragma once

#include <vector>

#include "core/communicator.hpp"
#include "core/host_device.hpp"
#include "lbm_config.hpp"

namespace ks::lbm {

struct Slab {
  int nz = 0;              // planes of the whole lattice
  int begin = 0, end = 0;  // owned planes
  int halo = 0;            // 0 for the whole lattice in one process, 1 under MPI

  KS_HD int planes() const { return end - begin + 2 * halo; }  // held planes
  KS_HD int owned() const { return end - begin; }
  KS_HD int first_owned() const { return halo; }  // local index of plane `begin`
  KS_HD int global(int zl) const { return ((begin - halo + zl) % nz + nz) % nz; }
  KS_HD bool owns(int z) const { return z >= begin && z < end; }
  KS_HD int local(int z) const { return z - begin + halo; }  // of an owned plane
};

// The populations that cross a plane towards side -1 or +1 (c_z = side) are 9 directions of each
// species: in the array [(s * 27 + i) * nodes + node] the rows j = s * 27 + i with j % 3 = 0 (c_z = -1)
// or 2 (c_z = +1), since 27 is a multiple of 3. Row r in [0, kHaloRows) of a side is j = 3 r (+ 2).
constexpr int kHaloRows = kSpecies * 9;
KS_HD constexpr int halo_row(int r, int side) { return 3 * r + (side > 0 ? 2 : 0); }

// The whole lattice (one process) or rank `rank`'s slab of `ranks`.
inline Slab slab_of(int nz, int rank, int ranks) {
  if (ranks <= 1) return {nz, 0, nz, 0};
  const Block b = block_of(nz, rank, ranks);
  return {nz, int(b.begin), int(b.end), 1};
}

// The GPU step a process runs on its slab: the in-place step needs the whole lattice (its layout
// flips the populations between neighbours each step); a rank runs the fused step instead.
inline GpuStep gpu_step_of(const LbmConfig& c, const Slab& s) {
  return c.gpu_step == GpuStep::InPlace && s.halo ? GpuStep::Fused : c.gpu_step;
}

// Every rank's owned planes as blocks of `per_plane` values (nodes of a plane, or 1 for per-plane
// values), in rank order: to join what the ranks gather (core/column_blocks.hpp).
inline std::vector<Block> owned_planes_of_ranks(int nz, int ranks, long long per_plane) {
  std::vector<Block> blocks;
  for (int r = 0; r < ranks; ++r) {
    const Slab s = slab_of(nz, r, ranks);
    blocks.push_back({per_plane * s.begin, per_plane * s.end});
  }
  return blocks;
}

}  // namespace ks::lbm
