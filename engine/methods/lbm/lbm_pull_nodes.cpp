#include "lbm_pull_nodes.hpp"

#include <algorithm>

#include "lbm_model.hpp"

namespace ks::lbm {

PullNodes pull_nodes(const LbmConfig& c, const LatticeGeometry& g) {
  PullNodes p;
  const std::size_t N = std::size_t(c.nodes());
  p.slot.assign(N, kNotFluid);
  for (std::size_t k = 0; k < N; ++k)
    if (g.type[k] == kFluid) {
      p.slot[k] = std::uint32_t(p.node.size());
      p.node.push_back(std::uint32_t(k));
    }
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
  // i = opposite(dir); the links taken in node and then pulled-direction order.
  std::vector<WallLink> links = g.links;
  const auto pulled = [](const WallLink& L) { return opposite(L.dir); };
  std::sort(links.begin(), links.end(),
            [&](const WallLink& a, const WallLink& b) { return a.fluid != b.fluid ? a.fluid < b.fluid : pulled(a) < pulled(b); });
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

std::vector<std::uint32_t> plane_starts(const LbmConfig& c, const PullNodes& p) {
  std::vector<std::uint32_t> start(std::size_t(c.nz) + 1, std::uint32_t(p.node.size()));
  for (std::size_t a = p.node.size(); a-- > 0;) start[node_plane(c, p.node[a])] = std::uint32_t(a);
  for (std::size_t z = start.size() - 1; z-- > 0;) start[z] = std::min(start[z], start[z + 1]);  // planes without fluid
  return start;
}

}  // namespace ks::lbm
