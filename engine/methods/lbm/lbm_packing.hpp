// lbm.binary: a seeded, reproducible random packing of spheres in a tube (the paper's packed bed,
// section 5.1: 4 <= d_p <= 8, 12753 spheres, porosity ~0.48, in a 128^2 x 256 box with 32-unit
// open sections at both ends).
//
// Sizes: the paper gives the count, the size range and the porosity, which fix the mean d^3; a
// uniform d in [4, 8] would give porosity 0.58 at 12753 spheres. We draw d from p(d) ~ d^-k on
// [d_min, d_max] with k chosen so that the expected solid volume matches the target porosity.
// Positions: uniform in the bed, then overlaps are removed by collective rearrangement (every
// overlapping pair is pushed apart along its centre line, every sphere is pushed back inside the
// tube, repeated until the largest overlap is below `overlap_tolerance` of d_min).
#pragma once

#include <cstdint>
#include <vector>

#include "core/interrupt.hpp"
#include "lbm_geometry.hpp"

namespace ks::lbm {

struct PackingSpec {
  int count = 12753;
  double d_min = 4.0, d_max = 8.0;
  double porosity = 0.48;  // target, of the bed section of the tube
  double axis[2] = {63.5, 63.5};
  double radius = 62.0;          // tube radius
  double z0 = 32.0, z1 = 223.0;  // bed section
  std::uint64_t seed = 1;
  double overlap_tolerance = 0.01;  // of d_min
  int max_sweeps = 4000;
};

struct Packing {
  std::vector<Sphere> spheres;
  double size_exponent = 0.0;  // k of p(d) ~ d^-k
  double porosity = 0.0;       // 1 - sum of sphere volumes / bed volume
  double max_overlap = 0.0;    // largest overlap left, in units of d_min
  int sweeps = 0;
};

// Throws bad_input naming the key when the target cannot be met (porosity out of reach of the size
// range, or the overlaps not removed within max_sweeps). Reports its sweeps to `stop` and throws
// Interrupted between them once it is requested.
Packing pack_spheres(const PackingSpec& spec, const Interrupt& stop = {});

}  // namespace ks::lbm
