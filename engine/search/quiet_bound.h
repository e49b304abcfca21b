// An upper bound on the ratings of a piece's quiet drop placements on a board, from the
// board's own feature values: what lets 2-ply skip rating the second plies of a first
// placement that cannot win (docs/performance.md "2-ply pruning").
//
// A quiet placement (drop_scorer.h: it clears no row and its top stays at or below
// quiet_top) adds one run of cells to each column it covers, starting gap >= 0 rows above
// the column's top, and changes nothing else.  Each feature then stays inside a range set by
// the board's value (every range below follows from drop_pass/pass.h's incremental forms):
//   row transitions   rt + sides - 2 x (sides facing a filled cell)  in [rt - S, rt + S], S the
//                     piece's most cell sides facing a non-piece cell in a row
//   col transitions   ct + 2 per column with gap > 0          in [ct, ct + 8]
//   holes             holes + the gaps                        in [holes, holes + 4 H]
//   hole depth        depth + the cells of some columns       in [depth, depth + 4]
//   rows with holes   the board's, OR the gap rows            in [rows, H]
//   max height        max(max, the new tops)                  in [max, H]
//   agg. height       agg + sum (gap + cells) over columns    in [agg + 4, W H]
//   wells, wells fast, bumpiness                              in [0, kUnbounded)
//   diversity         popcount of 5 bits                      in [0, 5]
//   landing x2        2 y + height - 1, y >= the lowest top (the piece's lowest cell rests
//                     on or above its column's top)           in [2 min_top + h_min - 1, 2 H + 3]
//   eroded, lines     the carry (nothing clears)
// So sum over terms of weight x (weight < 0 ? low end : high end) bounds every quiet rating in
// real arithmetic (each end is the board's value plus a constant, or a constant); the
// scorer's double sums differ from it by rounding alone (n terms, u = 2^-53, every
// |v| < kUnbounded: at most about n u 2^20 sum |w|), far below the margin added.
#pragma once

#include "candidate_block.h"
#include "drop_scorer.h"

namespace tb {

// Above every feature value on a supported board (the largest, wells, is at most
// 16 x 28 x 29 / 2 = 6,496).
inline constexpr int kUnbounded = 1 << 20;

// For every candidate k of a DropMode::with_values pass `first` (the first ply), an upper
// bound on the rating of every quiet drop placement of `next` on the board after k (the second
// ply), with nothing carried (a quiet first move clears nothing): bound[k].  Rare first
// candidates get +infinity.  `base_min_top` is the lowest column height of the first ply's
// board (the first move adds cells, so the boards after it are no lower).
void quiet_bounds(const DropRating& rating, const DropScores& first, int base_min_top, Piece next, double* bound);

// The same for a block of first placements whose board features (the rating's groups) have
// been computed (a LinearEvaluator's score()): bound[k] is +infinity where placement k cleared
// rows.
void quiet_bounds(const DropRating& rating, const CandidateBlock& first, int base_min_top, Piece next, double* bound);

}  // namespace tb
