// Move-reachable placements: every place a piece can lock after spawning, through any
// sequence of left, right, cw, ccw and soft drop followed by a hard drop, with one shortest
// input sequence each (docs/srs.md "Reachable placements").  Generation only: no scoring.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "board.h"
#include "pieces.h"
#include "placement.h"
#include "srs.h"

namespace tb {

// Distinct resting rows of one (orientation, column) are at least 2 apart, so a piece has at
// most kMaxPlacements * ceil(H / 2) placements: the storage cannot overflow.
inline constexpr int kMaxReachable = kMaxPlacements * ((kMaxHeight + 1) / 2);

// BFS state index layout (12 bits): rotation << 10 | (x + kXBias) << 5 | (y + kYBias).
// x, y are PieceState's box corner: x in [-2, W - 2], y in [-2, H - 1] cover every state
// whose cells are on the board.  The biases leave room for kicks of up to 2 cells.
namespace reach {
inline constexpr int kXBias = 4;
inline constexpr int kYBias = 4;
inline constexpr int kStateSlots = 4 << 10;
// x slots x + kXBias: states use [2, W + 2]; the slots around them stay empty for kicks.
inline constexpr int kXSlots = kMaxWidth + 2 * kXBias - 1;
// Per rotation and x slot, one word of y slots (reachable.cpp says which bit is which y).
using StateWords = std::array<std::array<std::uint64_t, kXSlots>, 4>;
}  // namespace reach

struct ReachablePlacement {
  Placement placement;
  std::int8_t row;     // row of the lowest cell
  std::uint16_t from;  // BFS state index where `hard` is pressed
};

// Caller-provided storage, reused across calls; about 20 KB.
struct ReachableSet {
  int count = 0;
  bool block_out = false;  // the spawn state overlaps the stack: no placements
  Piece piece = I;
  // (count) sorted by (orientation, column, row)
  std::array<ReachablePlacement, kMaxReachable> placements;
  // BFS tree of the last search, valid at visited states: parent state and the input that
  // reached it from there.
  std::uint16_t root = 0;
  std::array<std::uint16_t, reach::kStateSlots> parent;
  std::array<Input, reach::kStateSlots> via;
};

// Fills `out` and returns out.count.  `spawn_row` is the spawn's lowest row (srs.h
// spawn_state).  Deterministic: ties between equally short sequences go to the input order
// left, right, cw, ccw, soft of the breadth-first search.
int find_reachable(const Board& b, Geometry g, Piece p, int spawn_row, RotationSystem rs,
                   ReachableSet& out);

// The shortest input sequence of out.placements[i], ending with Input::hard.  On demand only.
std::vector<Input> input_sequence(const ReachableSet& set, int i);

// The placements of find_reachable without its search tree, for callers that only need the
// set (the second ply of a search): count, block_out, piece and every placements[i].placement
// and .row are exactly find_reachable's, in the same order.  Every .from is 0 and root,
// parent and via are left as they were, so input_sequence() must NOT be called on this
// result.  A bit-parallel flood fill over the same states (reachable.cpp), several times
// faster than the breadth-first search, which stays the reference.
int find_reachable_placements(const Board& b, Geometry g, Piece p, int spawn_row, RotationSystem rs,
                              ReachableSet& out);

// A superset of the states a piece can reach on every board that holds `b`'s cells (and maybe
// more): the flood fill of find_reachable_placements on `b`, except that a turn may take any
// kick test that fits, not only the first.  On a board b' with more cells, a state fits only if
// it fits on b, and the kick a turn takes on b' is a test that fits on b', so it fits on b:
// every step of every input sequence on b' is a step of this flood on b.  What lets 2-ply
// bound the placements under the drops after many first placements from one flood
// (Searcher::pruned_follow_up).
struct ReachableBound {
  Piece piece = I;
  bool block_out = true;  // the spawn state overlaps b: no state on any such board
  reach::StateWords reach;  // find_reachable_placements' depth-bit layout
  // What placements_under_drops_within reuses: b, its columns in depth bits, and, where no
  // column of b reaches the top 4 rows (`low`), the locks on b that `reach` allows less the
  // drops', per rotation the x slots (one bit each) that hold any, and the depth bit of the
  // highest state on the board.
  Board board;
  std::array<std::uint64_t, kMaxWidth + 4> depth_cols;
  bool low = false;
  reach::StateWords locks;
  std::array<std::uint32_t, 4> lock_slots;
  std::array<std::uint64_t, 4> highest;
};
void find_reachable_bound(const Board& b, Geometry g, Piece p, int spawn_row, RotationSystem rs,
                          ReachableBound& out);

// The placements of bound.piece on `after` (a board holding the cells of the board `bound`
// was found on) whose state is in `bound` and rests on `after`, except each (orientation,
// column)'s drop placement (the row a drop from the top stops at): every reachable placement
// of the piece on `after` that is not a drop is among them.  Fills out.placements (row and
// placement; `from` 0, no search tree) in find_reachable's order and returns out.count.
int placements_under_drops_within(const ReachableBound& bound, const Board& after, Geometry g, ReachableSet& out);

// A sufficient condition for the reachable placements of every piece to be exactly its drop
// placements (generate_drops order, each at its drop landing row), under either rotation
// system.  A piece that never has a cell in a hole (an empty cell below its column's top)
// lands on the tops, and every (orientation, column) is then reached by turning at the spawn,
// moving and dropping.  So: (1) every column top is at least kReachSpawnMargin rows below the
// spawn row, so that a piece turns there without kicks and moves to every column; (2) no hole
// is beside open air, so the cells of a piece that has one in a hole are all holes of one
// region (the cell above a column's highest hole is filled): regions of fewer than 4 holes
// never hold a piece; (3) every region of 4 or more holes lies at least kReachHoleDepth rows
// below the top of every column within kReachReach columns of it: one move or turn with a kick
// (the rotation box is at most 4 cells, a kick at most 2) shifts a piece's cells by less than
// that, so no piece whose cells are all in open air reaches it, and by induction none ever
// does.  Checked against find_reachable on random and played boards (tests/test_reachable.cpp).
inline constexpr int kReachSpawnMargin = 4;
inline constexpr int kReachHoleDepth = 7;
inline constexpr int kReachReach = 6;
bool reachable_are_drops(const Board& b, Geometry g, int spawn_row);

// Condition (1) above alone: every drop placement of every piece is reachable (turn at the
// spawn, move, drop), and is then its (orientation, column)'s highest reachable placement (no
// piece rests above the row a drop from the top stops at).
bool drops_are_reachable(const Board& b, Geometry g, int spawn_row);

// Removes from `set` each (orientation, column)'s highest placement, keeping the others (the
// placements under the drops' when drops_are_reachable) in order; returns the new count.
int keep_below_drops(ReachableSet& set);

}  // namespace tb
