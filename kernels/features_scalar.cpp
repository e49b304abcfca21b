// Word-level feature kernel: every feature is a handful of bit operations per column.
// No cell loops; the only loops over bits walk the (few) well cells of a column.
#include <algorithm>
#include <array>
#include <cstdlib>

#include "feature_kernels.h"

namespace tb {
namespace {

// Sum over the well cells of `wells` of 1 + (empty cells directly below it): the `wells`
// definition (quoted in features_reference.cpp).
// Well cells in one empty run at rows a..b (floor side a) contribute r - a + 1 each.
int cumulative_wells(Word col, Word wells) {
  int sum = 0;
  while (wells) {
    const int r = std::countr_zero(wells);
    wells &= wells - 1;
    sum += r - column_height(col & low_mask(r)) + 1;
  }
  return sum;
}

// `wells_fast` (features_reference.cpp): per maximal empty run that holds a well cell,
// k(k+1)/2 where k counts the run from its topmost well cell down to the next filled cell or
// the floor.
int cumulative_wells_fast(Word col, Word wells) {
  int sum = 0;
  while (wells) {
    const int top = 31 - std::countl_zero(wells);
    const int floor = column_height(col & low_mask(top));
    const int k = top - floor + 1;
    sum += k * (k + 1) / 2;
    wells &= low_mask(floor);
  }
  return sum;
}

// Bit-sliced vertical counters: per row, how many of the W columns are filled.
// count bit j of row r is bit r of plane[j].
void row_fill_buckets(const std::array<Word, kMaxWidth>& cols, int width, Word rows,
                      std::int32_t (&buckets)[kRowFillBuckets]) {
  Word plane[5] = {};  // counts up to 31 >= 16
  for (int c = 0; c < width; ++c) {
    Word carry = cols[c];
    for (int j = 0; j < 5 && carry; ++j) {
      const Word next = plane[j] & carry;
      plane[j] ^= carry;
      carry = next;
    }
  }
  // bucket b holds rows with fill in [2b, 2b+1] for b < 4, and >= 8 for b = 4:
  // fill >> 1 is (plane[1], plane[2], plane[3], plane[4]).
  static_assert(kRowFillBuckets == 5, "the buckets below are written out one by one");
  const Word ge8 = (plane[3] | plane[4]) & rows;
  const Word lt8 = ~(plane[3] | plane[4]) & rows;
  buckets[0] = popcount(lt8 & ~plane[1] & ~plane[2]);
  buckets[1] = popcount(lt8 & plane[1] & ~plane[2]);
  buckets[2] = popcount(lt8 & ~plane[1] & plane[2]);
  buckets[3] = popcount(lt8 & plane[1] & plane[2]);
  buckets[4] = popcount(ge8);
}

void one_board(const BoardBlock& b, int k, std::uint32_t groups, std::int32_t* out) {
  const int W = b.width;
  const Word rows = low_mask(b.height);
  std::array<Word, kMaxWidth> col{};
  std::array<int, kMaxWidth> h{};
  for (int c = 0; c < W; ++c) {
    col[c] = b.cols[c * b.stride + k];
    h[c] = column_height(col[c]);
  }
  auto put = [&](int slot, int value) { out[slot * b.stride + k] = value; };

  if (groups & G_ROW_TRANSITIONS) {
    // Walls count as filled: an empty row has 2.
    int t = popcount(~col[0] & rows) + popcount(~col[W - 1] & rows);
    for (int c = 0; c + 1 < W; ++c) t += popcount((col[c] ^ col[c + 1]) & rows);
    put(SLOT_ROW_TRANSITIONS, t);
  }
  if (groups & G_COL_TRANSITIONS) {
    // The floor counts as filled.  Bit r of col ^ (col << 1 | 1) marks a change between rows
    // r-1 and r; above the top only bit h (the change into the empty cell) can be set.
    int t = 0;
    for (int c = 0; c < W; ++c) t += popcount(col[c] ^ ((col[c] << 1) | 1u));
    put(SLOT_COL_TRANSITIONS, t);
  }
  if (groups & (G_HOLES | G_COL_HOLES | G_ROWS_WITH_HOLES)) {
    int total = 0;
    Word any_hole_row = 0;
    for (int c = 0; c < W; ++c) {
      const Word holes = ~col[c] & low_mask(h[c]);
      total += popcount(holes);
      any_hole_row |= holes;
      if (groups & G_COL_HOLES) put(SLOT_COL_HOLES + c, popcount(holes));
    }
    put(SLOT_HOLES, total);
    put(SLOT_ROWS_WITH_HOLES, popcount(any_hole_row));
  }
  if (groups & (G_WELLS | G_WELLS_FAST)) {
    int wells = 0, fast = 0;
    for (int c = 0; c < W; ++c) {
      const Word left = c == 0 ? ~Word{0} : col[c - 1];
      const Word right = c == W - 1 ? ~Word{0} : col[c + 1];
      const Word well_cells = left & right & ~col[c] & rows;
      if (!well_cells) continue;
      if (groups & G_WELLS) wells += cumulative_wells(col[c], well_cells);
      if (groups & G_WELLS_FAST) fast += cumulative_wells_fast(col[c], well_cells);
    }
    if (groups & G_WELLS) put(SLOT_WELLS, wells);
    if (groups & G_WELLS_FAST) put(SLOT_WELLS_FAST, fast);
  }
  if (groups & G_HOLE_DEPTH) {
    // A filled cell counts iff some empty cell lies below it: every filled cell above the
    // column's lowest empty cell, when that cell is a hole.
    int depth = 0;
    for (int c = 0; c < W; ++c) {
      const int lowest_empty = std::countr_one(col[c]);
      if (lowest_empty < h[c]) depth += popcount(col[c] >> lowest_empty);
    }
    put(SLOT_HOLE_DEPTH, depth);
  }
  if (groups & (G_MAX_HEIGHT | G_AGG_HEIGHT | G_HEIGHTS)) {
    int mx = 0, sum = 0;
    for (int c = 0; c < W; ++c) {
      mx = std::max(mx, h[c]);
      sum += h[c];
      if (groups & G_HEIGHTS) put(SLOT_HEIGHT + c, h[c]);
    }
    put(SLOT_MAX_HEIGHT, mx);
    put(SLOT_AGG_HEIGHT, sum);
  }
  if (groups & (G_BUMPINESS | G_DIFFS | G_DIVERSITY)) {
    int bump = 0;
    unsigned seen = 0;  // bit d+2 for a difference d in [-2, 2]
    for (int c = 0; c + 1 < W; ++c) {
      const int d = h[c + 1] - h[c];
      bump += std::abs(d);
      if (groups & G_DIFFS) put(SLOT_DIFF + c, std::abs(d));
      if (d >= -2 && d <= 2) seen |= 1u << (d + 2);
    }
    put(SLOT_BUMPINESS, bump);
    put(SLOT_DIVERSITY, std::popcount(seen));
  }
  if (groups & G_COL_WELLS) {
    // Article 2: depth below the lower neighbour; an edge column looks at its one neighbour.
    for (int c = 0; c < W; ++c) {
      const int lh = c == 0 ? h[1] : h[c - 1];
      const int rh = c == W - 1 ? h[W - 2] : h[c + 1];
      put(SLOT_COL_WELLS + c, std::max(0, std::min(lh, rh) - h[c]));
    }
  }
  if (groups & G_ROW_FILL) {
    std::int32_t buckets[kRowFillBuckets];
    row_fill_buckets(col, W, rows, buckets);
    for (int i = 0; i < kRowFillBuckets; ++i) put(SLOT_ROW_FILL + i, buckets[i]);
  }
}

}  // namespace

void features_scalar(const BoardBlock& block, std::uint32_t groups, std::int32_t* out) {
  for (int k = 0; k < block.count; ++k) one_board(block, k, groups, out);
}

}  // namespace tb
