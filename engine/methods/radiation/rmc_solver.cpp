// radiation.rmc: what the CPU and CUDA tracers share: the problem as a MarchView and the split of a
// cell's rays into chunks.
#include <algorithm>

#include "core/ceil_div.hpp"
#include "rmc_solver.hpp"

namespace ks::rmc {

MarchView march_view(const RmcProblem& p) {
  MarchView v{};
  const RmcConfig& c = p.config;
  v.levels = int(p.levels.size());
  for (int l = 0; l < v.levels; ++l) {
    const GridLevel& g = p.levels[l];
    for (int a = 0; a < 3; ++a) v.level[l].n[a] = g.n[a], v.level[l].h[a] = g.h[a], v.level[l].h_float[a] = float(g.h[a]);
    v.level[l].steps = g.steps;
    v.level[l].coord = g.coord.data();
  }
  for (int a = 0; a < 3; ++a) v.L[a] = c.L[a], v.periodic[a] = c.periodic[a];
  for (int s = 0; s < 6; ++s) {
    v.wall_coord[s] = p.tables.coordinate(c.walls[s].T);
    v.wall_eps[s] = c.walls[s].emissivity;
  }
  v.specular = c.reflection == Reflection::Specular;
  v.tolerance = c.tolerance;
  v.tolerance_float = float(c.tolerance);
  v.cdf_band = p.tables.cdf_band.data();
  v.cdf_point = p.tables.cdf_point.data();
  v.cdf_sorted = p.tables.cdf_sorted.data();
  v.sorted_point = p.tables.sorted_point.data();
  v.inv_source = p.tables.inv_source.data();
  v.bands = p.tables.bands;
  v.per_band = p.tables.per_band;
  v.emission_max = p.tables.emission_max;
  v.sorting = p.settings.sorting;
  v.seed = p.settings.seed;
  v.packet_shift = p.settings.packets ? 5 : 0;
  return v;
}

int ray_chunks(long long cells, int rays) {
  constexpr long long kThreads = 1 << 21;
  return int(std::clamp<long long>(ceil_div(kThreads, cells), 1, std::max(rays, 1)));
}

}  // namespace ks::rmc
