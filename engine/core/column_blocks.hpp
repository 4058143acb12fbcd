// Arrays of rows (moments, velocities or populations, each a row over the cells or nodes) cut into
// blocks of columns: a rank's slab or strip of a grid is the same block of every row. One cuts a
// rank's block out of what it holds; the other puts the ranks' blocks, in rank order as gather and
// all_gather return them, back into the whole rows.
#pragma once

#include <algorithm>
#include <vector>

#include "communicator.hpp"

namespace ks {

// Columns [b.begin, b.end) of each of `rows` rows of `pitch` values: [row * b.count() + column].
inline std::vector<double> column_block(const std::vector<double>& v, int rows, long long pitch, Block b) {
  std::vector<double> out(std::size_t(rows) * b.count());
  for (int r = 0; r < rows; ++r) std::copy_n(v.begin() + r * pitch + b.begin, b.count(), out.begin() + r * b.count());
  return out;
}

// The whole rows, [row * width + column], from `parts`: for each block in order, its column_block
// of every row. `width` is the whole rows' length (the blocks need not cover it).
inline std::vector<double> join_column_blocks(const std::vector<double>& parts, int rows, const std::vector<Block>& blocks,
                                              long long width) {
  std::vector<double> whole(std::size_t(rows) * width);
  std::size_t at = 0;
  for (const Block& b : blocks)
    for (int r = 0; r < rows; ++r, at += b.count()) std::copy_n(parts.begin() + at, b.count(), whole.begin() + r * width + b.begin);
  return whole;
}

}  // namespace ks
