// radiation.rmc: deterministic solutions the Monte Carlo estimates are checked against (Q^R = div q,
// net emission, W/m^3).
#pragma once

#include <array>
#include <functional>
#include <vector>

#include "rmc_config.hpp"
#include "rmc_spectral.hpp"

namespace ks::rmc {

// A 1D slab [0, L] of cells with uniform temperatures T_cells (equal widths) between black walls at
// Tw0 (x = 0) and Tw1 (x = L), for every pseudo-spectral point of `tables` (correlated along the
// path, as the rays are):
//   div q(x) = sum_{n,g} w_g k(x) [4 E_n(x) - G_{n,g}(x)],
//   G = 2 [E_n(Tw0) E2(tau(0, x)) + E_n(Tw1) E2(tau(x, L)) + sum_j E_n(T_j) (E2(tau_near,j) - E2(tau_far,j))]
// with the exponential integral E2 and optical depths tau from x (Modest, Radiative Heat Transfer,
// ch. 14). For an isothermal grey slab between cold walls: 2 k sigma T^4 [E2(k x) + E2(k (L - x))].
std::vector<double> slab_net_emission(const SpectralTables& tables, const std::vector<double>& T_cells, double L, double Tw0, double Tw1,
                                      const std::vector<double>& x);

// A grey medium of absorption coefficient kappa in the box [0, L]^3 with black walls at Tw and the
// temperature T(x, y, z): div q = kappa (4 sigma T^4 - G), G = int_4pi I(r, Omega) dOmega by
// Gauss-Legendre quadrature in direction and along each path (the quasi-analytic solution of
// Sakurai et al. for the sin profile). `directions` sets n_mu = directions, n_phi = 2 directions.
std::vector<double> box_net_emission_grey(double kappa, const double L[3], double Tw,
                                          const std::function<double(double, double, double)>& T,
                                          const std::vector<std::array<double, 3>>& points, int directions = 32);

// Gauss-Legendre nodes and weights on [-1, 1].
void gauss_legendre(int n, std::vector<double>& nodes, std::vector<double>& weights);

}  // namespace ks::rmc
