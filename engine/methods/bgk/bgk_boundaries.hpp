// kinetic.bgk: what enters the domain. Shock: the upstream and downstream Maxwellians (eq. 17).
// Cavity: unit-density diffuse-wall Maxwellians at T_wall = 1 (eq. 23), the lid moving along +x,
// and each wall's unit inflow, so that the wall density follows from the outgoing flux (eq. 24).
#pragma once

#include <vector>

#include "core/host_array.hpp"
#include "core/interrupt.hpp"
#include "bgk_config.hpp"

namespace ks::bgk {

struct BoundaryData {
  std::vector<double> left, right, bottom, top;  // per velocity j
  // Cavity: sum over the velocities entering through each wall of |v_n| * (unit wall Maxwellian).
  double in_left = 0.0, in_right = 0.0, in_bottom = 0.0, in_top = 0.0;
};

// The discrete Maxwellian with parameters m at every velocity of the grid.
std::vector<double> discrete_maxwellian(const VelocityGrid& g, const Macro& m);
BoundaryData make_boundaries(const BgkConfig& c);
// Initial state: shock, Phi^- for x < 0 and Phi^+ for x > 0 (eq. 20); cavity, gas at rest at n = T = 1.
// Made a block at a time: a stop request throws Interrupted (core/interruptible_fill.hpp).
HostArray<double> initial_distribution(const BgkConfig& c, const Interrupt& stop = {});

}  // namespace ks::bgk
