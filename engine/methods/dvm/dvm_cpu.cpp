// kinetic.dvm, CPU path: OpenMP over the discrete velocities of a batch (the paper's MPI program
// decomposes velocity space the same way); each thread sums its velocities' moments per slice cell
// and the slice's sums are reduced over threads in a fixed order.
#include <omp.h>

#include <algorithm>

#include "core/interruptible_fill.hpp"
#include "dvm_solver.hpp"
#include "dvm_sweep.hpp"

namespace ks::dvm {

namespace {

// T: the stored precision of f (DvmConfig::single).
template <class T>
class CpuSolver final : public DvmSolver {
 public:
  CpuSolver(const DvmConfig& c, std::shared_ptr<const Geometry> g, const Interrupt& stop)
      : cfg_(c), geo_(*g), keep_(std::move(g)), vel_(velocity_table(c.vg)), batches_(rank_batches(c)) {
    const long long slice = c.slice_cells();
    A_ = filled_interruptibly(std::size_t(c.batch_size() * slice), T(0), stop, "upwind slices");
    B_ = filled_interruptibly(std::size_t(c.batch_size() * slice), T(0), stop, "swept slices");
    partial_.assign(std::size_t(omp_get_max_threads()) * slice * kRaw, 0.0);
  }

  bool sweep(const SweepInput& in, SweepOutput& out, const Interrupt& stop) override {
    const int nx = cfg_.n(0), ny = cfg_.n(1), nz = cfg_.n(2);
    const long long slice = cfg_.slice_cells();
    out.raw.assign(cfg_.cells() * kRaw, 0.0);
    out.face_influx.assign(geo_.faces.size(), 0.0);
    const SweepView view{nx,
                         ny,
                         {geo_.inv_size[0].data(), geo_.inv_size[1].data(), geo_.inv_size[2].data()},
                         geo_.solid.data(),
                         geo_.link.data(),
                         geo_.face_type.data(),
                         in.face_rho->data(),
                         in.state->data()};
    const int threads = omp_get_max_threads();
    for (std::size_t batch = 0; batch < batches_.size(); ++batch) {
      const Batch& b = batches_[batch];
      for (int kk = 0; kk < nz; ++kk) {
        if (stop.requested()) return false;
        stop.report("velocity batch " + std::to_string(batch + 1) + " of " + std::to_string(batches_.size()),
                    (double(batch) + double(kk) / nz) / double(batches_.size()));
        const int k = b.sign[2] > 0 ? kk : nz - 1 - kk;
        const unsigned char* solid = geo_.solid.data() + (long long)k * slice;
#pragma omp parallel num_threads(threads)
        {
          double* acc = partial_.data() + std::size_t(omp_get_thread_num()) * slice * kRaw;
          std::fill(acc, acc + slice * kRaw, 0.0);
#pragma omp for schedule(static)
          for (long long v = 0; v < b.count; ++v) {
            if (stop.requested()) continue;  // the sweep is dropped: the rest of the slice need not run
            const Velocity& u = vel_[b.begin + v];
            const T* Av = A_.data() + v * slice;
            T* Bv = B_.data() + v * slice;
            for (long long n = 0; n < slice; ++n) {
              int i, j;
              sweep_cell(int(n), nx, ny, b.sign, i, j);
              const long long c = (long long)j * nx + i;
              if (solid[c]) {
                Bv[c] = T(0);
                continue;
              }
              Bv[c] = T(update_cell(view, in.walls, u, b.sign, i, j, k, Av, Bv, 1));
              add_raw(acc + c * kRaw, u.w * double(Bv[c]), u.x, u.y, u.z);
            }
          }
#pragma omp for schedule(static)
          for (long long c = 0; c < slice; ++c) {
            if (solid[c]) continue;
            double p[kRaw] = {};
            for (int t = 0; t < threads; ++t)
              for (int m = 0; m < kRaw; ++m) p[m] += partial_[(std::size_t(t) * slice + c) * kRaw + m];
            const long long cell = (long long)k * slice + c;
            accumulate_batch(p, geo_.link.data() + cell * 6, b.sign, out.raw.data() + cell * kRaw, out.face_influx.data());
          }
        }
        A_.swap(B_);
      }
    }
    if (across_ranks(in)) sum_on_host(out, *in.ranks);
    return true;
  }

  std::size_t bytes() const override { return (A_.size() + B_.size()) * sizeof(T) + partial_.size() * sizeof(double); }

 private:
  DvmConfig cfg_;
  const Geometry& geo_;
  std::shared_ptr<const Geometry> keep_;
  std::vector<Velocity> vel_;
  std::vector<Batch> batches_;
  HostArray<T> A_, B_;           // f of the batch on slices k - sz and k, [velocity * slice + cell]
  std::vector<double> partial_;  // per thread: the batch's moments of each slice cell
};

}  // namespace

std::unique_ptr<DvmSolver> make_cpu_solver(const DvmConfig& c, std::shared_ptr<const Geometry> g, const Interrupt& stop) {
  if (c.single) return std::make_unique<CpuSolver<float>>(c, std::move(g), stop);
  return std::make_unique<CpuSolver<double>>(c, std::move(g), stop);
}

}  // namespace ks::dvm
