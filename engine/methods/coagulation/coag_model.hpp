// Coagulation kernels beta(i, j) (m^3/s), host and device. Each particle carries the
// per-particle quantities its kernel needs (ParticleAux), computed once when it changes,
// so a pair evaluation is a few flops and one square root.
#pragma once

#include <cmath>

#include "core/constants.hpp"
#include "core/philox.hpp"  // KS_HD

namespace ks::coag {

enum class KernelKind : int { FreeMolecular = 0, Constant = 1, Additive = 2, Continuum = 3, Fuchs = 4 };

struct KernelParams {
  KernelKind kind = KernelKind::FreeMolecular;
  double KF = 0.0;     // free molecular: (3 k_B T / rho_p)^{1/2}, eq. (11)
  double K = 0.0;      // constant kernel, m^3/s
  double B = 0.0;      // additive kernel beta = B (v_i + v_j), 1/s
  double kT = 0.0;     // J
  double mu = 0.0;     // gas viscosity, Pa s
  double mfp = 0.0;    // gas mean free path, m
  double rho_p = 0.0;  // particle density, kg/m^3
};

struct ParticleAux {
  double v;  // volume, m^3
  double d;  // diameter, m
  double a;  // free molecular: d^-3; continuum/Fuchs: diffusion coefficient D, m^2/s
  double c;  // Fuchs: mean thermal speed, m/s
  double g;  // Fuchs: transition parameter g, m
};

using constants::kPi;

// Cunningham slip correction, Kn = 2 lambda / d (Seinfeld & Pandis eq. 9.34).
KS_HD double cunningham(double d, double mfp) {
  const double Kn = 2.0 * mfp / d;
  return 1.0 + Kn * (1.257 + 0.4 * exp(-1.1 / Kn));
}

KS_HD ParticleAux make_aux(double v, const KernelParams& p) {
  ParticleAux x{};
  x.v = v;
  x.d = cbrt(6.0 * v / kPi);
  switch (p.kind) {
    case KernelKind::FreeMolecular: x.a = 1.0 / (x.d * x.d * x.d); break;
    case KernelKind::Continuum:
      x.a = p.kT / (3.0 * kPi * p.mu * x.d);  // Stokes-Einstein, no slip
      break;
    case KernelKind::Fuchs: {
      // Fuchs interpolation (Seinfeld & Pandis Table 13.1).
      x.a = p.kT * cunningham(x.d, p.mfp) / (3.0 * kPi * p.mu * x.d);
      const double m = p.rho_p * v;
      x.c = sqrt(8.0 * p.kT / (kPi * m));
      const double l = 8.0 * x.a / (kPi * x.c);
      const double dl = x.d + l;
      x.g = (dl * dl * dl - pow(x.d * x.d + l * l, 1.5)) / (3.0 * x.d * l) - x.d;
      break;
    }
    default: break;
  }
  return x;
}

KS_HD double beta(const ParticleAux& i, const ParticleAux& j, const KernelParams& p) {
  switch (p.kind) {
    case KernelKind::FreeMolecular: {  // eq. (11)
      const double s = i.d + j.d;
      return p.KF * s * s * sqrt(i.a + j.a);
    }
    case KernelKind::Constant: return p.K;
    case KernelKind::Additive: return p.B * (i.v + j.v);
    case KernelKind::Continuum:  // 2 pi (D_i + D_j)(d_i + d_j)
      return 2.0 * kPi * (i.a + j.a) * (i.d + j.d);
    case KernelKind::Fuchs: {
      const double s = i.d + j.d, D = i.a + j.a;
      const double g = sqrt(i.g * i.g + j.g * j.g);
      const double c = sqrt(i.c * i.c + j.c * j.c);
      return 2.0 * kPi * D * s / (s / (s + 2.0 * g) + 8.0 * D / (c * s));
    }
  }
  return 0.0;
}

// The weight factor of the modified kernel, eq. (3): beta'_ij = beta_ij * 2 w_i max(w_i, w_j) / (w_i + w_j).
// Summed over both orders it gives beta_ij max(w_i, w_j): the pair rate of the differentially
// weighted scheme, in which one event stands for min(w_i, w_j) real coagulations.
// pair_weight is its symmetric part, max / (w_i + w_j): weight_factor(w_i, w_j) = 2 w_i pair_weight.
KS_HD double pair_weight(double wi, double wj) { return (wi > wj ? wi : wj) / (wi + wj); }
KS_HD double weight_factor(double wi, double wj) { return 2.0 * wi * pair_weight(wi, wj); }

// One event between simulation particles i and j (volumes v, weights w). The lighter group
// coagulates with as many particles of the heavier one: it takes volume v_i + v_j and keeps
// its weight; the heavier keeps its volume and loses that weight. With equal weights the
// merged group is split into two particles of half the weight, so the number of simulation
// particles stays constant. Total particle volume sum(w v) is conserved in every branch.
KS_HD void coalesce(double& vi, double& wi, double& vj, double& wj) {
  const double v = vi + vj;
  if (wi == wj) {
    vi = vj = v;
    wi = wj = 0.5 * wi;
  } else if (wi > wj) {
    vj = v;
    wi -= wj;
  } else {
    vi = v;
    wj -= wi;
  }
}

}  // namespace ks::coag
