// kinetic.bgk on the CPU: the streaming-relaxation step of section 2.1 over tiles of x-contiguous
// cells, OpenMP across tiles. Two passes per step, as on the GPU: the moments of the streamed f~
// (eq. 8), then streaming again and the exact relaxation (eq. 14) into the other buffer.
#include <algorithm>
#include <cmath>

#include "core/interruptible_fill.hpp"
#include "bgk_boundaries.hpp"
#include "bgk_model.hpp"
#include "bgk_solver.hpp"
#include "core/ceil_div.hpp"

namespace ks::bgk {

namespace {

constexpr int kTile = 64;  // x cells per tile: the inner loop runs over contiguous memory

class CpuSolver final : public BgkSolver {
 public:
  CpuSolver(const BgkConfig& c, const Interrupt& stop)
      : f_(initial_distribution(c, stop)), next_(filled_interruptibly(f_.size(), 0.0, stop, "second distribution array")) {
    configure(c);
  }

  void configure(const BgkConfig& c) override {
    c_ = c;
    b_ = make_boundaries(c);
    relaxation_.resize(c.cells());
    if (c.kind == Case::Cavity) {
      nw_left_.assign(c.ny, 1.0);
      nw_right_.assign(c.ny, 1.0);
      nw_bottom_.assign(c.nx, 1.0);
      nw_top_.assign(c.nx, 1.0);
    }
  }

  int step(int steps, const Interrupt& stop) override {
    int s = 0;
    for (; s < steps && !stop.requested(); ++s) {
      if (c_.kind == Case::Cavity) wall_densities();
      // A step stopped in its passes is dropped: they read f_ and write next_, which the next step
      // writes whole, so f_ stays the last completed state.
      if (!moments_pass(stop) || !relaxation_pass(stop)) break;
      f_.swap(next_);
    }
    return s;
  }

  std::vector<double> raw_moments(const Interrupt& stop) const override {
    const long long cells = c_.cells();
    std::vector<double> out(std::size_t(kRawMoments) * cells, 0.0);
    const double dV = c_.vg.cell_volume();
#pragma omp parallel for schedule(static)
    for (long long t = 0; t < tiles(); ++t) {
      if (stop.requested()) continue;
      const Tile tl = tile(t);
      for (int j = 0; j < c_.vg.count(); ++j) {
        const double vx = c_.vg.v(0, c_.vg.jx(j)), vy = c_.vg.v(1, c_.vg.jy(j)), vz = c_.vg.v(2, c_.vg.jz(j));
        const double* fj = &f_[std::size_t(j) * cells + tl.first];
        for (int i = 0; i < tl.width; ++i) add_raw_moments(&out[tl.first + i], cells, fj[i], vx, vy, vz);
      }
    }
    stop.throw_if_requested();
    for (double& x : out) x *= dV;
    return out;
  }

  std::vector<double> row(int k) const override {
    std::vector<double> out(std::size_t(c_.vg.count()) * c_.nx);
    for (int j = 0; j < c_.vg.count(); ++j) std::copy_n(&f_[(std::size_t(j) * c_.ny + k) * c_.nx], c_.nx, &out[std::size_t(j) * c_.nx]);
    return out;
  }

  void read_f(std::vector<double>& f) const override { f.assign(f_.begin(), f_.end()); }
  void write_f(const std::vector<double>& f) override { f_.assign(f.begin(), f.end()); }
  std::vector<double> read_cells(long long first, long long count) const override {
    std::vector<double> out(std::size_t(c_.vg.count()) * count);
    for (int j = 0; j < c_.vg.count(); ++j) std::copy_n(&f_[std::size_t(j) * c_.cells() + first], count, &out[std::size_t(j) * count]);
    return out;
  }
  void write_cells(long long first, long long count, const std::vector<double>& values) override {
    for (int j = 0; j < c_.vg.count(); ++j) std::copy_n(&values[std::size_t(j) * count], count, &f_[std::size_t(j) * c_.cells() + first]);
  }

 private:
  struct Tile {
    long long first;  // cell index of the tile's first cell
    int k, i0, width;
  };
  long long tiles_per_row() const { return ceil_div(c_.nx, kTile); }
  long long tiles() const { return tiles_per_row() * c_.ny; }
  Tile tile(long long t) const {
    Tile tl;
    tl.k = int(t / tiles_per_row());
    tl.i0 = int(t % tiles_per_row()) * kTile;
    tl.width = std::min(kTile, c_.nx - tl.i0);
    tl.first = (long long)tl.k * c_.nx + tl.i0;
    return tl;
  }

  StreamInputs inputs() const {
    StreamInputs s;
    s.f = f_.data();
    s.ghost_left = b_.left.data();
    s.ghost_right = b_.right.data();
    if (c_.kind == Case::Cavity) {
      s.ghost_bottom = b_.bottom.data();
      s.ghost_top = b_.top.data();
      s.nw_left = nw_left_.data();
      s.nw_right = nw_right_.data();
      s.nw_bottom = nw_bottom_.data();
      s.nw_top = nw_top_.data();
    }
    return s;
  }

  // Eq. (24): x walls from f^n in the edge columns, then y walls from the edge rows' outgoing values.
  void wall_densities() {
    const BgkConfig c = c_;
    const VelocityGrid& g = c.vg;
    StreamInputs s = inputs();
#pragma omp parallel for schedule(static)
    for (int k = 0; k < c.ny; ++k) {
      double out_left = 0.0, out_right = 0.0;
      for (int j = 0; j < g.count(); ++j) {
        const double vx = g.v(0, g.jx(j));
        const double* row = s.f + (std::size_t(j) * c.ny + k) * c.nx;
        if (vx < 0.0) out_left += -vx * row[0];
        else out_right += vx * row[c.nx - 1];
      }
      nw_left_[k] = wall_density(out_left, b_.in_left);
      nw_right_[k] = wall_density(out_right, b_.in_right);
    }
#pragma omp parallel for schedule(static)
    for (int i = 0; i < c.nx; ++i) {
      double out_bottom = 0.0, out_top = 0.0;
      for (int j = 0; j < g.count(); ++j) {
        const double vy = g.v(1, g.jy(j));
        const double Cx = courant_x(c, g.jx(j));
        if (vy < 0.0) out_bottom += -vy * y_wall_outgoing(c, s, j, i, 0, Cx);
        else out_top += vy * y_wall_outgoing(c, s, j, i, c.ny - 1, Cx);
      }
      nw_bottom_[i] = wall_density(out_bottom, b_.in_bottom);
      nw_top_[i] = wall_density(out_top, b_.in_top);
    }
  }

  // False when `stop` came during the pass (checked per tile).
  bool moments_pass(const Interrupt& stop) {
    const BgkConfig c = c_;
    const StreamInputs s = inputs();
#pragma omp parallel for schedule(static)
    for (long long t = 0; t < tiles(); ++t) {
      if (stop.requested()) continue;
      const Tile tl = tile(t);
      MomentSums sums[kTile];
      for (int j = 0; j < c.vg.count(); ++j) {
        const double vx = c.vg.v(0, c.vg.jx(j)), vy = c.vg.v(1, c.vg.jy(j)), vz = c.vg.v(2, c.vg.jz(j));
        const Courant C{courant_x(c, c.vg.jx(j)), courant_y(c, c.vg.jy(j))};
        for (int i = 0; i < tl.width; ++i) sums[i].add(streamed(c, s, j, tl.i0 + i, tl.k, C), vx, vy, vz);
      }
      for (int i = 0; i < tl.width; ++i) relaxation_[tl.first + i] = cell_relaxation(sums[i], c);
    }
    return !stop.requested();
  }

  // False when `stop` came during the pass (checked per tile).
  bool relaxation_pass(const Interrupt& stop) {
    const BgkConfig c = c_;
    const VelocityGrid& g = c.vg;
    const StreamInputs s = inputs();
    const long long cells = c.cells();
#pragma omp parallel for schedule(static)
    for (long long t = 0; t < tiles(); ++t) {
      if (stop.requested()) continue;
      const Tile tl = tile(t);
      // The Maxwellian factorises over the axes: Phi = (ex * ey) * ez, ex carrying the prefactor.
      std::vector<double> ex(std::size_t(g.n[0]) * kTile), ey(std::size_t(g.n[1]) * kTile), ez(std::size_t(g.n[2]) * kTile);
      for (int i = 0; i < tl.width; ++i) {
        const Macro& m = relaxation_[tl.first + i].phi;
        const double pre = maxwellian_prefactor(m);
        for (int a = 0; a < g.n[0]; ++a) ex[a * kTile + i] = pre * gauss(g.v(0, a), m.V[0], m.T);
        for (int a = 0; a < g.n[1]; ++a) ey[a * kTile + i] = gauss(g.v(1, a), m.V[1], m.T);
        for (int a = 0; a < g.n[2]; ++a) ez[a * kTile + i] = gauss(g.v(2, a), m.V[2], m.T);
      }
      for (int j = 0; j < g.count(); ++j) {
        const double* px = &ex[g.jx(j) * kTile];
        const double* py = &ey[g.jy(j) * kTile];
        const double* pz = &ez[g.jz(j) * kTile];
        double* out = &next_[std::size_t(j) * cells + tl.first];
        const Courant C{courant_x(c, g.jx(j)), courant_y(c, g.jy(j))};
        for (int i = 0; i < tl.width; ++i)
          out[i] = relax(streamed(c, s, j, tl.i0 + i, tl.k, C), px[i] * py[i] * pz[i], relaxation_[tl.first + i].decay);
      }
    }
    return !stop.requested();
  }

  BgkConfig c_;
  BoundaryData b_;
  HostArray<double> f_, next_;
  std::vector<CellRelaxation> relaxation_;
  std::vector<double> nw_left_, nw_right_, nw_bottom_, nw_top_;
};

}  // namespace

std::unique_ptr<BgkSolver> make_cpu_solver(const BgkConfig& c, const Interrupt& stop) { return std::make_unique<CpuSolver>(c, stop); }

}  // namespace ks::bgk
