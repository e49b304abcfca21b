#include "materialize.h"

#include <algorithm>
#include <cassert>

#include "search_kernels.h"

namespace tb {
namespace {

// The base board's heights and, for any span of columns, the AND of the columns outside it:
// a row is full after a lock iff it is full outside the piece's columns and inside them.
struct BaseBoard {
  const Board& board;
  int h[kMaxWidth];
  Word left_and[kMaxWidth + 1], right_and[kMaxWidth + 1];
};

// Sets count (at + n), lanes and width, fills every lane from `at` up to the padding with the
// base board (lanes before `at` are kept), and returns the base board's summary.
[[gnu::always_inline]] inline BaseBoard prepare_block(CandidateBlock& block, const Board& board, int n, int W,
                                                      int at = 0) {
  block.count = at + n;
  block.lanes = (at + n + kLaneMultiple - 1) / kLaneMultiple * kLaneMultiple;
  block.width = W;
  BaseBoard base{board, {}, {}, {}};
  base.left_and[0] = base.right_and[W] = ~Word{0};
  for (int c = 0; c < W; ++c) {
    base.h[c] = column_height(board.cols[c]);
    base.left_and[c + 1] = base.left_and[c] & board.cols[c];
  }
  for (int c = W - 1; c >= 0; --c) base.right_and[c] = base.right_and[c + 1] & board.cols[c];
  for (int c = 0; c < W; ++c) std::fill_n(&block.cols[c * kBlockCapacity + at], block.lanes - at, board.cols[c]);
  return base;
}

// The rare part of a lock: rows cleared, or a piece reaching above quiet_top() (rules.h).
[[gnu::noinline]] void finish_rare(CandidateBlock& block, int k, const Orientation& o, int y,
                                   Word full, Geometry g, Overflow overflow, int& lines, int& eroded,
                                   bool& terminal) {
  terminal = ends_at_lock(overflow, g, y, y + o.height);  // docs/rules.md `strict`: no clears
  if (terminal) return;
  if (full) {
    lines = popcount(full);
    int piece_cells = 0;
    for (int i = 0; i < o.width; ++i) piece_cells += popcount((o.mask[i] << y) & full);
    eroded = lines * piece_cells;
    for (int c = 0; c < g.width; ++c) {
      Word& v = block.cols[c * kBlockCapacity + k];
      v = remove_rows(v, full);
    }
  }
  const int limit = wall_limit(overflow, g);
  if (y + o.height > limit) {  // `clear-first`, hidden rows: over if still above after the clears
    Word any = 0;
    for (int c = 0; c < g.width; ++c) any |= block.cols[c * kBlockCapacity + k];
    terminal = column_height(any) > limit;
  }
}

// The piece of one orientation, copied out of kShapes so that the block's stores cannot alias it.
template <int Wd>
struct PieceWords {
  Word mask[Wd];
  int bottom[Wd];
  int height;
  Word touched;  // the rows it spans, from its lowest
  explicit PieceWords(const Orientation& o) : height(o.height), touched(low_mask(o.height)) {
    for (int i = 0; i < Wd; ++i) {
      mask[i] = o.mask[i];
      bottom[i] = o.bottom[i];
    }
  }
};

// Candidate k: orientation `o` (of width Wd) locked with its leftmost column at x and its lowest
// cell on row y, then the clears and the game-over rule.  The fast form of drop().
template <int Wd>
[[gnu::always_inline]] inline void lock(CandidateBlock& block, int k, const Orientation& o, const PieceWords<Wd>& p,
                                        int x, int y, const BaseBoard& base, Geometry g, Overflow overflow,
                                        PlyCarry carry, int quiet) {
  Word full = base.left_and[x] & base.right_and[x + Wd] & (p.touched << y);
  for (int i = 0; i < Wd; ++i) {
    const Word v = base.board.cols[x + i] | (p.mask[i] << y);
    block.cols[(x + i) * kBlockCapacity + k] = v;
    full &= v;
  }
  int lines = 0, eroded = 0;
  bool terminal = false;
  if (full | static_cast<Word>(y + p.height > quiet))
    finish_rare(block, k, o, y, full, g, overflow, lines, eroded, terminal);
  block.values[MOVE_LANDING_X2 * kBlockCapacity + k] = 2 * y + p.height - 1;
  block.values[MOVE_ERODED * kBlockCapacity + k] = eroded + carry.eroded;
  block.values[MOVE_LINES * kBlockCapacity + k] = lines + carry.lines;
  block.values[MOVE_CONSTANT * kBlockCapacity + k] = 1;
  block.terminal[k] = terminal;
}

// Every column of one orientation of width Wd, candidates k, k+1, ...
template <int Wd>
int drop_orientation(CandidateBlock& block, int k, const Orientation& o, const BaseBoard& base,
                     Geometry g, Overflow overflow, PlyCarry carry, int quiet) {
  const PieceWords<Wd> p(o);
  for (int x = 0; x + Wd <= g.width; ++x, ++k) {
    int y = 0;  // landing_row() (placement.h) with the width known at compile time
    for (int i = 0; i < Wd; ++i) y = std::max(y, base.h[x + i] - p.bottom[i]);
    lock<Wd>(block, k, o, p, x, y, base, g, overflow, carry, quiet);
  }
  return k;
}

[[gnu::always_inline]] inline void drops_body(CandidateBlock& block, const Board& board, Piece piece,
                                              Geometry g, Overflow overflow, PlyCarry carry) {
  const int n = static_cast<int>(generate_drops(piece, g.width, block.placements.data()) - block.placements.data());
  const BaseBoard base = prepare_block(block, board, n, g.width);
  // Same order as generate_drops: orientations, then columns left to right.
  const PieceShapes& shapes = kShapes[piece];
  const int quiet = quiet_top(overflow, g);
  int k = 0;
  for (int oi = 0; oi < shapes.count; ++oi) {
    const Orientation& o = shapes.orientation[oi];
    switch (o.width) {
      case 1: k = drop_orientation<1>(block, k, o, base, g, overflow, carry, quiet); break;
      case 2: k = drop_orientation<2>(block, k, o, base, g, overflow, carry, quiet); break;
      case 3: k = drop_orientation<3>(block, k, o, base, g, overflow, carry, quiet); break;
      default: k = drop_orientation<4>(block, k, o, base, g, overflow, carry, quiet); break;
    }
  }
  assert(k == n);
}

// Placements that carry their row: not the research hot path, so one call per candidate.
void lock_at_row(CandidateBlock& block, int k, Placement pl, const BaseBoard& base, Geometry g,
                 Overflow overflow, PlyCarry carry, int quiet) {
  assert(pl.row != kDropRow);
  const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
  switch (o.width) {
    case 1: lock<1>(block, k, o, PieceWords<1>(o), pl.column, pl.row, base, g, overflow, carry, quiet); break;
    case 2: lock<2>(block, k, o, PieceWords<2>(o), pl.column, pl.row, base, g, overflow, carry, quiet); break;
    case 3: lock<3>(block, k, o, PieceWords<3>(o), pl.column, pl.row, base, g, overflow, carry, quiet); break;
    default: lock<4>(block, k, o, PieceWords<4>(o), pl.column, pl.row, base, g, overflow, carry, quiet); break;
  }
}

[[gnu::always_inline]] inline void rows_body(CandidateBlock& block, const Board& board, const Placement* placements,
                                             int n, Geometry g, Overflow overflow, PlyCarry carry, int at) {
  assert(n >= 0 && at >= 0 && at + n <= kBlockCapacity);
  std::array<Placement, kBlockCapacity> pls;  // `placements` may alias block.placements
  std::copy_n(placements, n, pls.data());
  const BaseBoard base = prepare_block(block, board, n, g.width, at);
  const int quiet = quiet_top(overflow, g);
  for (int k = 0; k < n; ++k) {
    lock_at_row(block, at + k, pls[k], base, g, overflow, carry, quiet);
    block.placements[at + k] = pls[k];
  }
}

// The reference: drop() on a copy of the board, one placement at a time.
void reference_fill(CandidateBlock& block, const Board& board, const Placement* placements, int n, Geometry g,
                    Overflow overflow, PlyCarry carry, int at = 0) {
  std::array<Placement, kBlockCapacity> pls;
  std::copy_n(placements, n, pls.data());
  prepare_block(block, board, n, g.width, at);
  for (int j = 0; j < n; ++j) {
    const int k = at + j;
    const Placement pl = pls[j];
    Board b = board;
    const Move m = drop(b, pl, g, overflow);
    for (int c = 0; c < g.width; ++c) block.cols[c * kBlockCapacity + k] = b.cols[c];
    block.values[MOVE_LANDING_X2 * kBlockCapacity + k] = m.landing_height_x2();
    block.values[MOVE_ERODED * kBlockCapacity + k] = m.eroded + carry.eroded;
    block.values[MOVE_LINES * kBlockCapacity + k] = m.lines + carry.lines;
    block.values[MOVE_CONSTANT * kBlockCapacity + k] = 1;
    block.terminal[k] = m.game_over;
    block.placements[k] = pl;
  }
}

void reference_drops(CandidateBlock& block, const Board& board, Piece piece, Geometry g, Overflow overflow,
                     PlyCarry carry) {
  std::array<Placement, kMaxPlacements> pls;
  const int n = static_cast<int>(generate_drops(piece, g.width, pls.data()) - pls.data());
  reference_fill(block, board, pls.data(), n, g, overflow, carry);
}

}  // namespace

// One entry point per instruction-set level: the same bodies, compiled for that level (GCC's
// `target` attribute; callees that are not inlined stay baseline code).
#define TB_MATERIALIZE_VARIANT(NS, TARGET)                                                                 \
  namespace isa_##NS {                                                                                      \
  TARGET void materialize(CandidateBlock& block, const Board& board, Piece piece, Geometry g,             \
                          Overflow overflow, PlyCarry carry) {                                            \
    drops_body(block, board, piece, g, overflow, carry);                                                  \
  }                                                                                                         \
  TARGET void materialize_rows(CandidateBlock& block, const Board& board, const Placement* placements,    \
                               int n, Geometry g, Overflow overflow, PlyCarry carry, int at) {            \
    rows_body(block, board, placements, n, g, overflow, carry, at);                                       \
  }                                                                                                         \
  }
TB_MATERIALIZE_VARIANT(v4, __attribute__((target("arch=x86-64-v4"))))
TB_MATERIALIZE_VARIANT(v3, __attribute__((target("arch=x86-64-v3"))))
TB_MATERIALIZE_VARIANT(v2, )
#undef TB_MATERIALIZE_VARIANT

namespace isa_reference {
void materialize(CandidateBlock& block, const Board& board, Piece piece, Geometry g, Overflow overflow,
                 PlyCarry carry) {
  reference_drops(block, board, piece, g, overflow, carry);
}
void materialize_rows(CandidateBlock& block, const Board& board, const Placement* placements, int n,
                      Geometry g, Overflow overflow, PlyCarry carry, int at) {
  reference_fill(block, board, placements, n, g, overflow, carry, at);
}
}  // namespace isa_reference

void materialize(CandidateBlock& block, const Board& board, Piece piece, Geometry g, Overflow overflow,
                 PlyCarry carry, FeatureKernel kernel) {
  search_kernels(kernel).materialize(block, board, piece, g, overflow, carry);
}

void materialize_rows(CandidateBlock& block, const Board& board, const Placement* placements, int n,
                      Geometry g, Overflow overflow, PlyCarry carry, FeatureKernel kernel) {
  search_kernels(kernel).materialize_rows(block, board, placements, n, g, overflow, carry, 0);
}

void materialize_pair(CandidateBlock& block, const Board& grid, const Placement* placements, int n,
                      Geometry g, Overflow overflow, const UnclearedPair& pair) {
  assert(n >= 0 && n <= kBlockCapacity);
  std::array<Placement, kBlockCapacity> pls;
  std::copy_n(placements, n, pls.data());
  const int W = g.width;
  prepare_block(block, grid, n, W);
  for (int k = 0; k < n; ++k) {
    const Placement pl = pls[k];
    assert(pl.row != kDropRow);
    const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
    const int y = pl.row;
    int cells_in_full = 0;
    for (int i = 0; i < o.width; ++i) block.cols[(pl.column + i) * kBlockCapacity + k] |= o.mask[i] << y;
    Word full = ~Word{0};
    for (int c = 0; c < W; ++c) full &= block.cols[c * kBlockCapacity + k];
    for (int i = 0; i < o.width; ++i) cells_in_full += popcount((o.mask[i] << y) & full);
    for (int c = 0; c < W; ++c) cells_in_full += popcount(pair.first_cells.cols[c] & full);
    const int lines = popcount(full);
    Word any = 0;
    for (int c = 0; c < W; ++c) any |= remove_rows(block.cols[c * kBlockCapacity + k], full);
    block.values[MOVE_LANDING_X2 * kBlockCapacity + k] = 2 * y + o.height - 1;
    block.values[MOVE_ERODED * kBlockCapacity + k] = lines * cells_in_full;
    block.values[MOVE_LINES * kBlockCapacity + k] = lines;
    block.values[MOVE_CONSTANT * kBlockCapacity + k] = 1;
    block.terminal[k] = ends_at_lock(overflow, g, y, y + o.height) || column_height(any) > wall_limit(overflow, g);
    block.placements[k] = pl;
  }
}

namespace {
// Placements [first, first + n) of `set`, each with its row.
std::array<Placement, kBlockCapacity> placed_rows(const ReachableSet& set, int first, int n) {
  std::array<Placement, kBlockCapacity> pls;
  for (int k = 0; k < n; ++k) {
    const ReachablePlacement& rp = set.placements[first + k];
    pls[k] = rp.placement;
    pls[k].row = static_cast<std::uint8_t>(rp.row);
  }
  return pls;
}
}  // namespace

int materialize_reachable(CandidateBlock& block, const Board& board, const ReachableSet& set, int first,
                          Geometry g, Overflow overflow, PlyCarry carry, const UnclearedPair* pair,
                          const SearchKernels* isa) {
  const int n = std::clamp(set.count - first, 0, kBlockCapacity);
  const std::array<Placement, kBlockCapacity> pls = placed_rows(set, first, n);
  if (pair) materialize_pair(block, board, pls.data(), n, g, overflow, *pair);
  else (isa ? *isa : search_kernels(nullptr)).materialize_rows(block, board, pls.data(), n, g, overflow, carry, 0);
  return n;
}

void append_reachable(CandidateBlock& block, const Board& board, const ReachableSet& set, Geometry g,
                      Overflow overflow, PlyCarry carry, const SearchKernels* isa) {
  assert(block.count + set.count <= kBlockCapacity);
  const std::array<Placement, kBlockCapacity> pls = placed_rows(set, 0, set.count);
  (isa ? *isa : search_kernels(nullptr)).materialize_rows(block, board, pls.data(), set.count, g, overflow, carry,
                                                          block.count);
}

void materialize_drops_uncleared(CandidateBlock& block, const Board& grid, Piece piece, Geometry g,
                                 Overflow overflow, const UnclearedPair& pair) {
  std::array<Placement, kMaxPlacements> pls;
  const int n = static_cast<int>(generate_drops(piece, g.width, pls.data()) - pls.data());
  int heights[kMaxWidth];
  for (int c = 0; c < g.width; ++c) heights[c] = grid.height_of(c);
  for (int k = 0; k < n; ++k)
    pls[k].row = static_cast<std::uint8_t>(
        landing_row(heights, kShapes[piece].orientation[pls[k].orientation], pls[k].column));
  materialize_pair(block, grid, pls.data(), n, g, overflow, pair);
}

}  // namespace tb
