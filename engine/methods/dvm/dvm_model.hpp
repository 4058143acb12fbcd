// kinetic.dvm: the Shakhov model (eq. 1-5) in the normalisation of dvm_config.hpp, shared by the
// CPU and CUDA paths.
#pragma once

#include <cmath>

#include "core/constants.hpp"
#include "core/host_device.hpp"
#include "dvm_fast_math.hpp"

namespace ks::dvm {

using constants::kPi;

// Velocity sums of w f per cell: everything n, U, T, P_ab and q need. Stored [cell * kRaw + moment].
enum RawMoment { kS0, kSx, kSy, kSz, kSxx, kSyy, kSzz, kSxy, kSxz, kSyz, kQx, kQy, kQz, kRaw };

KS_HD void add_raw(double* acc, double wf, double x, double y, double z) {
  const double v2 = x * x + y * y + z * z;
  acc[kS0] += wf;
  acc[kSx] += x * wf;
  acc[kSy] += y * wf;
  acc[kSz] += z * wf;
  acc[kSxx] += x * x * wf;
  acc[kSyy] += y * y * wf;
  acc[kSzz] += z * z * wf;
  acc[kSxy] += x * y * wf;
  acc[kSxz] += x * z * wf;
  acc[kSyz] += y * z * wf;
  acc[kQx] += x * v2 * wf;
  acc[kQy] += y * v2 * wf;
  acc[kQz] += z * v2 * wf;
}

// What f^S of one cell needs, precomputed once per iteration from the previous moments:
// f^S = pre exp(-c^2 invT) [1 + sh (c.q) (2 c^2 invT - 5)] with c = xi - U (eq. 2), and the
// collision frequency 1/tau = p / mu.
struct CellState {
  double U[3];
  double q[3];
  double pre;      // n (pi T)^-3/2
  double invT;     // 1 / T
  double sh;       // (1 - Pr) 4 / (5 n T^2): c.q / (5 p R T) in these units
  double inv_tau;  // p / mu = (n T / 2) / (mu_ref T^omega)
};

KS_HD double shakhov(const CellState& s, double x, double y, double z) {
  const double cx = x - s.U[0], cy = y - s.U[1], cz = z - s.U[2];
  const double c2 = cx * cx + cy * cy + cz * cz;
  const double cq = cx * s.q[0] + cy * s.q[1] + cz * s.q[2];
  return s.pre * maxwellian_exp(-c2 * s.invT) * (1.0 + s.sh * cq * (2.0 * c2 * s.invT - 5.0));
}

// f^S / tau for the velocities of a tensor grid that share (xi_x, xi_y), the CUDA sweep's factored
// form: exp(-c^2 invT) = exp(-(cx^2 + cy^2) invT) exp(-cz^2 invT), the first factor (with pre / tau)
// and the x-y parts of c^2 and c.q evaluated once per cell for all the xi_z of a warp (ShakhovXY),
// the second once per xi_z for all the (xi_x, xi_y) of a lane. Equal to inv_tau * shakhov() to
// round-off.
struct ShakhovXY {
  double g;   // pre inv_tau exp(-(cx^2 + cy^2) invT)
  double c2;  // cx^2 + cy^2
  double cq;  // cx qx + cy qy
};

KS_HD ShakhovXY shakhov_xy(const CellState& s, double x, double y) {
  const double cx = x - s.U[0], cy = y - s.U[1];
  const double c2 = cx * cx + cy * cy;
  return {s.pre * s.inv_tau * maxwellian_exp(-c2 * s.invT), c2, cx * s.q[0] + cy * s.q[1]};
}

// The z part: cz = xi_z - U_z and ez = exp(-cz^2 invT), shared by every (xi_x, xi_y) of one xi_z.
KS_HD double shakhov_source(const CellState& s, const ShakhovXY& xy, double cz, double ez) {
  const double c2 = xy.c2 + cz * cz;
  const double cq = xy.cq + cz * s.q[2];
  return xy.g * ez * (1.0 + s.sh * cq * (2.0 * c2 * s.invT - 5.0));
}

// A Maxwellian of density 1 (the shape of a diffuse wall's re-emission, eq. 8, or of the free
// stream) with 1 / T and its normalisation precomputed: the sweep evaluates it for every velocity
// at every boundary face. The defaults are T = 1 at rest.
struct UnitMaxwellian {
  double U[3] = {0.0, 0.0, 0.0};
  double invT = 1.0;
  double norm = 0.1795871221251666;  // (pi T)^-3/2
  KS_HD double operator()(double x, double y, double z) const {
    const double cx = x - U[0], cy = y - U[1], cz = z - U[2];
    return norm * maxwellian_exp(-(cx * cx + cy * cy + cz * cz) * invT);
  }
};

inline UnitMaxwellian unit_maxwellian(const double* U, double T) {
  return {{U[0], U[1], U[2]}, 1.0 / T, 1.0 / (kPi * T * std::sqrt(kPi * T))};
}

// Macroscopic fields of one cell from its raw sums (eq. 3).
struct Macro {
  double n, U[3], T, p, q[3], P[6];  // P: xx, yy, zz, xy, xz, yz of the pressure tensor (sum c_a c_b f)
};

KS_HD Macro macro_from_raw(const double* s) {
  Macro m;
  m.n = s[kS0];
  for (int a = 0; a < 3; ++a) m.U[a] = s[kSx + a] / m.n;
  const double* U = m.U;
  m.P[0] = s[kSxx] - m.n * U[0] * U[0];
  m.P[1] = s[kSyy] - m.n * U[1] * U[1];
  m.P[2] = s[kSzz] - m.n * U[2] * U[2];
  m.P[3] = s[kSxy] - m.n * U[0] * U[1];
  m.P[4] = s[kSxz] - m.n * U[0] * U[2];
  m.P[5] = s[kSyz] - m.n * U[1] * U[2];
  const double trP = m.P[0] + m.P[1] + m.P[2];
  m.T = 2.0 * trP / (3.0 * m.n);  // sum c^2 f = 3 n T / 2
  m.p = 0.5 * m.n * m.T;
  // q_a = 1/2 sum c_a c^2 f, expanded in raw sums.
  const double S2 = s[kSxx] + s[kSyy] + s[kSzz];
  const double U2 = U[0] * U[0] + U[1] * U[1] + U[2] * U[2];
  const double Sab[3][3] = {{s[kSxx], s[kSxy], s[kSxz]}, {s[kSxy], s[kSyy], s[kSyz]}, {s[kSxz], s[kSyz], s[kSzz]}};
  for (int a = 0; a < 3; ++a) {
    const double SU = Sab[a][0] * U[0] + Sab[a][1] * U[1] + Sab[a][2] * U[2];
    m.q[a] = 0.5 * (s[kQx + a] - 2.0 * SU - U[a] * S2 + 2.0 * m.n * U[a] * U2);
  }
  return m;
}

// The fields a snapshot shows of one cell, back to back in the order of DvmMethod's field list:
// n, U (3), T, p, q (3), P_xy; all 0 in solid cells. From the cell's raw sums times `scale` (the
// closed cavity's mass rescaling). The host's cell_fields and the CUDA zero-copy view use this one
// copy of the arithmetic.
enum CellField { kFieldN, kFieldU, kFieldT, kFieldP, kFieldQ, kFieldPxy, kCellFields };
struct CellValues {
  static constexpr int kCount = 10;
  double v[kCount] = {};
  KS_HD static int components(int field) { return field == kFieldU || field == kFieldQ ? 3 : 1; }
  KS_HD static int offset(int field) { return field <= kFieldU ? field : field <= kFieldQ ? field + 2 : field + 4; }
  KS_HD const double* values(int field) const { return v + offset(field); }
};
KS_HD CellValues cell_values(const double* raw, bool solid, double scale) {
  CellValues d;
  if (solid) return d;
  double s[kRaw];
  for (int q = 0; q < kRaw; ++q) s[q] = raw[q] * scale;
  const Macro m = macro_from_raw(s);
  const double v[CellValues::kCount] = {m.n, m.U[0], m.U[1], m.U[2], m.T, m.p, m.q[0], m.q[1], m.q[2], m.P[3]};
  for (int q = 0; q < CellValues::kCount; ++q) d.v[q] = v[q];
  return d;
}

// mu_ref / (n_ref m v_m L) from eq. (10) with p_ref = n_ref m v_m^2 / 2 and lambda_ref = Kn L.
inline double reference_viscosity(double kn, double omega) {
  return 15.0 * std::sqrt(kPi) * 0.5 * kn / ((5.0 - 2.0 * omega) * (7.0 - 2.0 * omega));
}

// f^S parameters for the next sweep; mu_ref from eq. (10) (reference_viscosity).
inline CellState cell_state(const Macro& m, double mu_ref, double omega, double prandtl) {
  CellState s;
  for (int a = 0; a < 3; ++a) {
    s.U[a] = m.U[a];
    s.q[a] = m.q[a];
  }
  s.pre = m.n / (kPi * m.T * std::sqrt(kPi * m.T));
  s.invT = 1.0 / m.T;
  s.sh = (1.0 - prandtl) * 4.0 / (5.0 * m.n * m.T * m.T);
  s.inv_tau = m.p / (mu_ref * std::pow(m.T, omega));
  return s;
}

}  // namespace ks::dvm
