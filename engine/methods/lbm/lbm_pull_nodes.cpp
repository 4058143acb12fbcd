#include "lbm_pull_nodes.hpp"

#include <algorithm>

#include "lbm_model.hpp"

namespace ks::lbm {

namespace {

// The fluid nodes of planes [begin, end), a run of the index-ordered list, into the order of
// kOrderTile^3 tiles counted from plane `begin`.
void order_by_tiles(const LbmConfig& c, int begin, int end, std::vector<std::uint32_t>& node) {
  const auto first = std::find_if(node.begin(), node.end(), [&](std::uint32_t k) { return node_plane(c, k) >= begin; });
  const auto last = std::find_if(first, node.end(), [&](std::uint32_t k) { return node_plane(c, k) >= end; });
  constexpr int T = kOrderTile;
  const long long tiles_x = (c.nx + T - 1) / T, tiles_y = (c.ny + T - 1) / T;
  std::vector<std::pair<long long, std::uint32_t>> keyed;  // (tile, then place inside it; node)
  keyed.reserve(std::size_t(last - first));
  for (auto n = first; n != last; ++n) {
    int x, y, z;
    node_position(c, *n, x, y, z);
    z -= begin;
    const long long tile = ((long long)(z / T) * tiles_y + y / T) * tiles_x + x / T;
    keyed.emplace_back(tile * (T * T * T) + ((z % T) * T + y % T) * T + x % T, *n);
  }
  std::sort(keyed.begin(), keyed.end());
  for (std::size_t j = 0; j < keyed.size(); ++j) first[std::ptrdiff_t(j)] = keyed[j].second;
}

}  // namespace

PullNodes pull_nodes(const LbmConfig& c, const LatticeGeometry& g, int tiled_begin, int tiled_end) {
  PullNodes p;
  const std::size_t N = std::size_t(c.nodes());
  for (std::size_t k = 0; k < N; ++k)
    if (g.type[k] == kFluid) p.node.push_back(std::uint32_t(k));
  if (tiled_end > tiled_begin) order_by_tiles(c, tiled_begin, tiled_end, p.node);
  p.slot.assign(N, kNotFluid);
  for (std::size_t a = 0; a < p.node.size(); ++a) p.slot[p.node[a]] = std::uint32_t(a);
  const std::size_t fluid = p.node.size();
  p.solid.assign(fluid, 0u);
  p.linked.assign(fluid, 0u);
  p.first_solid.assign(fluid, 0u);
  for (std::size_t a = 0; a < fluid; ++a) {
    int x, y, z;
    node_position(c, p.node[a], x, y, z);
    p.first_solid[a] = std::uint32_t(p.solid_sources);
    for (int i = 0; i < kQ; ++i)
      if (g.type[neighbour(c, x, y, z, opposite(i))] != kFluid) {
        p.solid[a] |= 1u << i;
        ++p.solid_sources;
      }
  }
  // A link from x_f towards the solid x_f + c_dir replaces the population x_f pulls from there,
  // i = opposite(dir); the links taken in the list's order of their nodes and then pulled-direction order.
  std::vector<WallLink> links = g.links;
  const auto pulled = [](const WallLink& L) { return opposite(L.dir); };
  const auto place = [&](const WallLink& L) { return p.slot[L.fluid]; };
  std::sort(links.begin(), links.end(),
            [&](const WallLink& a, const WallLink& b) { return place(a) != place(b) ? place(a) < place(b) : pulled(a) < pulled(b); });
  p.first_link.assign(fluid, 0u);
  p.delta.reserve(links.size());
  std::size_t l = 0;
  for (std::size_t a = 0; a < fluid; ++a) {
    p.first_link[a] = std::uint32_t(p.delta.size());
    for (; l < links.size() && std::uint32_t(links[l].fluid) == p.node[a]; ++l) {
      p.linked[a] |= 1u << pulled(links[l]);
      p.delta.push_back(links[l].ff >= 0 ? links[l].delta : -1.0);
    }
  }
  return p;
}

std::vector<std::uint32_t> pull_sources(const LbmConfig& c, const PullNodes& p) {
  const std::size_t F = p.node.size();
  std::vector<std::uint32_t> source(std::size_t(kQ - 1) * F);
  for (std::size_t a = 0; a < F; ++a) {
    int x, y, z;
    node_position(c, p.node[a], x, y, z);
    for (int i = 0; i < kQ; ++i)
      if (i != kRest) source[std::size_t(source_row(i)) * F + a] = p.slot[neighbour(c, x, y, z, opposite(i))];
  }
  return source;
}

std::vector<std::uint32_t> plane_starts(const LbmConfig& c, const PullNodes& p) {
  std::vector<std::uint32_t> start(std::size_t(c.nz) + 1, 0u);
  for (std::uint32_t k : p.node) ++start[std::size_t(node_plane(c, k)) + 1];
  for (std::size_t z = 1; z < start.size(); ++z) start[z] += start[z - 1];  // the fluid nodes of the planes before z
  return start;
}

}  // namespace ks::lbm
