// kinetic.bgk on the GPU: the cavity's fused step over 2D tiles of cells, each velocity's tile and
// upwind halo copied to shared memory a few velocities ahead (bgk_cavity_tiles.cu). The same streamed
// values and moments as the CPU (bgk_model.hpp); the cavity keeps |C| <= 1 on both axes.
#pragma once

#include <cstddef>

#include "bgk_model.hpp"

namespace ks::bgk {

// Fused pass 1: the moments of f~ per (v_x slice, cell), partial[(jx * 5 + q) * cells + cell] for
// q = s0, s1 (3), s2, streamed on the fly from s.f.
void launch_tile_moments(const BgkConfig& c, const StreamInputs& s, double* partial);

// Fused pass 2: stream again and relax exactly (eq. 14) into next with the cells' relaxation data.
// table_bytes: what allow_tile_shared_memory returned for this device.
void launch_tile_relax(const BgkConfig& c, const StreamInputs& s, const CellRelaxation* relaxation, double* next,
                       std::size_t table_bytes);

// Once per device, before the first launch: lets the relaxation kernel take more than 48 KiB of shared
// memory for its z-factor tables, as far as the device allows; returns the bytes a table may take.
std::size_t allow_tile_shared_memory(int device);

}  // namespace ks::bgk
