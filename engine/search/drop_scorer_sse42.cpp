// The drop scorer's vector pass compiled for sse4_2 (per-file flags: engine/search/CMakeLists.txt).
#include "drop_scorer_simd.h"

namespace tb {

void drop_pass_sse42(const DropRating& rating, const Board& board, Piece piece, PlyCarry carry, DropMode mode,
                     DropScores& out) {
  drop_pass<xsimd::sse4_2>(rating, board, piece, carry, mode, out);
}

}  // namespace tb
