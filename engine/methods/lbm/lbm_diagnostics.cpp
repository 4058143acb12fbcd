#include "lbm_diagnostics.hpp"

#include <algorithm>
#include <cmath>

#include "core/constants.hpp"
#include "lbm_node_fields.hpp"
#include "lbm_solver.hpp"

namespace ks::lbm {

PlaneAverages plane_averages(const LbmConfig& c, const LatticeGeometry& g, const std::vector<double>& m) {
  const long long N = c.nodes(), plane = (long long)c.nx * c.ny;
  PlaneAverages a;
  for (int s = 0; s < kSpecies; ++s) {
    a.rho[s].assign(c.nz, 0.0);
    a.uz[s].assign(c.nz, 0.0);
  }
  a.uz_mix.assign(c.nz, 0.0);
  a.pressure.assign(c.nz, 0.0);
  for (int z = 0; z < c.nz; ++z) {
    long long count = 0;
    for (long long k = z * plane; k < (z + 1) * plane; ++k) {
      if (g.type[k] != kFluid) continue;
      ++count;
      double rho = 0.0, jz = 0.0;
      for (int s = 0; s < kSpecies; ++s) {
        const double r = m[(kRhoO2 + s) * N + k], j = m[(kJO2z + 3 * s) * N + k];
        a.rho[s][z] += r;
        a.uz[s][z] += j / r;
        a.pressure[z] += r * c.theta(s);
        rho += r;
        jz += j;
      }
      a.uz_mix[z] += jz / rho;
    }
    if (count == 0) continue;
    for (int s = 0; s < kSpecies; ++s) {
      a.rho[s][z] /= count;
      a.uz[s][z] /= count;
    }
    a.uz_mix[z] /= count;
    a.pressure[z] /= count;
  }
  return a;
}

PoiseuilleProfile poiseuille_profile(const LbmConfig& c, const LatticeGeometry& g, const std::vector<double>& m, int z) {
  const long long plane = (long long)c.nx * c.ny;
  return poiseuille_profile(c, g.shapes, plane_averages(c, g, m), m.data() + z * plane, c.nodes(), g.type.data() + z * plane, z);
}

PoiseuilleProfile poiseuille_profile(const LbmConfig& c, const Shapes& shapes, const PlaneAverages& a, const double* m, long long stride,
                                     const std::uint8_t* type, int z) {
  const int z0 = std::max(0, z - 2), z1 = std::min(c.nz - 1, z + 2);
  const double G = -(a.pressure[z1] - a.pressure[z0]) / (z1 - z0);
  const double mu = c.viscosity * (a.rho[kO2][z] + a.rho[kN2][z]);
  const double R = shapes.radius;
  PoiseuilleProfile p;
  p.centre_velocity = G * R * R / (4.0 * mu);
  const long long plane = (long long)c.nx * c.ny;
  double num = 0.0, den = 0.0, worst = 0.0;
  for (long long xy = 0; xy < plane; ++xy) {
    if (type[xy] != kFluid) continue;
    const double dx = double(xy % c.nx) - shapes.axis[0], dy = double(xy / c.nx) - shapes.axis[1];
    const double r2 = dx * dx + dy * dy;
    const double u = (m[kJO2z * stride + xy] + m[kJN2z * stride + xy]) / (m[kRhoO2 * stride + xy] + m[kRhoN2 * stride + xy]);
    const double ua = G * (R * R - r2) / (4.0 * mu);
    p.r.push_back(std::sqrt(r2));
    p.uz.push_back(u);
    p.analytic.push_back(ua);
    num += (u - ua) * (u - ua);
    den += ua * ua;
    worst = std::max(worst, std::fabs(u - ua));
  }
  p.l2_error = std::sqrt(num / den);
  p.max_error = worst / p.centre_velocity;
  return p;
}

std::vector<double> mole_fraction_o2(const LbmConfig& c, const std::vector<double>& m) {
  const long long N = c.nodes();
  std::vector<double> x(N, 0.0);
  for (long long k = 0; k < N; ++k) {
    x[k] = mole_fraction(m[kRhoO2 * N + k], m[kRhoN2 * N + k], c.mass[kO2], c.mass[kN2]);
  }
  return x;
}

double mole_wave_amplitude(const LbmConfig& c, const LatticeGeometry& g, const std::vector<double>& m) {
  const std::vector<double> x = mole_fraction_o2(c, m);
  const long long plane = (long long)c.nx * c.ny;
  double sn = 0.0, cs = 0.0;
  for (int z = 0; z < c.nz; ++z) {
    double sum = 0.0;
    long long count = 0;
    for (long long k = z * plane; k < (z + 1) * plane; ++k)
      if (g.type[k] == kFluid) {
        sum += x[k];
        ++count;
      }
    const double mean = count ? sum / count : 0.0, phase = 2.0 * constants::kPi * z / c.nz;
    sn += mean * std::sin(phase);
    cs += mean * std::cos(phase);
  }
  return 2.0 / c.nz * std::sqrt(sn * sn + cs * cs);
}

}  // namespace ks::lbm
