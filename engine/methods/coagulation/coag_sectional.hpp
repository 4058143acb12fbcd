// Deterministic discrete-sectional reference solver for the coagulation population balance:
// the fixed-pivot technique of Kumar & Ramkrishna (1996, Chem. Eng. Sci. 51, 1311) on a
// geometric volume grid, integrated with classical RK4. It is the benchmark of Wei & Kruis
// (2013), section 4.1: 200 sections with spacing v_{k+1}/v_k = 1.12.
#pragma once

#include <functional>
#include <vector>

namespace ks::coag {

// Kernel as a function of two particle VOLUMES (m^3) -> beta (m^3/s). Symmetric.
using VolumeKernel = std::function<double(double v1, double v2)>;

// Pivots x_k = v_min * ratio^k, k = 0 .. sections-1.
struct SectionalGrid {
  double v_min;         // smallest pivot volume (m^3)
  double ratio = 1.12;  // volume ratio of neighbouring pivots (> 1)
  int sections = 200;
};

struct SectionalMoments {
  double t;        // time (s)
  double number;   // number concentration (1/m^3)
  double volume;   // volume fraction (m^3/m^3)
  double d_g;      // number-weighted geometric mean diameter (m), d = (6 v / pi)^(1/3)
  double sigma_g;  // number-weighted geometric standard deviation of the diameter
};

class SectionalSolver {
 public:
  // Precomputes the kernel matrix and the fixed-pivot targets of every pivot pair.
  // Throws std::invalid_argument for a bad grid or a negative / non-finite kernel value.
  SectionalSolver(SectionalGrid grid, VolumeKernel kernel);

  // Initial conditions; each resets the time to 0.
  // Number concentration per section (size = sections, entries >= 0).
  void set_number(std::vector<double> n);
  // All N0 in the section whose pivot is closest to v0 on the log scale
  // (use v_min = v0 for an exact monodisperse start).
  void set_monodisperse(double N0, double v0);
  // Lognormal in diameter (N0 total, geometric mean diameter dg, geometric std sigma_g > 1),
  // integrated over each section's diameter range, whose bounds are the geometric midpoints
  // between pivots (the end sections get the same half-width), renormalised to N0 total.
  void set_lognormal(double N0, double dg, double sigma_g);

  // Integrates the population balance from time() to t (s), landing exactly on t.
  // Throws std::invalid_argument if t < time().
  void advance_to(double t);

  double time() const;
  SectionalMoments moments() const;           // d_g and sigma_g are NaN when no particles are left
  const std::vector<double>& number() const;  // per section (1/m^3)
  const std::vector<double>& pivots() const;  // pivot volumes (m^3)

 private:
  // Where the coalescence of pivots j >= k lands: gain_lo * N_j N_k into section lo and
  // gain_hi * N_j N_k into section hi (the kernel and the 1 - delta_jk / 2 factor included).
  struct PairTarget {
    int j;
    int k;
    int lo;
    int hi;
    double gain_lo;
    double gain_hi;
  };

  // dn = dN/dt at state n; loss[i] = sum_k beta_ik n_k (per-particle loss rate, 1/s).
  void derivative(const std::vector<double>& n, std::vector<double>& dn, std::vector<double>& loss) const;
  // RK4 step (s) for the current state, given its loss rates.
  double step_size(const std::vector<double>& loss) const;

  std::vector<double> pivots_;
  std::vector<double> log_diameters_;
  std::vector<double> kernel_;  // beta(x_i, x_k), row-major sections x sections
  std::vector<PairTarget> pairs_;
  std::vector<double> n_;
  double t_ = 0.0;

  // RK4 workspace.
  std::vector<double> k1_, k2_, k3_, k4_, stage_, loss_, stage_loss_;
};

}  // namespace ks::coag
