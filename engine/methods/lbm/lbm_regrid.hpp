// lbm.binary: moving a running state between the two grid levels (the `grid_level` parameter). The
// coarse lattice is the fine one at half the resolution: coarse node X covers the fine nodes 2X and
// 2X + 1, so x_c = (x_f - 1/2) / 2 on every axis (lbm_geometry.hpp, `coarsened`).
//
// The new lattice's fluid nodes get the equilibrium (eq. 6, `Product`) at each species' density and
// velocity interpolated trilinearly from the old lattice's fluid nodes; the non-equilibrium part of
// the populations (the stress and the diffusion flux beyond u_j) is dropped and rebuilds within a few
// relaxation times. Both levels use the same lattice units with c = dx / dt = c_N2 (lbm_units.hpp):
// dx and dt double together on the coarse level, so a lattice velocity is the same physical velocity
// on both and the interpolated u_j is used as it is. Runs on the host, for either solver.
#pragma once

#include <vector>

#include "lbm_config.hpp"
#include "lbm_geometry.hpp"

namespace ks::lbm {

// Position on the old lattice of node x of the new one, on every axis: x_old = scale x + offset.
struct LevelMap {
  double scale = 1.0, offset = 0.0;
};

// fine -> coarse: the coarse node X sits at the fine point 2X + 1/2; coarse -> fine: the fine node x
// at the coarse point (x - 1/2) / 2.
inline LevelMap level_map(GridLevel to) { return to == GridLevel::Coarse ? LevelMap{2.0, 0.5} : LevelMap{0.5, -0.25}; }

// Overwrites the populations `f_to` ([(s * 27 + i) * nodes + node] on the lattice of `to`, holding
// the new lattice's initial state) at its fluid nodes with the equilibrium at the species moments
// interpolated from `moments_from` (the old state's node moments, lbm_solver.hpp layout). Trilinear
// weights are renormalised over the fluid corners; a node with no fluid corner takes the nearest
// old fluid node, or the inlet state at rest if the old lattice has none. Interior solid nodes keep
// f_to; a wall node (full-way bounce-back) gets, in each direction coming from a fluid node, that
// node's new equilibrium population, i.e. what the fluid node would have pushed there in the
// relaxed state, so the first step returns consistent values.
void regrid_state(const LbmConfig& from, const LatticeGeometry& g_from, const std::vector<double>& moments_from, const LbmConfig& to,
                  const LatticeGeometry& g_to, LevelMap map, std::vector<double>& f_to);

}  // namespace ks::lbm
