// Filling a CandidateBlock (candidate_block.h): every placement of a piece locked on a board,
// its rows cleared and the game-over rule applied (docs/rules.md), with the move features.
//
// Lock, line clear and game over exist twice: here in the fast block form, and in drop()
// (engine/core/placement.h), the one-board reference.  The fast form has one instruction-set
// variant per feature-kernel family, chosen with the kernel (search_kernels.h), so
// `--kernel` forces it and `--kernel reference` plays every move through drop().
// tests/test_materialize.cpp checks every variant against drop().
#pragma once

#include "candidate_block.h"
#include "feature_kernels.h"
#include "reachable.h"
#include "search_kernels.h"

namespace tb {

// Every drop placement of `piece` (generate_drops order), with the variant that goes with
// `kernel` (nullptr: the best this CPU has).
void materialize(CandidateBlock& block, const Board& board, Piece piece, Geometry g,
                 Overflow overflow, PlyCarry carry = {}, FeatureKernel kernel = nullptr);

// placements[0, n) (n <= kBlockCapacity), each locked at its row on `board`: candidate k is
// the board after the lock and the clears, with the move slots and `terminal` as drop()
// gives them, plus `carry`.
void materialize_rows(CandidateBlock& block, const Board& board, const Placement* placements, int n,
                      Geometry g, Overflow overflow, PlyCarry carry = {}, FeatureKernel kernel = nullptr);

// The first ply of a pair rated without clears between the plies (article 4;
// Rules::clear_between_plies): its piece's cells.  Each second-ply candidate then holds the
// grid with both pieces and nothing cleared; `lines` (MOVE_LINES) counts the full rows of that
// grid, `eroded_cells` is lines x the cells of both pieces in them, and the game-over rule is
// judged on that grid with its full rows removed.
struct UnclearedPair {
  Board first_cells;
};
void materialize_pair(CandidateBlock& block, const Board& grid, const Placement* placements, int n,
                      Geometry g, Overflow overflow, const UnclearedPair& pair);

// Placements [first, first + kBlockCapacity) of `set`, the reachable placements of set.piece
// on `board`, in set order (as materialize_rows with the variants `isa`, nullptr for the best
// this CPU has, or materialize_pair with `pair`); returns how many (0 when first >= set.count).
int materialize_reachable(CandidateBlock& block, const Board& board, const ReachableSet& set, int first,
                          Geometry g, Overflow overflow, PlyCarry carry = {},
                          const UnclearedPair* pair = nullptr, const SearchKernels* isa = nullptr);

// Every placement of `set` (the reachable placements of set.piece on `board`, at most
// kBlockCapacity - block.count of them) appended to `block` as materialize_reachable would
// fill them, at lanes block.count, block.count + 1, ...; the lanes before are kept (boards and
// move values; a block is rated whole afterwards).  With the variants `isa` (nullptr: the
// best this CPU has).
void append_reachable(CandidateBlock& block, const Board& board, const ReachableSet& set, Geometry g,
                      Overflow overflow, PlyCarry carry = {}, const SearchKernels* isa = nullptr);

// Every drop placement of `piece` (generate_drops order) as the second ply of an uncleared
// pair on `grid`, the grid after the first ply with nothing cleared.
void materialize_drops_uncleared(CandidateBlock& block, const Board& grid, Piece piece, Geometry g,
                                 Overflow overflow, const UnclearedPair& pair);

}  // namespace tb
