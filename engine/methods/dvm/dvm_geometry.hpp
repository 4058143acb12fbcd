// kinetic.dvm: what the sweeps need to know about the physical grid: solid cells, and for each
// cell side whether the upwind value comes from a neighbour, a diffuse-wall face, the free stream
// or nowhere (a periodic axis with one cell). The discrete velocities in sweep-batch order.
#pragma once

#include <vector>

#include "dvm_config.hpp"
#include "dvm_model.hpp"

namespace ks::dvm {

// link values other than a wall-face index (>= 0).
constexpr int kFluid = -1, kInflow = -2, kPeriodic = -3;
constexpr int kMaxWallTypes = 4;

// A diffuse-wall face: the fluid cell it bounds, on which side (2 * axis + 0 lower / 1 upper), its type.
struct Face {
  long long cell;
  int side;
  int type;
};

struct Geometry {
  std::vector<unsigned char> solid;  // per cell
  std::vector<int> link;             // [cell * 6 + side]
  std::vector<Face> faces;
  std::vector<int> face_type;       // faces[i].type, for the sweeps
  std::vector<double> size[3];      // cell sizes per axis
  std::vector<double> inv_size[3];  // their reciprocals: the sweeps' |xi_a| / dx_a without a division
  std::vector<double> volume;       // per cell, 0 in solid cells
};
Geometry make_geometry(const DvmConfig& c);

// A discrete velocity and its quadrature weight (product of the trapezoidal weights).
struct Velocity {
  double x, y, z, w;
};

// One sweep batch: a contiguous range of the velocity table, inside one octant.
struct Batch {
  long long begin, count;
  int sign[3];  // +1 / -1: the sweep direction along each axis
};

// The velocity table ordered octant by octant (octant o: x positive if o & 1, y if o & 2, z if o & 4,
// Algorithm 1's groups d = 0..7), within an octant by octant-local (ix, iy, iz), iz fastest, and the
// batches over it.
std::vector<Velocity> velocity_table(const VelocityGrid& vg);
std::vector<Batch> make_batches(const DvmConfig& c);
// The batches this rank sweeps: block_of(all, c.rank, c.ranks) of make_batches(c).
std::vector<Batch> rank_batches(const DvmConfig& c);

// The grid point of octant-local index i along an axis (0: the smallest |xi|) on its negative or
// positive half (m / 2 points each).
inline int octant_point(const VelocityGrid& vg, bool positive, int i) {
  const int half = vg.m / 2;
  return positive ? half + i : half - 1 - i;
}

// One axis's values and weights by octant-local index, the negative half then the positive
// ([positive * m / 2 + i]): the factors of the table's entries of an octant.
struct OctantAxis {
  std::vector<double> xi, w;
};
OctantAxis octant_axis(const VelocityGrid& vg);

// The boundary Maxwellians a sweep can meet, for the kernels (passed by value).
struct WallTable {
  int count = 1;
  UnitMaxwellian wall[kMaxWallTypes];  // each wall type's re-emission shape
  double inflow_n = 1.0;
  UnitMaxwellian inflow;  // the free stream's shape
};
WallTable wall_table(const DvmConfig& c);

// Sum over the velocities leaving a wall of type t on `side` of a cell of |xi_n| w M_t (density 1):
// the re-emitted flux per unit wall density, the denominator of eq. (9) in discrete form.
double unit_emission(const std::vector<Velocity>& v, const WallTable& w, int side, int type);
// Sum over the velocities entering the wall on `side` of |xi_n| w M (density n, velocity U, temperature T).
double incident_flux(const std::vector<Velocity>& v, int side, double n, const double* U, double T);

// The cube case's stretched axis: `body` uniform cells across [-0.5, 0.5], geometric growth outwards
// to `lo` and `hi` with `cells` in all; the outer counts are split so both sides grow at the same
// ratio as nearly as whole cells allow. Returns the axis and the achieved ratios.
Axis stretched_axis(double lo, double hi, int cells, int body, double ratio_out[2]);

}  // namespace ks::dvm
