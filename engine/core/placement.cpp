#include "placement.h"

#include <algorithm>

namespace tb {

Placement* generate_drops(Piece p, int width, Placement* out) {
  const PieceShapes& shapes = kShapes[p];
  for (int o = 0; o < shapes.count; ++o)
    for (int x = 0; x + shapes.orientation[o].width <= width; ++x)
      *out++ = {static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(o), static_cast<std::uint8_t>(x)};
  return out;
}

Move drop(Board& b, Placement pl, Geometry g, Overflow overflow) {
  const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
  assert(pl.column + o.width <= g.width);
  Word* cols = b.cols.data() + pl.column;

  int heights[4];
  for (int i = 0; i < o.width; ++i) heights[i] = column_height(cols[i]);
  const int y = pl.row == kDropRow ? landing_row(heights, o, 0) : pl.row;
  for (int i = 0; i < o.width; ++i) cols[i] |= o.mask[i] << y;

  Move m;
  m.landing_row = y;
  m.piece_height = o.height;
  if (ends_at_lock(overflow, g, y, y + o.height)) {
    m.game_over = true;  // docs/rules.md `strict` (and lock-out): no rows are cleared for this move
    return m;
  }
  // Only the rows the piece touched can have become full.
  Word full = low_mask(o.height) << y;
  for (int c = 0; c < g.width; ++c) full &= b.cols[c];
  if (full) {
    m.lines = popcount(full);
    int piece_cells = 0;
    for (int i = 0; i < o.width; ++i) piece_cells += popcount((o.mask[i] << y) & full);
    m.eroded = m.lines * piece_cells;
    for (int c = 0; c < g.width; ++c) b.cols[c] = remove_rows(b.cols[c], full);
  }
  m.game_over = b.wall_height(g.width) > wall_limit(overflow, g);
  return m;
}

Board piece_board(Placement pl, int row) {
  const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
  Board b;
  for (int i = 0; i < o.width; ++i) b.cols[pl.column + i] = o.mask[i] << row;
  return b;
}

}  // namespace tb
