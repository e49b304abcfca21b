#include "materialize_rows.h"

#include <algorithm>

namespace tb {

namespace {

// Locks candidate k's piece into its column words; returns the piece's words (box columns).
std::array<Word, 4> lock_piece(CandidateBlock& block, int k, Placement pl, const Orientation& o) {
  std::array<Word, 4> piece{};
  for (int i = 0; i < o.width; ++i) {
    piece[i] = o.mask[i] << pl.row;
    block.cols[(pl.column + i) * kBlockCapacity + k] |= piece[i];
  }
  return piece;
}

int cells_in(const std::array<Word, 4>& piece, Word rows) {
  int n = 0;
  for (Word w : piece) n += popcount(w & rows);
  return n;
}

}  // namespace

void materialize_rows(CandidateBlock& block, const Board& board, const Placement* placements, int n,
                      Geometry g, Overflow overflow, PlyCarry carry, const UnclearedPair* pair) {
  assert(n >= 0 && n <= kBlockCapacity);
  const int W = g.width;
  block.count = n;
  block.lanes = (n + kLaneMultiple - 1) / kLaneMultiple * kLaneMultiple;
  block.width = W;
  for (int c = 0; c < W; ++c) std::fill_n(&block.cols[c * kBlockCapacity], block.lanes, board.cols[c]);
  for (int k = 0; k < n; ++k) {
    const Placement pl = placements[k];  // may alias block.placements
    assert(pl.row != kDropRow);
    const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
    const int y = pl.row;
    const std::array<Word, 4> piece = lock_piece(block, k, pl, o);
    Word full = pair ? ~Word{0} : low_mask(o.height) << y;  // a lock fills only rows it touches
    for (int c = 0; c < W; ++c) full &= block.cols[c * kBlockCapacity + k];

    int lines = 0, eroded = 0;
    bool terminal = ends_at_lock(overflow, g, y, y + o.height);
    if (pair) {
      lines = popcount(full);
      int cells = cells_in(piece, full);
      for (int c = 0; c < W; ++c) cells += popcount(pair->first_cells.cols[c] & full);
      eroded = lines * cells;
      Word any = 0;
      for (int c = 0; c < W; ++c) any |= remove_rows(block.cols[c * kBlockCapacity + k], full);
      terminal = terminal || column_height(any) > wall_limit(overflow, g);
    } else if (!terminal) {
      lines = popcount(full) + carry.lines;
      eroded = popcount(full) * cells_in(piece, full) + carry.eroded;
      Word any = 0;
      for (int c = 0; c < W; ++c) {
        Word& v = block.cols[c * kBlockCapacity + k];
        if (full) v = remove_rows(v, full);
        any |= v;
      }
      terminal = column_height(any) > wall_limit(overflow, g);
    } else {
      lines = carry.lines;
      eroded = carry.eroded;
    }
    block.values[MOVE_LANDING_X2 * kBlockCapacity + k] = 2 * y + o.height - 1;
    block.values[MOVE_ERODED * kBlockCapacity + k] = eroded;
    block.values[MOVE_LINES * kBlockCapacity + k] = lines;
    block.values[MOVE_CONSTANT * kBlockCapacity + k] = 1;
    block.terminal[k] = terminal;
    block.placements[k] = pl;
  }
}

int materialize_reachable(CandidateBlock& block, const Board& board, const ReachableSet& set, int first,
                          Geometry g, Overflow overflow, PlyCarry carry, const UnclearedPair* pair) {
  const int n = std::clamp(set.count - first, 0, kBlockCapacity);
  std::array<Placement, kBlockCapacity> pls;
  for (int k = 0; k < n; ++k) {
    const ReachablePlacement& rp = set.placements[first + k];
    pls[k] = rp.placement;
    pls[k].row = static_cast<std::uint8_t>(rp.row);
  }
  materialize_rows(block, board, pls.data(), n, g, overflow, carry, pair);
  return n;
}

void materialize_drops_uncleared(CandidateBlock& block, const Board& board, Piece piece, Geometry g,
                                 Overflow overflow, const UnclearedPair& pair) {
  std::array<Placement, kMaxPlacements> pls;
  const int n = static_cast<int>(generate_drops(piece, g.width, pls.data()) - pls.data());
  int heights[kMaxWidth];
  for (int c = 0; c < g.width; ++c) heights[c] = board.height_of(c);
  for (int k = 0; k < n; ++k)
    pls[k].row = static_cast<std::uint8_t>(
        landing_row(heights, kShapes[piece].orientation[pls[k].orientation], pls[k].column));
  materialize_rows(block, board, pls.data(), n, g, overflow, {}, &pair);
}

}  // namespace tb
