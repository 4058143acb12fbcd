// kinetic.dvm: the fields a snapshot shows, from the raw moments, and samples of them (profiles,
// the resampling of stretched grids onto a uniform one for display).
#pragma once

#include <vector>

#include "core/field.hpp"
#include "core/host_device.hpp"
#include "dvm_config.hpp"
#include "dvm_geometry.hpp"

namespace ks::dvm {

// Per-cell macroscopic fields (0 in solid cells).
struct CellFields {
  std::vector<double> n, U, T, p, q, Pxy;  // U and q: 3 components interleaved
};
CellFields cell_fields(const std::vector<double>& raw, const std::vector<unsigned char>& solid);

// Where a point falls between an axis' cell centres: the centre below (i) and the weight of the
// one above (t), clamped to the outermost centres. sample() interpolates with it.
struct AxisBracket {
  int i;
  double t;
};
AxisBracket bracket(const Axis& ax, double x);

// The corners of the trilinear stencil of brackets b on a grid of n cells: add(weight, cell) for
// each corner of nonzero weight, in sample()'s order (the CUDA zero-copy view resamples with it too).
template <class Add>
KS_HD void for_each_corner(const AxisBracket b[3], const int n[3], Add add) {
  for (int corner = 0; corner < 8; ++corner) {
    double w = 1.0;
    long long idx[3];
    for (int a = 0; a < 3; ++a) {
      const int up = (corner >> a) & 1;
      w *= up ? b[a].t : 1.0 - b[a].t;
      idx[a] = b[a].i + up < n[a] - 1 ? b[a].i + up : n[a] - 1;
    }
    if (w != 0.0) add(w, (idx[2] * n[1] + idx[1]) * n[0] + idx[0]);
  }
}

// The brackets of the centres of grid_field's uniform cells along axis a: what a display of a
// stretched grid interpolates between (the CUDA zero-copy view does it on the device).
std::vector<AxisBracket> display_brackets(const DvmConfig& c, int a);

// Trilinear interpolation between cell centres (clamped to the outermost centres).
double sample(const DvmConfig& c, const std::vector<double>& field, int components, int component, const double x[3]);

// The field on a uniform grid with the solver's cell counts: a copy where the axes are uniform,
// a trilinear resampling where they are stretched; with `native` a stretched grid stays at its own
// cells as a rectilinear grid (Grid::faces), for files.
FieldData grid_field(const DvmConfig& c, const FieldDesc& desc, const std::vector<double>& field, bool native);
bool uniform_grid(const DvmConfig& c);  // every axis uniform: fields are shown as computed

// `component` of a field along axis `a` through the point `through` (its a-coordinate is ignored),
// at the cell centres of that axis: {coordinates, values}.
Series line_profile(const DvmConfig& c, const std::vector<double>& field, int components, int component, int a, const double through[3],
                    double scale);

// Relative L2 norm of the change of density, momentum and energy between two sets of raw sums
// (the paper's convergence measure, section 4.1): the largest of the three.
double relative_change(const std::vector<double>& before, const std::vector<double>& after);

}  // namespace ks::dvm
