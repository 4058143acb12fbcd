#include "rmc_reference.hpp"

#include <algorithm>
#include <cmath>

#include "rmc_planck.hpp"

namespace ks::rmc {

std::vector<double> slab_net_emission(const SpectralTables& tables, const std::vector<double>& T_cells, double L, double Tw0, double Tw1,
                                      const std::vector<double>& x) {
  const int m = int(T_cells.size());
  const double h = L / m;
  std::vector<double> t(m);
  for (int j = 0; j < m; ++j) t[j] = tables.coordinate(T_cells[j]);
  const double tw0 = tables.coordinate(Tw0), tw1 = tables.coordinate(Tw1);
  // k and E at every cell for every (band, Gauss point), then the stations over the host's threads.
  const int points = tables.bands * tables.per_band;
  std::vector<double> k(std::size_t(points) * m), E(std::size_t(tables.bands) * m);
  for (int p = 0; p < points; ++p)
    for (int j = 0; j < m; ++j) k[std::size_t(p) * m + j] = tables.absorption_at(p, t[j]);
  for (int b = 0; b < tables.bands; ++b)
    for (int j = 0; j < m; ++j) E[std::size_t(b) * m + j] = tables.emission_at(b, t[j]);
  std::vector<double> out(x.size(), 0.0);
#pragma omp parallel for schedule(dynamic, 1)
  for (long long s = 0; s < (long long)x.size(); ++s) {
    const int c = std::clamp(int(x[s] / h), 0, m - 1);
    double sum = 0.0;
    for (int b = 0; b < tables.bands; ++b) {
      const double* Eb = &E[std::size_t(b) * m];
      const double Ew0 = tables.emission_at(b, tw0), Ew1 = tables.emission_at(b, tw1);
      for (int q = 0; q < tables.per_band; ++q) {
        const double* kp = &k[std::size_t(b * tables.per_band + q) * m];
        // Own cell: optical depths to its two faces.
        const double dr = kp[c] * ((c + 1) * h - x[s]), dl = kp[c] * (x[s] - c * h);
        double G = Eb[c] * ((1.0 - expint_e2(dr)) + (1.0 - expint_e2(dl)));
        double tau = dr, e_near = expint_e2(dr);
        for (int j = c + 1; j < m; ++j) {  // cells to the right
          tau += kp[j] * h;
          const double e_far = expint_e2(tau);
          G += Eb[j] * (e_near - e_far);
          e_near = e_far;
        }
        G += Ew1 * e_near;
        tau = dl, e_near = expint_e2(dl);
        for (int j = c - 1; j >= 0; --j) {  // cells to the left
          tau += kp[j] * h;
          const double e_far = expint_e2(tau);
          G += Eb[j] * (e_near - e_far);
          e_near = e_far;
        }
        G += Ew0 * e_near;
        sum += tables.weights[q] * kp[c] * (4.0 * Eb[c] - 2.0 * G);
      }
    }
    out[s] = sum;
  }
  return out;
}

void gauss_legendre(int n, std::vector<double>& nodes, std::vector<double>& weights) {
  nodes.resize(n);
  weights.resize(n);
  for (int i = 0; i < n; ++i) {
    double z = std::cos(kPi * (i + 0.75) / (n + 0.5)), dp = 1.0;
    for (int it = 0; it < 100; ++it) {  // Newton on P_n
      double p0 = 1.0, p1 = 0.0;
      for (int j = 1; j <= n; ++j) {
        const double p2 = p1;
        p1 = p0;
        p0 = ((2.0 * j - 1.0) * z * p1 - (j - 1.0) * p2) / j;
      }
      dp = n * (z * p0 - p1) / (z * z - 1.0);
      const double dz = p0 / dp;
      z -= dz;
      if (std::fabs(dz) < 1e-15) break;
    }
    nodes[i] = -z;
    weights[i] = 2.0 / ((1.0 - z * z) * dp * dp);
  }
}

std::vector<double> box_net_emission_grey(double kappa, const double L[3], double Tw,
                                          const std::function<double(double, double, double)>& T,
                                          const std::vector<std::array<double, 3>>& points, int directions) {
  std::vector<double> mu, wmu, gs, wg;
  gauss_legendre(directions, mu, wmu);
  gauss_legendre(4, gs, wg);
  const int nphi = 2 * directions;
  const double Iw = kStefanBoltzmann * Tw * Tw * Tw * Tw / kPi;
  const double seg_max = std::min({0.25 / kappa, L[0] / 32, L[1] / 32, L[2] / 32});
  std::vector<double> out;
  for (const auto& r : points) {
    double G = 0.0;
    for (int i = 0; i < directions; ++i) {
      const double st = std::sqrt(1.0 - mu[i] * mu[i]);
      for (int j = 0; j < nphi; ++j) {
        const double ph = 2.0 * kPi * (j + 0.5) / nphi;
        const double d[3] = {st * std::cos(ph), st * std::sin(ph), mu[i]};
        double sw = 1e300;  // distance to the wall along d
        for (int a = 0; a < 3; ++a)
          if (d[a] != 0.0) sw = std::min(sw, ((d[a] > 0 ? L[a] : 0.0) - r[a]) / d[a]);
        const int segs = std::max(1, int(std::ceil(sw / seg_max)));
        const double ds = sw / segs;
        double I = Iw * std::exp(-kappa * sw);
        for (int s = 0; s < segs; ++s)
          for (int g = 0; g < 4; ++g) {
            const double sp = ds * (s + 0.5 * (gs[g] + 1.0));
            const double Tp = T(r[0] + sp * d[0], r[1] + sp * d[1], r[2] + sp * d[2]);
            I += 0.5 * ds * wg[g] * kappa * kStefanBoltzmann * Tp * Tp * Tp * Tp / kPi * std::exp(-kappa * sp);
          }
        G += wmu[i] * (2.0 * kPi / nphi) * I;
      }
    }
    const double T0 = T(r[0], r[1], r[2]);
    out.push_back(kappa * (4.0 * kStefanBoltzmann * T0 * T0 * T0 * T0 - G));
  }
  return out;
}

}  // namespace ks::rmc
