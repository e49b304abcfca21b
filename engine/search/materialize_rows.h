// Candidate blocks of placements that carry their lock row (Placement::row): move-reachable
// placements (engine/moves/reachable.h), and the second ply of a pair rated without clearing lines
// between the plies (article 4; Rules::clear_between_plies).  The same CandidateBlock as
// materialize() (evaluator.h) fills for the drop model, so every evaluator, policy and
// optimizer works on them unchanged.  A plain loop: these are not the research hot path.
#pragma once

#include "evaluator.h"
#include "reachable.h"

namespace tb {

// The first ply of a pair rated without clears between the plies: its piece's cells.  Each
// second-ply candidate then holds the grid with both pieces and nothing cleared; `lines`
// (MOVE_LINES) counts the full rows of that grid, `eroded_cells` is lines x the cells of both
// pieces in them, and the game-over rule is judged on that grid with its full rows removed.
struct UnclearedPair {
  Board first_cells;
};

// Fills `block` with placements[0, n) (n <= kBlockCapacity), each locked at its row on
// `board`.  Without `pair`, candidate k is the board after the lock and the clears, with the
// move slots and `terminal` as drop() (placement.h) gives them, plus `carry`.
void materialize_rows(CandidateBlock& block, const Board& board, const Placement* placements, int n,
                      Geometry g, Overflow overflow, PlyCarry carry, const UnclearedPair* pair);

// Placements [first, first + kBlockCapacity) of `set`, the reachable placements of set.piece
// on `board`, in set order; returns how many (0 when first >= set.count).  A piece with more
// placements than one block holds is evaluated block by block (engine/search/search.cpp).
int materialize_reachable(CandidateBlock& block, const Board& board, const ReachableSet& set, int first,
                          Geometry g, Overflow overflow, PlyCarry carry = {},
                          const UnclearedPair* pair = nullptr);

// Every drop placement of `piece` (generate_drops order) as the second ply of an uncleared
// pair on `board`, the grid after the first ply with nothing cleared.
void materialize_drops_uncleared(CandidateBlock& block, const Board& board, Piece piece, Geometry g,
                                 Overflow overflow, const UnclearedPair& pair);

}  // namespace tb
