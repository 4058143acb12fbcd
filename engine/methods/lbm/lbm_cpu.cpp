// lbm.binary on the CPU: the same three stages as the GPU (section 4), OpenMP over z planes.
// Push streaming: each fluid node collides (eq. 2) and writes its populations to the neighbours,
// so every target is written by exactly one source and the planes run in parallel.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

#include "lbm_model.hpp"
#include "lbm_solver.hpp"

namespace ks::lbm {

namespace {

template <class Real>
class CpuSolver final : public LbmSolver {
 public:
  CpuSolver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g, const Slab& slab, const Communicator& comm)
      : slab_(slab), comm_(comm), g_(std::move(g)) {
    configure(c);
    // Both buffers start from the initial state: entries no stage writes (solid sources, halo
    // entries no owned node streams into) stay equal.
    const InitialState f0 = initial_state(c, slab);
    const std::size_t N = std::size_t(c.nx) * c.ny * slab.planes(), rows = std::size_t(kSpecies) * kQ;
    f_.resize(rows * N);
#pragma omp parallel for schedule(static)
    for (long long r = 0; r < (long long)rows; ++r)
      for (std::size_t node = 0; node < N; ++node) f_[std::size_t(r) * N + node] = Real(f0(std::size_t(r), node));
    next_ = f_;
  }

  void configure(const LbmConfig& c) override {
    c_ = c;
    held_ = c;
    held_.nz = slab_.planes();
    params_ = collision_params<Real>(c);
    const double p_in = inlet_pressure(c);
    mixture_densities(c, c.x_o2, p_in, rho_in_);
    mixture_densities(c, c.x_o2, p_in * c.pressure_ratio, rho_out_);
  }

  int step(int steps, const Interrupt& stop) override { return run(steps, nullptr, stop); }

  StageTimes profile(int steps) override {
    StageTimes t;
    run(steps, &t);
    return t.per_step(steps);
  }

  // Of the owned planes.
  std::vector<double> moments() const override {
    const long long N = held_.nodes(), owned = owned_nodes(), first = first_owned_node();
    std::vector<double> m(std::size_t(kNodeMoments) * owned, 0.0);
#pragma omp parallel for schedule(static)
    for (long long o = 0; o < owned; ++o) {
      const long long k = first + o;
      if (g_->type[k] != kFluid) continue;
      for (int s = 0; s < kSpecies; ++s) {
        Real f[kQ];
        for (int i = 0; i < kQ; ++i) f[i] = f_[(std::size_t(s) * kQ + i) * N + k];
        const SpeciesMoments<Real> sm = species_moments(f);
        m[(kRhoO2 + s) * owned + o] = sm.rho;
        for (int a = 0; a < 3; ++a) m[(kJO2x + 3 * s + a) * owned + o] = sm.j[a];
      }
    }
    return m;
  }

  double momentum_rms() const override {
    const std::vector<double> m = moments();
    const long long owned = owned_nodes();
    // Per-plane sums added in plane order: an OpenMP reduction combines threads in arrival order,
    // which would make the residual (and a restart) differ in the last bits from run to run. Across
    // ranks the planes are gathered in rank order, which is plane order: the same sum as one process.
    const long long plane = (long long)c_.nx * c_.ny;
    std::vector<double> per_plane(slab_.owned(), 0.0);
#pragma omp parallel for schedule(static)
    for (int z = 0; z < int(per_plane.size()); ++z)
      for (long long k = z * plane; k < (z + 1) * plane; ++k)
        for (int q = kJO2x; q < kNodeMoments; ++q) per_plane[z] += m[q * owned + k] * m[q * owned + k];
    if (slab_.halo) per_plane = comm_.all_gather(per_plane);
    double sum = 0.0;
    for (double s : per_plane) sum += s;
    return std::sqrt(sum / double(g_->lattice_fluid_nodes));
  }

  // The owned planes.
  void read_f(std::vector<double>& f) const override {
    const long long N = held_.nodes(), owned = owned_nodes(), first = first_owned_node();
    f.resize(std::size_t(kSpecies) * kQ * owned);
    for (int j = 0; j < kSpecies * kQ; ++j) std::copy_n(f_.begin() + j * N + first, owned, f.begin() + j * owned);
  }
  void write_f(const std::vector<double>& f) override {
    const long long N = held_.nodes(), owned = owned_nodes(), first = first_owned_node();
    for (int j = 0; j < kSpecies * kQ; ++j) std::copy_n(f.begin() + j * owned, owned, f_.begin() + j * N + first);
  }

 private:
  long long owned_nodes() const { return (long long)c_.nx * c_.ny * slab_.owned(); }
  long long first_owned_node() const { return (long long)c_.nx * c_.ny * slab_.first_owned(); }

  // The three stages of a step, with the halo exchange after streaming; with `t`, the wall time of
  // each stage is added to it (the exchange to collide_stream). Returns the steps completed: a step
  // stopped during collide_stream writes only next_, so f_ stays the last completed state (the
  // entries it wrote are rewritten by the next full step; none that no stage writes is touched).
  int run(int steps, StageTimes* t, const Interrupt& stop = {}) {
    using Clock = std::chrono::steady_clock;
    auto timed = [&](double StageTimes::*stage, auto&& body) {
      const auto t0 = Clock::now();
      body();
      if (t) t->*stage += std::chrono::duration<double>(Clock::now() - t0).count();
    };
    for (int n = 0; n < steps; ++n) {
      bool stopped = false;
      timed(&StageTimes::collide_stream, [&] {
        stopped = !collide_stream(stop);
        if (slab_.halo) exchange_halos();
      });
      if (stopped) return n;
      if (c_.bounce_back == BounceBack::Interpolated) timed(&StageTimes::bounce_back, [&] { bounce_back(); });
      if (!c_.periodic_z())
        timed(&StageTimes::boundary, [&] {
          if (slab_.owns(0)) pressure_plane(slab_.local(0), +1, rho_in_);
          if (slab_.owns(c_.nz - 1)) pressure_plane(slab_.local(c_.nz - 1), -1, rho_out_);
        });
      f_.swap(next_);
    }
    return steps;
  }

  // What the owned planes streamed into the halo planes goes to the neighbouring ranks, and what
  // theirs streamed into this rank's halo arrives in its end planes (lbm_slab.hpp).
  void exchange_halos() {
    const long long N = held_.nodes(), plane = (long long)c_.nx * c_.ny;
    const long long top = (long long)(slab_.planes() - 1) * plane;
    halo_out_.resize(2 * kHaloRows * plane);
    halo_in_.resize(halo_out_.size());
    Real* to_prev = halo_out_.data();
    Real* to_next = to_prev + kHaloRows * plane;
    for (int r = 0; r < kHaloRows; ++r) {
      std::copy_n(next_.data() + halo_row(r, -1) * N, plane, to_prev + r * plane);
      std::copy_n(next_.data() + halo_row(r, +1) * N + top, plane, to_next + r * plane);
    }
    Real* from_prev = halo_in_.data();
    Real* from_next = from_prev + kHaloRows * plane;
    comm_.ring_exchange(to_prev, to_next, from_prev, from_next, kHaloRows * plane * sizeof(Real));
    const long long first = first_owned_node(), last = top - plane;
    for (int r = 0; r < kHaloRows; ++r) {
      std::copy_n(from_prev + r * plane, plane, next_.data() + halo_row(r, +1) * N + first);
      std::copy_n(from_next + r * plane, plane, next_.data() + halo_row(r, -1) * N + last);
    }
  }

  Real* pop(std::vector<Real>& v, int s, int i) { return v.data() + (std::size_t(s) * kQ + i) * held_.nodes(); }

  // Stage 1: collide at fluid nodes and push; wall nodes send back what they received (full-way).
  // False when `stop` came during it (checked per plane; across ranks never requested): next_ is then
  // incomplete.
  bool collide_stream(const Interrupt& stop) {
    const LbmConfig c = held_;
    const long long N = c.nodes();
    const std::uint8_t* type = g_->type.data();
    const int z0 = slab_.first_owned(), z1 = z0 + slab_.owned();
    std::atomic<bool> stopped{false};
#pragma omp parallel for schedule(static)
    for (int z = z0; z < z1; ++z) {
      if (stopped.load(std::memory_order_relaxed) || stop.requested()) {
        stopped.store(true, std::memory_order_relaxed);
        continue;
      }
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
    return !stopped;
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
    const long long N = held_.nodes(), plane = (long long)c_.nx * c_.ny;
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

  LbmConfig c_, held_;  // the whole lattice; the planes this process holds
  Slab slab_;
  const Communicator& comm_;
  CollisionParams<Real> params_;
  double rho_in_[kSpecies] = {0.0, 0.0}, rho_out_[kSpecies] = {0.0, 0.0};
  std::shared_ptr<const LatticeGeometry> g_;
  std::vector<Real> f_, next_;
  std::vector<Real> halo_out_, halo_in_;  // to prev, to next; from prev, from next
};

}  // namespace

std::unique_ptr<LbmSolver> make_cpu_solver(const LbmConfig& c, std::shared_ptr<const LatticeGeometry> g, const Slab& slab,
                                           const Communicator& comm) {
  if (c.precision == Precision::Fp32) return std::make_unique<CpuSolver<float>>(c, std::move(g), slab, comm);
  return std::make_unique<CpuSolver<double>>(c, std::move(g), slab, comm);
}

}  // namespace ks::lbm
