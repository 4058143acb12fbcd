#include "dvm_fields.hpp"

#include <algorithm>
#include <cmath>

#include "dvm_model.hpp"

namespace ks::dvm {

CellFields cell_fields(const std::vector<double>& raw, const std::vector<unsigned char>& solid) {
  const std::size_t cells = solid.size();
  CellFields f;
  f.n.assign(cells, 0.0);
  f.T.assign(cells, 0.0);
  f.p.assign(cells, 0.0);
  f.Pxy.assign(cells, 0.0);
  f.U.assign(3 * cells, 0.0);
  f.q.assign(3 * cells, 0.0);
  for (std::size_t k = 0; k < cells; ++k) {
    const CellValues d = cell_values(raw.data() + k * kRaw, solid[k], 1.0);
    f.n[k] = d.values(kFieldN)[0];
    f.T[k] = d.values(kFieldT)[0];
    f.p[k] = d.values(kFieldP)[0];
    f.Pxy[k] = d.values(kFieldPxy)[0];
    for (int a = 0; a < 3; ++a) {
      f.U[3 * k + a] = d.values(kFieldU)[a];
      f.q[3 * k + a] = d.values(kFieldQ)[a];
    }
  }
  return f;
}

AxisBracket bracket(const Axis& ax, double x) {
  const int n = ax.cells();
  if (n == 1 || x <= ax.centre(0)) return {0, 0.0};
  if (x >= ax.centre(n - 1)) return {n - 2, 1.0};
  int lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    (ax.centre(mid) <= x ? lo : hi) = mid;
  }
  return {lo, (x - ax.centre(lo)) / (ax.centre(lo + 1) - ax.centre(lo))};
}

namespace {

bool uniform(const Axis& ax) {
  for (int i = 1; i < ax.cells(); ++i)
    if (std::fabs(ax.size(i) - ax.size(0)) > 1e-9 * ax.size(0)) return false;
  return true;
}

}  // namespace

bool uniform_grid(const DvmConfig& c) { return uniform(c.axis[0]) && uniform(c.axis[1]) && uniform(c.axis[2]); }

double sample(const DvmConfig& c, const std::vector<double>& field, int components, int component, const double x[3]) {
  AxisBracket b[3];
  for (int a = 0; a < 3; ++a) b[a] = bracket(c.axis[a], x[a]);
  const int n[3] = {c.n(0), c.n(1), c.n(2)};
  double v = 0.0;
  for_each_corner(b, n, [&](double w, long long cell) { v += w * field[cell * components + component]; });
  return v;
}

namespace {

// The centre of cell i of grid_field's uniform grid along axis ax.
double display_centre(const Axis& ax, int i) { return ax.faces.front() + (i + 0.5) * ((ax.faces.back() - ax.faces.front()) / ax.cells()); }

}  // namespace

std::vector<AxisBracket> display_brackets(const DvmConfig& c, int a) {
  std::vector<AxisBracket> b(c.n(a));
  for (int i = 0; i < c.n(a); ++i) b[i] = bracket(c.axis[a], display_centre(c.axis[a], i));
  return b;
}

FieldData grid_field(const DvmConfig& c, const FieldDesc& desc, const std::vector<double>& field, bool native) {
  FieldData d;
  d.desc = desc;
  d.grid.axes = spatial_axes("L");
  for (int a = 0; a < 3; ++a) {
    const Axis& ax = c.axis[a];
    d.grid.cells[a] = ax.cells();
    d.grid.origin[a] = ax.faces.front();
    d.grid.spacing[a] = (ax.faces.back() - ax.faces.front()) / ax.cells();
  }
  if (uniform_grid(c) || native) {
    if (!uniform_grid(c))
      for (int a = 0; a < 3; ++a) d.grid.faces[a] = c.axis[a].faces;
    d.values = field;
    return d;
  }
  const int comps = desc.components;
  d.values.resize(field.size());
  for (int k = 0; k < c.n(2); ++k)
    for (int j = 0; j < c.n(1); ++j)
      for (int i = 0; i < c.n(0); ++i) {
        const int ijk[3] = {i, j, k};
        double x[3];
        for (int a = 0; a < 3; ++a) x[a] = display_centre(c.axis[a], ijk[a]);
        const long long cell = ((long long)k * c.n(1) + j) * c.n(0) + i;
        for (int m = 0; m < comps; ++m) d.values[cell * comps + m] = sample(c, field, comps, m, x);
      }
  return d;
}

Series line_profile(const DvmConfig& c, const std::vector<double>& field, int components, int component, int a, const double through[3],
                    double scale) {
  Series s;
  double x[3] = {through[0], through[1], through[2]};
  for (int i = 0; i < c.n(a); ++i) {
    x[a] = c.axis[a].centre(i);
    s.x.push_back(x[a]);
    s.y.push_back(sample(c, field, components, component, x) * scale);
  }
  return s;
}

double relative_change(const std::vector<double>& before, const std::vector<double>& after) {
  double d[3] = {}, s[3] = {};
  for (std::size_t k = 0; k < after.size(); k += kRaw) {
    const double* a = &before[k];
    const double* b = &after[k];
    auto add = [&](int g, double x0, double x1) { d[g] += (x1 - x0) * (x1 - x0), s[g] += x1 * x1; };
    add(0, a[kS0], b[kS0]);
    for (int m = kSx; m <= kSz; ++m) add(1, a[m], b[m]);
    add(2, a[kSxx] + a[kSyy] + a[kSzz], b[kSxx] + b[kSyy] + b[kSzz]);
  }
  double r = 0.0;
  for (int g = 0; g < 3; ++g)
    if (s[g] > 0.0) r = std::max(r, std::sqrt(d[g] / s[g]));
  return r;
}

}  // namespace ks::dvm
