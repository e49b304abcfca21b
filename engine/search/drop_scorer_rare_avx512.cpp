// The drop scorer's rare-only pass (DropMode::rare_only, drop_pass_rare) compiled for avx512bw,
// in a translation unit of its own: the full pass's code stays as it is without it (per-file
// flags: engine/search/CMakeLists.txt).
#include "drop_scorer_simd.h"

namespace tb {

void drop_pass_rare_avx512(const DropRating& rating, const Board& board, Piece piece, PlyCarry carry, DropScores& out) {
  drop_pass_rare<xsimd::avx512bw, xsimd::avx2>(rating, board, piece, carry, out);
}

}  // namespace tb
