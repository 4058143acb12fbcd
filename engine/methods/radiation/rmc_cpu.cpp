// radiation.rmc: the CPU tracer, OpenMP over cells (Algorithm 1).
#include <atomic>
#include "rmc_solver.hpp"

namespace ks::rmc {

namespace {

class CpuSolver final : public RmcSolver {
 public:
  void load(const RmcProblem& p) override {
    problem_ = p;
    view_ = march_view(problem_);
  }

  bool trace(std::uint32_t batch, int rays, Block origins, std::vector<double>& sum, std::vector<double>& sum2, double& steps,
             const Interrupt& stop) override {
    const RmcConfig& c = problem_.config;
    const int chunks = ray_chunks(c.cells(), rays);
    const TableLookup look{problem_.tables.emission.data(), problem_.tables.absorption.data(), problem_.tables.nt};
    double total_steps = 0.0;
    // The batch's sums, added to sum and sum2 once every cell is traced.
    batch_sum_.assign(std::size_t(origins.count()), 0.0);
    batch_sum2_.assign(batch_sum_.size(), 0.0);
    std::atomic<long long> traced{0};
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : total_steps)
    for (long long cell = origins.begin; cell < origins.end; ++cell) {
      if (stop.requested()) continue;
      const int ci[3] = {int(cell % c.n[0]), int(cell / c.n[0] % c.n[1]), int(cell / ((long long)c.n[0] * c.n[1]))};
      // The batch's sums per cell, chunk by chunk in order (the CUDA path adds them the same way).
      double s = 0.0, s2 = 0.0, st = 0.0;
      for (int ch = 0; ch < chunks; ++ch) {
        double cs = 0.0, cs2 = 0.0, cst = 0.0;
        trace_rays<double>(view_, look, cell, ci, batch, chunk_begin(rays, chunks, ch), chunk_begin(rays, chunks, ch + 1), rays, cs, cs2,
                           cst);
        s += cs, s2 += cs2, st += cst;
      }
      batch_sum_[cell - origins.begin] = s;
      batch_sum2_[cell - origins.begin] = s2;
      total_steps += st;
      if (++traced % 4096 == 0) stop.report("tracing rays", double(traced) / double(origins.count()));
    }
    if (stop.requested()) return false;
    for (long long cell = origins.begin; cell < origins.end; ++cell) {
      sum[cell] += batch_sum_[cell - origins.begin];
      sum2[cell] += batch_sum2_[cell - origins.begin];
    }
    steps += total_steps;
    return true;
  }

  std::size_t bytes() const override {
    std::size_t b = (problem_.tables.emission.size() + problem_.tables.absorption.size()) * sizeof(double);
    for (const auto& g : problem_.levels) b += g.coord.size() * sizeof(double);
    return b;
  }

 private:
  RmcProblem problem_;
  MarchView view_{};
  std::vector<double> batch_sum_, batch_sum2_;  // trace's scratch
};

}  // namespace

std::unique_ptr<RmcSolver> make_cpu_solver() { return std::make_unique<CpuSolver>(); }

}  // namespace ks::rmc
