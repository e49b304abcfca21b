// Column words in vector lanes, for the drop pass (drop_pass/pass.h): the whole-board sums of
// the column pass (Totals) and the building blocks of its wells (run-length planes, the lowest
// run of holes, a weighted popcount), which the candidates' rows reuse on their changed
// columns.  V: a Lanes<Arch> (kernels/features_simd.h).
#pragma once

#include <cstdint>

#include "features_simd.h"
#include "shapes.h"

namespace tb {
namespace {

// Sums over a whole board (padded column words, walls all ones).
struct Totals {
  std::int32_t ct = 0, holes = 0, depth = 0, rt = 0, wells = 0, fast = 0, agg = 0, max = 0, bump = 0;
  Word hole_rows = 0;  // rows with a hole
  Word pair_bits = 0;  // diversity: bit d + 2 for each neighbour height difference d (bit 5: |d| > 2)
};

// The lane sums of the column pass: two 16-bit sums per word.
inline void unpack(Word ct_holes, Word depth_rt, Word wells_fast, Totals& t) {
  t.ct = static_cast<std::int32_t>(ct_holes & 0xFFFFu);
  t.holes = static_cast<std::int32_t>(ct_holes >> 16);
  t.depth = static_cast<std::int32_t>(depth_rt & 0xFFFFu);
  t.rt = static_cast<std::int32_t>(depth_rt >> 16);
  t.wells = static_cast<std::int32_t>(wells_fast & 0xFFFFu);
  t.fast = static_cast<std::int32_t>(wells_fast >> 16);
}

// Exact wells and wells_fast of column `c` between `left` and `right` (features_simd.h):
// well-cell markers walk down the empty cells.
template <class V, class VU = typename V::U>
void wells_walk(VU left, VU c, VU right, VU rows, VU& wells, VU& fast) {
  const VU zero(0u), empty = ~c;
  const VU well_cells = left & right & empty & rows;
  VU marker = well_cells, below = zero, w = zero;
  while (xsimd::any(marker != zero)) {
    w = w + V::popcnt(marker);
    marker = (marker >> 1) & empty;
    below = below | marker;
  }
  VU top = well_cells & ~below, step(1u), f = zero;
  while (xsimd::any(top != zero)) {
    f = f + V::popcnt(top) * step;
    top = (top >> 1) & empty;
    step = step + VU(1u);
  }
  wells = wells + w;
  fast = fast + f;
}

// The run-length planes of column `c` of height h: above the top, plane p of r - h + 1
// (open_run_plane shifted up); below it, one run of holes at a time (usually none).
template <class V, class VU = typename V::U>
void run_planes(VU c, VU h, VU rows, VU (&planes)[kRunPlanes]) {
  const VU zero(0u), top = h;  // walls (height 32): no plane bits and no holes
  for (int p = 0; p < kRunPlanes; ++p) planes[p] = V::shl(VU(open_run_plane(p)), top);
  VU holes = ~(c | V::from_row(top)) & rows;
  // The first run always (without holes it changes nothing: start is 32, the shift gives 0),
  // so that the common boards (no column with two runs of holes) take no data-dependent branch.
  do {
    const VU lowest = holes & (zero - holes);
    const VU run = holes & ~(holes + lowest);  // the lowest run of holes: the carry stops above it
    const VU start = V::popcnt(lowest - VU(1u));
    for (int p = 0; p < kRunPlanes; ++p) planes[p] = planes[p] | (V::shl(VU(open_run_plane(p)), start) & run);
    holes = holes & ~run;
  } while (!V::none(holes));
}

// The holes of a column (hole_cells: its empty cells below its top) as the byte-table wells
// use them: the first row of their lowest run (all ones without holes: a shift by it gives
// 0), and the holes above that run (none unless the column has two runs of holes or more).
template <class VU>
void lowest_run(VU hole_cells, VU& start, VU& higher) {
  using V = Lanes<typename VU::arch_type>;
  const VU lowest = hole_cells & (VU(0u) - hole_cells);
  start = V::bit_width(lowest) - VU(1u);
  higher = hole_cells & (hole_cells + lowest);  // the carry clears the lowest run
}

// Sum of the run lengths of the cells of `cells`.
// One reduction (Lanes::part/total): a part's bytes are at most 8, so the weighted sum's at
// most 8 x (1 + 2 + ... + 16) = 248, below a byte's carry.
template <class V, class VU = typename V::U>
VU weigh(VU cells, const VU (&planes)[kRunPlanes]) {
  VU sum = V::part(cells & planes[0]);
  for (int p = 1; p < kRunPlanes; ++p) sum = sum + (V::part(cells & planes[p]) << p);
  return V::total(sum);
}

}  // namespace
}  // namespace tb
