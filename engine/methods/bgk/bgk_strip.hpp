// kinetic.bgk across MPI ranks: the grid cut into strips, one per rank in rank order: of columns
// along x for the shock (1D), of whole rows along y for the cavity. A rank's solver runs on its strip
// with `halo` more columns (rows) on each side that faces another rank, filled from the neighbours'
// edge cells before every step, as far as the upwind stencil reaches (the integer shift plus one,
// eq. 12, 15); sides at the grid's ends keep the boundary ghosts and wall densities (eq. 23-24).
// Every owned cell is computed from the same values by the same arithmetic as in one process, so
// the results agree bit for bit; the halo cells' own updates are discarded.
#pragma once

#include <memory>
#include <vector>

#include "bgk_config.hpp"
#include "bgk_solver.hpp"
#include "core/communicator.hpp"

namespace ks::bgk {

struct Strip {
  bool rows = false;       // whole rows along y (cavity), else columns along x (shock, ny = 1)
  int begin = 0, end = 0;  // owned columns or rows
  int lo = 0, hi = 0;      // halo columns or rows below and above (0 at the grid's ends)
  int unit = 1;            // cells per column (1, ny = 1) or per row (nx)

  int held() const { return end - begin + lo + hi; }
  long long held_cells() const { return (long long)held() * unit; }
  long long owned_cells() const { return (long long)(end - begin) * unit; }
  long long first_owned_cell() const { return (long long)lo * unit; }
  Block owned_in_held() const { return {first_owned_cell(), first_owned_cell() + owned_cells()}; }
  Block owned_in_whole() const { return {(long long)begin * unit, (long long)end * unit}; }
};

// Columns (shock) or rows (cavity) the step reads beyond a cell along the split axis.
int halo_width(const BgkConfig& c);
// Rank `rank`'s strip of `ranks`; refuses a strip narrower than the halo (bad_input on nx or ny).
Strip strip_of(const BgkConfig& c, int rank, int ranks);
// The grid a rank's solver runs on: its held columns (rows), first_column placing it in the whole.
BgkConfig held_config(const BgkConfig& c, const Strip& s);
// Every rank's owned cells in the whole grid, in rank order (to join what the ranks gather).
std::vector<Block> owned_cells_of_ranks(const BgkConfig& c, int ranks);
// A solver on strip `s` of the grid of `c`: `inner` runs on held_config(c, s); the result presents
// the owned cells (raw_moments, read_f, write_f) and this rank's part of a row, and exchanges the
// halos with the ranks of `comm` before every step.
std::unique_ptr<BgkSolver> make_strip_solver(std::unique_ptr<BgkSolver> inner, const BgkConfig& c, const Strip& s,
                                             const Communicator& comm);

}  // namespace ks::bgk
