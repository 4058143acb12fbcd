// lbm.binary on the CPU: the same three stages as the GPU (section 4), OpenMP over z planes.
// Push streaming: each fluid node collides (eq. 2) and writes its populations to the neighbours,
// so every target is written by exactly one source and the planes run in parallel.
#include <chrono>
#include <cmath>

#include "lbm_model.hpp"
#include "lbm_solver.hpp"

namespace ks::lbm {

namespace {

template <class Real>
class CpuSolver final : public LbmSolver {
 public:
  CpuSolver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g) : g_(std::move(g)) {
    configure(c);
    // Both buffers start from the initial state: entries no stage writes (solid sources) stay equal.
    write_f(initial_distribution(c));
    next_ = f_;
  }

  void configure(const LbmConfig& c) override {
    c_ = c;
    params_ = collision_params<Real>(c);
    const double p_in = inlet_pressure(c);
    mixture_densities(c, c.x_o2, p_in, rho_in_);
    mixture_densities(c, c.x_o2, p_in * c.pressure_ratio, rho_out_);
  }

  void step(int steps) override { run(steps, nullptr); }

  StageTimes profile(int steps) override {
    StageTimes t;
    run(steps, &t);
    return t.per_step(steps);
  }

  std::vector<double> moments() const override {
    const long long N = c_.nodes();
    std::vector<double> m(std::size_t(kNodeMoments) * N, 0.0);
#pragma omp parallel for schedule(static)
    for (long long k = 0; k < N; ++k) {
      if (g_->type[k] != kFluid) continue;
      for (int s = 0; s < kSpecies; ++s) {
        Real f[kQ];
        for (int i = 0; i < kQ; ++i) f[i] = f_[(std::size_t(s) * kQ + i) * N + k];
        const SpeciesMoments<Real> sm = species_moments(f);
        m[(kRhoO2 + s) * N + k] = sm.rho;
        for (int a = 0; a < 3; ++a) m[(kJO2x + 3 * s + a) * N + k] = sm.j[a];
      }
    }
    return m;
  }

  double momentum_rms() const override {
    const std::vector<double> m = moments();
    const long long N = c_.nodes();
    // Per-plane sums added in plane order: an OpenMP reduction combines threads in arrival order,
    // which would make the residual (and a restart) differ in the last bits from run to run.
    const long long plane = (long long)c_.nx * c_.ny;
    std::vector<double> per_plane(c_.nz, 0.0);
#pragma omp parallel for schedule(static)
    for (int z = 0; z < c_.nz; ++z)
      for (long long k = z * plane; k < (z + 1) * plane; ++k)
        for (int q = kJO2x; q < kNodeMoments; ++q) per_plane[z] += m[q * N + k] * m[q * N + k];
    double sum = 0.0;
    for (double s : per_plane) sum += s;
    return std::sqrt(sum / double(g_->fluid_nodes));
  }

  void read_f(std::vector<double>& f) const override { f.assign(f_.begin(), f_.end()); }
  void write_f(const std::vector<double>& f) override { f_.assign(f.begin(), f.end()); }

 private:
  // The three stages of a step; with `t`, the wall time of each is added to it.
  void run(int steps, StageTimes* t) {
    using Clock = std::chrono::steady_clock;
    auto timed = [&](double StageTimes::*stage, auto&& body) {
      const auto t0 = Clock::now();
      body();
      if (t) t->*stage += std::chrono::duration<double>(Clock::now() - t0).count();
    };
    for (int n = 0; n < steps; ++n) {
      timed(&StageTimes::collide_stream, [&] { collide_stream(); });
      if (c_.bounce_back == BounceBack::Interpolated) timed(&StageTimes::bounce_back, [&] { bounce_back(); });
      if (!c_.periodic_z())
        timed(&StageTimes::boundary, [&] {
          pressure_plane(0, +1, rho_in_);
          pressure_plane(c_.nz - 1, -1, rho_out_);
        });
      f_.swap(next_);
    }
  }

  Real* pop(std::vector<Real>& v, int s, int i) { return v.data() + (std::size_t(s) * kQ + i) * c_.nodes(); }

  // Stage 1: collide at fluid nodes and push; wall nodes send back what they received (full-way).
  void collide_stream() {
    const LbmConfig c = c_;
    const long long N = c.nodes();
    const std::uint8_t* type = g_->type.data();
#pragma omp parallel for schedule(static)
    for (int z = 0; z < c.nz; ++z)
      for (int y = 0; y < c.ny; ++y)
        for (int x = 0; x < c.nx; ++x) {
          const long long k = (std::size_t(z) * c.ny + y) * c.nx + x;
          if (type[k] == kInterior) continue;
          if (type[k] == kWall) {
            for (int i = 0; i < kQ; ++i) {
              const long long src = neighbour(c, x, y, z, opposite(i));
              if (type[src] != kFluid) continue;
              for (int s = 0; s < kSpecies; ++s) pop(next_, s, opposite(i))[src] = pop(f_, s, i)[k];
            }
            continue;
          }
          Real f[kSpecies][kQ];
          for (int s = 0; s < kSpecies; ++s)
            for (int i = 0; i < kQ; ++i) f[s][i] = f_[(std::size_t(s) * kQ + i) * N + k];
          collide(f, params_);
          for (int i = 0; i < kQ; ++i) {
            const long long to = neighbour(c, x, y, z, i);
            for (int s = 0; s < kSpecies; ++s) pop(next_, s, i)[to] = f[s][i];
          }
        }
  }

  // Stage 2: eq. (14) on every wall link; half-way bounce-back where x_ff is not fluid.
  void bounce_back() {
    const auto& links = g_->links;
#pragma omp parallel for schedule(static)
    for (std::size_t l = 0; l < links.size(); ++l) {
      const WallLink L = links[l];
      for (int s = 0; s < kSpecies; ++s) {
        const Real* fi = pop(next_, s, L.dir);
        Real* fb = pop(next_, s, opposite(L.dir));
        fb[L.fluid] = L.ff >= 0 ? yu_bounce_back(Real(L.delta), fi[L.fluid], fi[L.solid], fb[L.ff]) : fi[L.solid];
      }
    }
  }

  // Stage 3: the pressure boundary on the fluid nodes of plane z.
  void pressure_plane(int z, int side, const double rho[kSpecies]) {
    const long long N = c_.nodes(), plane = (long long)c_.nx * c_.ny;
#pragma omp parallel for schedule(static)
    for (long long k = z * plane; k < (z + 1) * plane; ++k) {
      if (g_->type[k] != kFluid) continue;
      for (int s = 0; s < kSpecies; ++s) {
        Real f[kQ];
        for (int i = 0; i < kQ; ++i) f[i] = next_[(std::size_t(s) * kQ + i) * N + k];
        pressure_boundary(f, Real(rho[s]), params_.theta[s], params_.lattice_species[s], side);
        for (int i = 0; i < kQ; ++i)
          if (cz(i) == side) next_[(std::size_t(s) * kQ + i) * N + k] = f[i];
      }
    }
  }

  LbmConfig c_;
  CollisionParams<Real> params_;
  double rho_in_[kSpecies] = {0.0, 0.0}, rho_out_[kSpecies] = {0.0, 0.0};
  std::shared_ptr<const LatticeGeometry> g_;
  std::vector<Real> f_, next_;
};

}  // namespace

std::unique_ptr<LbmSolver> make_cpu_solver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g) {
  if (c.precision == Precision::Fp32) return std::make_unique<CpuSolver<float>>(c, std::move(g));
  return std::make_unique<CpuSolver<double>>(c, std::move(g));
}

}  // namespace ks::lbm
