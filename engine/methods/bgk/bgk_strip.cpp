#include "bgk_strip.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/column_blocks.hpp"
#include "core/errors.hpp"
#include "bgk_params.hpp"

namespace ks::bgk {

int halo_width(const BgkConfig& c) {
  if (c.kind == Case::Cavity) return 1;  // |C| <= 1: the row above or below
  return int(std::floor(courant_number(c))) + 1;
}

Strip strip_of(const BgkConfig& c, int rank, int ranks) {
  Strip s;
  s.rows = c.kind == Case::Cavity;
  s.unit = s.rows ? c.nx : 1;
  const int n = s.rows ? c.ny : c.nx, h = halo_width(c);
  const Block b = block_of(n, rank, ranks);
  if (ranks > 1 && n / ranks < h) {
    const char* key = s.rows ? "ny" : "nx";
    throw bad_input(key,
                    std::string(key) + " = " + std::to_string(n) + " cut into " + std::to_string(ranks) + " strips leaves " +
                        std::to_string(n / ranks) + " " + (s.rows ? "rows" : "cells") + " on a rank, fewer than the " + std::to_string(h) +
                        " the upwind stencil reaches",
                    std::string(key) + " >= " + std::to_string(h * ranks) +
                        (s.rows ? " (or fewer ranks)" : " (or fewer ranks, or a smaller Courant number)"));
  }
  s.begin = int(b.begin);
  s.end = int(b.end);
  s.lo = s.begin > 0 ? h : 0;
  s.hi = s.end < n ? h : 0;
  return s;
}

BgkConfig held_config(const BgkConfig& c, const Strip& s) {
  BgkConfig h = c;
  if (s.rows) {
    h.ny = s.held();
    h.whole_ny = c.ny;
  } else {
    h.nx = s.held();
    h.first_column = s.begin - s.lo;
  }
  return h;
}

std::vector<Block> owned_cells_of_ranks(const BgkConfig& c, int ranks) {
  std::vector<Block> blocks;
  for (int r = 0; r < ranks; ++r) blocks.push_back(strip_of(c, r, ranks).owned_in_whole());
  return blocks;
}

void BgkSolver::exchange_halos(const HaloCells& h, const Communicator& comm) {
  const std::vector<double> to_prev = h.prev ? read_cells(h.first, h.width) : std::vector<double>{};
  const std::vector<double> to_next = h.next ? read_cells(h.first + h.owned - h.width, h.width) : std::vector<double>{};
  const std::size_t values = std::max(to_prev.size(), to_next.size());
  std::vector<double> from_prev(h.prev ? values : 0), from_next(h.next ? values : 0);
  comm.ring_exchange(h.prev ? to_prev.data() : nullptr, h.next ? to_next.data() : nullptr, h.prev ? from_prev.data() : nullptr,
                     h.next ? from_next.data() : nullptr, values * sizeof(double));
  if (h.prev) write_cells(h.first - h.width, h.width, from_prev);
  if (h.next) write_cells(h.first + h.owned, h.width, from_next);
}

void BgkSolver::step_between_halos(int steps, const HaloCells& h, const Communicator& comm) {
  for (int n = 0; n < steps; ++n) {
    exchange_halos(h, comm);
    step(1);
  }
}

namespace {

class StripSolver final : public BgkSolver {
 public:
  StripSolver(std::unique_ptr<BgkSolver> inner, const BgkConfig& c, const Strip& s, const Communicator& comm)
      : inner_(std::move(inner)), s_(s), comm_(comm), halo_(std::max(s.lo, s.hi)), nv_(c.vg.count()) {}

  void configure(const BgkConfig& c) override {
    if (halo_width(c) > halo_) {
      throw bad_input(param_key(&BgkParams::dt),
                      "the Courant number " + std::to_string(courant_number(c)) + " reaches " + std::to_string(halo_width(c)) +
                          " cells, more than the " + std::to_string(halo_) + " the ranks exchange (set when the run began)",
                      "a Courant number below " + std::to_string(halo_) + " across these ranks, or a new run");
    }
    inner_->configure(held_config(c, s_));
  }
  void set_variant(StepVariant v) override { inner_->set_variant(v); }

  // Across ranks the Runner never requests a stop (every rank must take the same steps).
  int step(int steps, const Interrupt&) override {
    // The first and last `halo_` owned columns (rows) go to the ranks below and above; theirs fill
    // this rank's halos. The grid's ends exchange nothing (an open chain of ranks).
    const HaloCells h{s_.first_owned_cell(), s_.owned_cells(), (long long)halo_ * s_.unit, s_.lo > 0, s_.hi > 0};
    inner_->step_between_halos(steps, h, comm_);
    return steps;
  }

  std::vector<double> raw_moments(const Interrupt& stop) const override {
    return column_block(inner_->raw_moments(stop), kRawMoments, s_.held_cells(), s_.owned_in_held());
  }

  // This rank's part of global row k: its columns (shock), or the whole row where it owns it.
  std::vector<double> row(int k) const override {
    if (s_.rows) return k >= s_.begin && k < s_.end ? inner_->row(k - s_.begin + s_.lo) : std::vector<double>{};
    return column_block(inner_->row(0), nv_, s_.held_cells(), s_.owned_in_held());
  }

  void read_f(std::vector<double>& f) const override { f = inner_->read_cells(s_.first_owned_cell(), s_.owned_cells()); }
  void write_f(const std::vector<double>& f) override { inner_->write_cells(s_.first_owned_cell(), s_.owned_cells(), f); }
  std::vector<double> read_cells(long long first, long long count) const override {
    return inner_->read_cells(s_.first_owned_cell() + first, count);
  }
  void write_cells(long long first, long long count, const std::vector<double>& values) override {
    inner_->write_cells(s_.first_owned_cell() + first, count, values);
  }

 private:
  std::unique_ptr<BgkSolver> inner_;
  Strip s_;
  const Communicator& comm_;
  int halo_;  // the halo width the ranks were set up with
  int nv_;    // velocities
};

}  // namespace

std::unique_ptr<BgkSolver> make_strip_solver(std::unique_ptr<BgkSolver> inner, const BgkConfig& c, const Strip& s,
                                             const Communicator& comm) {
  return std::make_unique<StripSolver>(std::move(inner), c, s, comm);
}

}  // namespace ks::bgk
