// lbm.binary: the snapshot (fields, plots, diagnostics) of one process's lattice, of the slabs
// gathered on rank 0, or, with ExecutionContext::field_pieces, of each rank's slab as a piece of the
// fields while rank 0 gathers only what the plots need (per-plane averages, the tube's middle plane,
// the bed's counts).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/column_blocks.hpp"
#include "lbm_method.hpp"
#include "lbm_node_fields.hpp"

namespace ks::lbm {

namespace {

constexpr int kAverages = 6;  // the vectors of PlaneAverages

std::vector<double>* average(PlaneAverages& a, int v) {
  std::vector<double>* all[kAverages] = {&a.rho[kO2], &a.rho[kN2], &a.uz[kO2], &a.uz[kN2], &a.uz_mix, &a.pressure};
  return all[v];
}

}  // namespace

Snapshot LbmMethod::snapshot() const {
  momentum_rms();  // on every rank (a collective under MPI) before rank 0 alone assembles the snapshot
  const long long plane = (long long)cfg_.nx * cfg_.ny;
  if (!slab_.halo) return assemble(node_field_data(geometry_->type.data(), moments(), cfg_.nz), summary_of(*geometry_, moments()));
  const Communicator& comm = ranks_of(ctx_);
  const int planes = slab_.owned();
  const std::uint8_t* owned_type = geometry_->type.data() + plane * slab_.first_owned();
  if (ctx_.field_pieces) {
    std::vector<FieldData> fields = node_field_data(owned_type, moments(), planes);
    for (FieldData& f : fields) {
      f.grid.first = {0, 0, slab_.begin};
      f.grid.whole = {cfg_.nx, cfg_.ny, cfg_.nz};
    }
    const LatticeSummary s = gathered_summary();
    if (comm.rank() == 0) return assemble(std::move(fields), s);
    Snapshot snap;
    snap.progress = progress();
    snap.fields = std::move(fields);
    return snap;
  }
  // The moments and node types of every slab gathered on rank 0, which makes the snapshot: the types
  // are one row more after the moments.
  const long long owned = plane * planes;
  std::vector<double> mine(moments());
  mine.insert(mine.end(), owned_type, owned_type + owned);
  const std::vector<double> all = comm.gather(mine);
  if (comm.rank() != 0) {
    Snapshot snap;
    snap.progress = progress();
    return snap;
  }
  const long long N = cfg_.nodes();
  std::vector<double> m = join_column_blocks(all, kNodeMoments + 1, owned_planes_of_ranks(cfg_.nz, comm.size(), plane), N);
  LatticeGeometry g;
  g.shapes = geometry_->shapes;
  g.type.assign(m.begin() + kNodeMoments * N, m.end());
  g.fluid_nodes = g.lattice_fluid_nodes = geometry_->lattice_fluid_nodes;
  m.resize(std::size_t(kNodeMoments) * N);
  return assemble(node_field_data(g.type.data(), m, cfg_.nz), summary_of(g, m));
}

std::vector<FieldData> LbmMethod::node_field_data(const std::uint8_t* type, const std::vector<double>& m, int planes) const {
  const long long N = (long long)cfg_.nx * cfg_.ny * planes;
  std::vector<FieldData> fields(kNodeFields);
  for (int f = 0; f < kNodeFields; ++f) {
    fields[f].desc = static_info().fields[f];
    fields[f].grid.cells = {cfg_.nx, cfg_.ny, planes};
    fields[f].grid.axes = spatial_axes("dx");
    fields[f].values.reserve(std::size_t(N) * fields[f].desc.components);
  }
  for (long long k = 0; k < N; ++k) {
    const NodeFields n = node_fields(m.data(), N, k, type[k] == kFluid, cfg_.mass, density_si(1.0), velocity_si(1.0));
    for (int f = 0; f < kNodeFields; ++f)
      for (int a = 0; a < NodeFields::components(f); ++a) fields[f].values.push_back(n.values(f)[a]);
  }
  return fields;
}

LbmMethod::LatticeSummary LbmMethod::summary_of(const LatticeGeometry& whole, const std::vector<double>& m) const {
  LatticeSummary s;
  s.averages = plane_averages(cfg_, whole, m);
  if (cfg_.geometry == Geometry::Tube) s.poiseuille = poiseuille_profile(cfg_, whole, m, cfg_.nz / 2);
  s.bed = bed_counts(whole.type.data(), 0, cfg_.nz);
  s.fluid_nodes = whole.fluid_nodes;
  return s;
}

// Collective: each rank's plane averages and bed counts, and the tube's middle plane from its rank.
LbmMethod::LatticeSummary LbmMethod::gathered_summary() const {
  const Communicator& comm = ranks_of(ctx_);
  const long long plane = (long long)cfg_.nx * cfg_.ny;
  const int planes = slab_.owned();
  LbmConfig owned = cfg_;
  owned.nz = planes;
  LatticeGeometry g;
  const std::uint8_t* type = geometry_->type.data() + plane * slab_.first_owned();
  g.type.assign(type, type + plane * planes);
  PlaneAverages mine = plane_averages(owned, g, moments());
  std::vector<double> part;
  for (int v = 0; v < kAverages; ++v) part.insert(part.end(), average(mine, v)->begin(), average(mine, v)->end());
  const std::vector<double> all = comm.gather(part);
  const BedCounts bed = bed_counts(type, slab_.begin, slab_.end);
  std::vector<double> counts{double(bed.fluid), double(bed.inside)};
  comm.all_sum(counts);
  // The middle plane's moments and node types, from the rank that holds it (the others send nothing).
  const int zm = cfg_.nz / 2;
  std::vector<double> middle;
  if (cfg_.geometry == Geometry::Tube && slab_.owns(zm)) {
    const long long at = plane * (zm - slab_.begin), n = plane * planes;
    for (int q = 0; q < kNodeMoments; ++q)
      middle.insert(middle.end(), moments().begin() + q * n + at, moments().begin() + q * n + at + plane);
    middle.insert(middle.end(), type + at, type + at + plane);
  }
  if (cfg_.geometry == Geometry::Tube) middle = comm.gather(middle);
  LatticeSummary s;
  if (comm.rank() != 0) return s;
  const std::vector<double> whole = join_column_blocks(all, kAverages, owned_planes_of_ranks(cfg_.nz, comm.size(), 1), cfg_.nz);
  for (int v = 0; v < kAverages; ++v) average(s.averages, v)->assign(whole.begin() + v * cfg_.nz, whole.begin() + (v + 1) * cfg_.nz);
  s.bed = {(long long)counts[0], (long long)counts[1]};
  s.fluid_nodes = geometry_->lattice_fluid_nodes;
  if (cfg_.geometry == Geometry::Tube) {
    std::vector<std::uint8_t> middle_type(middle.begin() + kNodeMoments * plane, middle.end());
    s.poiseuille = poiseuille_profile(cfg_, geometry_->shapes, s.averages, middle.data(), plane, middle_type.data(), zm);
  }
  return s;
}

double LbmMethod::bed_porosity() const {
  const BedCounts c = bed_counts(geometry_->type.data(), 0, cfg_.nz);
  return c.inside ? double(c.fluid) / double(c.inside) : 0.0;
}

// Over planes [z0, z1) of the bed section, `type` starting at plane z0: the nodes inside the tube
// and the fluid ones among them.
LbmMethod::BedCounts LbmMethod::bed_counts(const std::uint8_t* type, int z0, int z1) const {
  BedCounts c;
  if (!scene_.packing) return c;
  const long long plane = (long long)cfg_.nx * cfg_.ny;
  for (int z = std::max(z0, int(std::ceil(scene_.bed_z[0]))); z <= std::min(z1 - 1, int(std::floor(scene_.bed_z[1]))); ++z)
    for (long long xy = 0; xy < plane; ++xy) {
      const double dx = double(xy % cfg_.nx) - scene_.shapes.axis[0], dy = double(xy / cfg_.nx) - scene_.shapes.axis[1];
      if (dx * dx + dy * dy >= scene_.shapes.radius * scene_.shapes.radius) continue;
      ++c.inside;
      c.fluid += type[(z - z0) * plane + xy] == kFluid;
    }
  return c;
}

Snapshot LbmMethod::assemble(std::vector<FieldData> fields, const LatticeSummary& s) const {
  Snapshot snap;
  snap.progress = progress();
  snap.fields = std::move(fields);
  if (!scene_.shapes.spheres.empty()) {
    FieldData sp;
    sp.desc = static_info().fields[7];
    sp.grid.kind = Grid::Kind::Particles;
    sp.grid.cells = {int(scene_.shapes.spheres.size()), 1, 1};
    sp.grid.axes = spatial_axes("dx");
    // Node k is the centre of the fields' cell k, which spans [k, k + 1] in the grid's units.
    for (const Sphere& sphere : scene_.shapes.spheres) {
      sp.positions.push_back({sphere.c[0] + 0.5, sphere.c[1] + 0.5, sphere.c[2] + 0.5});
      sp.values.push_back(2.0 * sphere.r);
    }
    snap.fields.push_back(std::move(sp));
  }

  snap.series.push_back({"residual", "step", "|c_t / c_(t-1) - 1|", residual_step_, residual_, {}});
  const PlaneAverages& a = s.averages;
  std::vector<double> z(cfg_.nz);
  std::iota(z.begin(), z.end(), 0.0);
  auto along_z = [&](const char* name, const char* y, const std::vector<double>& v, double (*to_si)(double)) {
    Series series{name, "z (dx)", y, z, {}, {}};
    for (double q : v) series.y.push_back(to_si(q));
    snap.series.push_back(std::move(series));
  };
  along_z("rho_O2(z)", "kg/m^3", a.rho[kO2], density_si);
  along_z("rho_N2(z)", "kg/m^3", a.rho[kN2], density_si);
  along_z("u_z O2(z)", "m/s", a.uz[kO2], velocity_si);
  along_z("u_z N2(z)", "m/s", a.uz[kN2], velocity_si);
  along_z("u_z(z)", "m/s", a.uz_mix, velocity_si);

  nlohmann::json d = {{"steps", steps_},
                      {"fluid_nodes", s.fluid_nodes},
                      {"wall_links", wall_links_},
                      {"momentum_rms", momentum_rms()},
                      {"schmidt", cfg_.viscosity / cfg_.diffusivity},
                      {"schmidt_max", max_schmidt(cfg_.x_o2)}};
  if (s.poiseuille) {
    const PoiseuilleProfile& pr = *s.poiseuille;
    std::vector<std::size_t> order(pr.r.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return pr.r[i] < pr.r[j]; });
    Series prof{"u_z(r)", "r (dx)", "m/s", {}, {}, {}}, ref{"u_z(r) Poiseuille", "r (dx)", "m/s", {}, {}, {}};
    for (std::size_t i : order) {
      prof.x.push_back(pr.r[i]);
      prof.y.push_back(velocity_si(pr.uz[i]));
      ref.x.push_back(pr.r[i]);
      ref.y.push_back(velocity_si(pr.analytic[i]));
    }
    snap.series.push_back(std::move(prof));
    snap.series.push_back(std::move(ref));
    d["poiseuille_l2_error"] = pr.l2_error;
    d["poiseuille_max_error"] = pr.max_error;
  }
  if (scene_.packing) {
    d["sphere_count"] = scene_.packing->spheres.size();
    d["packing_porosity"] = scene_.packing->porosity;
    d["lattice_porosity"] = s.bed.inside ? double(s.bed.fluid) / double(s.bed.inside) : 0.0;
    d["size_exponent"] = scene_.packing->size_exponent;
    d["max_overlap_d_min"] = scene_.packing->max_overlap;
  }
  snap.diagnostics = d;
  return snap;
}

}  // namespace ks::lbm
