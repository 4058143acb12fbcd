// lbm.binary: the solid geometry on the lattice: a tube along z and/or spheres, the solid mask,
// and the wall links with their exact fractions (eq. 15) for the interpolated bounce-back.
// Node (x, y, z) sits at the point (x, y, z) in lattice units.
#pragma once

#include <cstdint>
#include <vector>

#include "core/interrupt.hpp"
#include "lbm_config.hpp"
#include "lbm_slab.hpp"

namespace ks::lbm {

struct Sphere {
  double c[3];
  double r;
};

// What is solid: outside the tube (when there is one) or inside a sphere.
struct Shapes {
  bool tube = false;
  double axis[2] = {0.0, 0.0};  // tube axis (x, y)
  double radius = 0.0;          // tube radius
  std::vector<Sphere> spheres;
};

enum NodeType : std::uint8_t { kFluid = 0, kWall = 1, kInterior = 2 };  // wall: solid next to fluid

// A link from a fluid node towards a solid one along direction dir. ff = the fluid node behind
// x_f (x_f - c_dir), or -1 where there is none (then the link falls back to the half-way rule).
struct WallLink {
  std::int32_t fluid, solid, ff, dir;
  double delta;  // |x_f - x_w| / |x_f - x_s| in [0, 1], eq. (15)
};

struct LatticeGeometry {
  Shapes shapes;
  std::vector<std::uint8_t> type;  // NodeType per node
  std::vector<WallLink> links;
  long long fluid_nodes = 0;          // of the owned planes
  long long lattice_fluid_nodes = 0;  // of the whole lattice: fluid_nodes summed over the ranks (LbmMethod under MPI)
};

// Mask, node types and wall links on the planes `slab` holds of the lattice of `c` (node indices of
// the held planes; links of the owned fluid nodes; fluid_nodes counts the owned planes). Links do not
// cross the open ends in z.
// Reports its stages to `stop` and throws Interrupted between them (and between planes of the wall
// links) once it is requested.
LatticeGeometry build_geometry(const LbmConfig& c, Shapes shapes, const Slab& slab, const Interrupt& stop = {});
inline LatticeGeometry build_geometry(const LbmConfig& c, Shapes shapes) {
  return build_geometry(c, std::move(shapes), slab_of(c.nz, 0, 1));
}

// The tube of the tube benchmark and of the packed bed: axis in the middle of the box, radius
// min(nx, ny)/2 - 2 (the outermost two rings of nodes are wall).
Shapes centred_tube(int nx, int ny);

// Shapes of a lattice of half the resolution: node X of the coarse lattice covers the fine nodes
// 2X and 2X + 1, so x_coarse = (x_fine - 1/2) / 2 and lengths halve.
Shapes coarsened(const Shapes& fine);

}  // namespace ks::lbm
