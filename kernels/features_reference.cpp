// Reference feature kernel: the oracle every other variant is tested against.
//
// Written straight from the feature definitions (docs/features.md gives their word-level forms
// and sources) with plain cell loops over (column, row) on a per-board copy of the column
// words.  No bit tricks, no speed concerns: one small function per feature, each quoting its
// definition.  Only rows 0 .. H-1 exist here; a cell "above the board" (row >= H) reads as
// empty, and walls / the floor are handled explicitly where a definition mentions them.
//
// It computes every slot of a board, then writes only the slots of the requested groups.
#include <algorithm>
#include <array>
#include <cstdlib>

#include "feature_kernels.h"

namespace tb {
namespace {

// One board: a copy of its W column words plus its size.
struct Board {
  std::array<Word, kMaxWidth> cols{};
  int W = 0;
  int H = 0;

  // Cell (c, r) of the board; rows outside 0 .. H-1 hold nothing.
  bool filled(int c, int r) const { return r >= 0 && r < H && tb::cell(cols.data(), c, r); }
  bool empty(int c, int r) const { return !filled(c, r); }
  // Side walls count as filled (row_transitions, wells).
  bool filled_or_wall(int c, int r) const { return c < 0 || c >= W || filled(c, r); }
};

// "The height of a column is 1 + the index of its highest filled cell, or 0 if it is empty."
int height(const Board& b, int c) {
  int h = 0;
  for (int r = 0; r < b.H; ++r)
    if (b.filled(c, r)) h = r + 1;
  return h;
}

// "empty cells with at least one filled cell above them in the same column" (one cell).
bool is_hole(const Board& b, int c, int r) {
  if (b.filled(c, r)) return false;
  for (int above = r + 1; above < b.H; ++above)
    if (b.filled(c, above)) return true;
  return false;
}

// "in each row, the count of adjacent cell pairs (filled, empty), with both side walls
// counted as filled ... Summed over all H rows"
int row_transitions(const Board& b) {
  int t = 0;
  for (int r = 0; r < b.H; ++r)
    for (int c = -1; c < b.W; ++c)  // pair (c, c+1); c = -1 is the left wall, c+1 = W the right
      if (b.filled_or_wall(c, r) != b.filled_or_wall(c + 1, r)) ++t;
  return t;
}

// "in each column, going up from the floor (counted as filled), the count of filled/empty
// changes between vertically adjacent cells, up to and including the change into the empty
// space above the wall height. An empty column has 1"
int col_transitions(const Board& b) {
  int t = 0;
  for (int c = 0; c < b.W; ++c) {
    bool below = true;  // the floor
    for (int r = 0; r <= b.H; ++r) {  // row H is the empty space above a full column
      const bool here = b.filled(c, r);
      if (here != below) ++t;
      below = here;
    }
  }
  return t;
}

// Per-column extra: holes in column c.
int col_holes(const Board& b, int c) {
  int n = 0;
  for (int r = 0; r < b.H; ++r)
    if (is_hole(b, c, r)) ++n;
  return n;
}

// "holes: empty cells with at least one filled cell above them in the same column"
int holes(const Board& b) {
  int n = 0;
  for (int c = 0; c < b.W; ++c)
    for (int r = 0; r < b.H; ++r)
      if (is_hole(b, c, r)) ++n;
  return n;
}

// "a well cell is an empty cell whose left and right neighbours are filled (walls count as
// filled)"
bool is_well_cell(const Board& b, int c, int r) {
  return b.empty(c, r) && b.filled_or_wall(c - 1, r) && b.filled_or_wall(c + 1, r);
}

// "the number of empty cells directly below it in its column, down to the first filled cell
// or the floor"
int empty_cells_below(const Board& b, int c, int r) {
  int n = 0;
  for (int below = r - 1; below >= 0 && b.empty(c, below); --below) ++n;
  return n;
}

// "For each well cell, add 1 + the number of empty cells directly below it in its column,
// down to the first filled cell or the floor"
int wells(const Board& b) {
  int sum = 0;
  for (int c = 0; c < b.W; ++c)
    for (int r = 0; r < b.H; ++r)
      if (is_well_cell(b, c, r)) sum += 1 + empty_cells_below(b, c, r);
  return sum;
}

// "in each column, going down, at each maximal run of empty cells that starts with a well
// cell, add 1 + 2 + ... + k, where k is the run length (the topmost well cell plus the empty
// cells below it)".  Going down, the first well cell met in an empty run is its topmost one
// (the worked example in tests/test_features.cpp, column 6: the run starts above the well
// cells); the rest of that run is then skipped.
int wells_fast(const Board& b) {
  int sum = 0;
  for (int c = 0; c < b.W; ++c) {
    int r = b.H - 1;
    while (r >= 0) {
      if (is_well_cell(b, c, r)) {
        const int k = 1 + empty_cells_below(b, c, r);
        for (int i = 1; i <= k; ++i) sum += i;
        r -= k;  // past the run: r is now its bottom filled cell (or -1, the floor)
      } else {
        --r;
      }
    }
  }
  return sum;
}

// "the number of filled cells that have, directly below them in their column, an unbroken run
// of filled cells ending in an empty cell (each filled run that covers a hole counts all its
// cells)": follow the filled cells down from each filled cell; count it if they end on an
// empty cell rather than on the floor.
int hole_depth(const Board& b) {
  int n = 0;
  for (int c = 0; c < b.W; ++c)
    for (int r = 0; r < b.H; ++r) {
      if (b.empty(c, r)) continue;
      int below = r - 1;
      while (below >= 0 && b.filled(c, below)) --below;
      if (below >= 0) ++n;  // the run ended in an empty cell, not the floor
    }
  return n;
}

// "rows containing at least one hole"
int rows_with_holes(const Board& b) {
  int n = 0;
  for (int r = 0; r < b.H; ++r) {
    bool any = false;
    for (int c = 0; c < b.W; ++c)
      if (is_hole(b, c, r)) any = true;
    if (any) ++n;
  }
  return n;
}

// "over the adjacent column pairs, the number of distinct height differences h[c+1] - h[c]
// among {-2, -1, 0, 1, 2}, from 0 to 5"
int diversity(const Board& b) {
  int n = 0;
  for (int d = -2; d <= 2; ++d) {
    bool seen = false;
    for (int c = 0; c + 1 < b.W; ++c)
      if (height(b, c + 1) - height(b, c) == d) seen = true;
    if (seen) ++n;
  }
  return n;
}

// "max_height: the largest column height"
int max_height(const Board& b) {
  int m = 0;
  for (int c = 0; c < b.W; ++c) m = std::max(m, height(b, c));
  return m;
}

// "agg_height: the sum of the column heights"
int agg_height(const Board& b) {
  int s = 0;
  for (int c = 0; c < b.W; ++c) s += height(b, c);
  return s;
}

// "diff[c]: |h[c] - h[c+1]|", c < W-1
int diff(const Board& b, int c) { return std::abs(height(b, c) - height(b, c + 1)); }

// "bumpiness: sum of |h[c] - h[c+1]| over adjacent columns"
int bumpiness(const Board& b) {
  int s = 0;
  for (int c = 0; c + 1 < b.W; ++c) s += diff(b, c);
  return s;
}

// Article 2's well depth: interior max(0, min(h[c-1], h[c+1]) - h[c]); an edge column uses
// its one neighbour.
int col_well_depth(const Board& b, int c) {
  int neighbour;
  if (c == 0)
    neighbour = height(b, 1);
  else if (c == b.W - 1)
    neighbour = height(b, b.W - 2);
  else
    neighbour = std::min(height(b, c - 1), height(b, c + 1));
  return std::max(0, neighbour - height(b, c));
}

// Article 2's row-fill buckets: rows 0 .. H-1 whose filled-cell count v has min(v / 2, 4) == k.
int row_fill_bucket(const Board& b, int k) {
  int n = 0;
  for (int r = 0; r < b.H; ++r) {
    int v = 0;
    for (int c = 0; c < b.W; ++c)
      if (b.filled(c, r)) ++v;
    if (std::min(v / 2, kRowFillBuckets - 1) == k) ++n;
  }
  return n;
}

void one_board(const BoardBlock& block, int k, std::uint32_t groups, std::int32_t* out) {
  Board b;
  b.W = block.width;
  b.H = block.height;
  for (int c = 0; c < b.W; ++c) b.cols[c] = block.cols[c * block.stride + k];

  auto put = [&](int slot, int value) { out[slot * block.stride + k] = value; };
  auto want = [&](std::uint32_t g) { return (groups & g) != 0; };

  if (want(G_ROW_TRANSITIONS)) put(SLOT_ROW_TRANSITIONS, row_transitions(b));
  if (want(G_COL_TRANSITIONS)) put(SLOT_COL_TRANSITIONS, col_transitions(b));
  if (want(G_HOLES)) put(SLOT_HOLES, holes(b));
  if (want(G_WELLS)) put(SLOT_WELLS, wells(b));
  if (want(G_WELLS_FAST)) put(SLOT_WELLS_FAST, wells_fast(b));
  if (want(G_HOLE_DEPTH)) put(SLOT_HOLE_DEPTH, hole_depth(b));
  if (want(G_ROWS_WITH_HOLES)) put(SLOT_ROWS_WITH_HOLES, rows_with_holes(b));
  if (want(G_DIVERSITY)) put(SLOT_DIVERSITY, diversity(b));
  if (want(G_MAX_HEIGHT)) put(SLOT_MAX_HEIGHT, max_height(b));
  if (want(G_AGG_HEIGHT)) put(SLOT_AGG_HEIGHT, agg_height(b));
  if (want(G_BUMPINESS)) put(SLOT_BUMPINESS, bumpiness(b));
  if (want(G_HEIGHTS))
    for (int c = 0; c < b.W; ++c) put(SLOT_HEIGHT + c, height(b, c));
  if (want(G_DIFFS))
    for (int c = 0; c + 1 < b.W; ++c) put(SLOT_DIFF + c, diff(b, c));
  if (want(G_COL_HOLES))
    for (int c = 0; c < b.W; ++c) put(SLOT_COL_HOLES + c, col_holes(b, c));
  if (want(G_COL_WELLS))
    for (int c = 0; c < b.W; ++c) put(SLOT_COL_WELLS + c, col_well_depth(b, c));
  if (want(G_ROW_FILL))
    for (int i = 0; i < kRowFillBuckets; ++i) put(SLOT_ROW_FILL + i, row_fill_bucket(b, i));
}

}  // namespace

void features_reference(const BoardBlock& block, std::uint32_t groups, std::int32_t* out) {
  for (int k = 0; k < block.count; ++k) one_board(block, k, groups, out);
}

}  // namespace tb
