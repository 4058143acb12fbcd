// kinetic.bgk on the GPU: the cavity's fused step with split streaming over 2D tiles of cells (unsplit
// streaming, the default, runs per (cell, v_x slice) in bgk_cuda.cu), each velocity's tile and
// upwind halo copied to shared memory a few velocities ahead (bgk_cavity_tiles.cu). The same streamed
// values and moments as the CPU (bgk_model.hpp); the cavity keeps |C| <= 1 on both axes.
#pragma once

#include <cstddef>

#include "bgk_model.hpp"

// cudaStream_t is a CUstream_st*: declared so that builds without CUDA include this header too
// (bgk_method.cpp reads kMaxTileParts).
struct CUstream_st;

namespace ks::bgk {

// Whole rows [begin, end) of the grid: the cells a launch steps (across ranks, a strip's edge rows
// and its interior go in separate launches; bgk_strip.hpp).
struct RowRange {
  int begin = 0, end = 0;
  int count() const { return end - begin; }
};
// A launch's tiles are this many rows high (the moments'; the relaxation's are half): launches of a
// multiple of it leave no tile part empty, which would cost a whole tile's walk over the velocities.
constexpr int kTileRows = 16;

// Each v_x slice's velocities are taken by `parts` blocks a tile (whole v_y rows each) where the
// tiles alone would leave the GPU's last wave mostly idle (a small grid); 1 where they fill it.
constexpr int kMaxTileParts = 4;
struct TileParts {
  int moments = 1, relax = 1;
};
// For this grid (under MPI the whole grid: BgkConfig::whole_ny) on `device`; table_bytes: what
// allow_tile_shared_memory returned. The parts set the order in which a cell's moments are added.
TileParts tile_parts(const BgkConfig& c, int device, std::size_t table_bytes);

// Fused pass 1: the moments of f~ per (v_x slice and part, cell), partial[((jx * parts + part) * 5 + q)
// * cells + cell] for q = s0, s1 (3), s2, streamed on the fly from s.f, for the cells of `rows`.
void launch_tile_moments(const BgkConfig& c, const StreamInputs& s, int parts, double* partial, RowRange rows, CUstream_st* stream);

// Fused pass 2: stream again and relax exactly (eq. 14) into next with the cells' relaxation data, for
// the cells of `rows`. table_bytes: what allow_tile_shared_memory returned for this device.
void launch_tile_relax(const BgkConfig& c, const StreamInputs& s, int parts, const CellRelaxation* relaxation, double* next,
                       std::size_t table_bytes, RowRange rows, CUstream_st* stream);

// Once per device, before the first launch: lets the relaxation kernel take more than 48 KiB of shared
// memory for its z-factor tables, as far as the device allows; returns the bytes a table may take.
std::size_t allow_tile_shared_memory(int device);

}  // namespace ks::bgk
