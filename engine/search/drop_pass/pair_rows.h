// The drop pass's pair rows (DropPass::kPairs, drop_pass/pass.h; AVX-512 only): orientations
// 0 and 2 of T, J and L, 8 candidates each on a board of known width, in one 16-lane row
// (orientation<..., true>, quiet_rows.h), their ratings split back into candidate order.
#pragma once

#include "pass.h"
#include "rare.h"

namespace tb {
namespace {

// With pair rows for this piece (kPairs, paired(), DropMode::all): orientations 0 and 2 in one
// row, 0's candidates rated; then orientation 1's row; then 2's candidates rated (finish_pair);
// then 3's row: the running best sees the candidates in their order, as it must for the first
// highest to win a tie.  Returns the piece's candidate count, or 0 (none rated) without them.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
int DropPass<A, Narrow, RareOnly, Family, Width>::pair_rows([[maybe_unused]] const PieceShapes& shapes,
                                                          [[maybe_unused]] int quiet, [[maybe_unused]] PlyCarry carry,
                                                          [[maybe_unused]] DropScores& out) {
  if constexpr (kPairs) {
    if (!paired<kPairWidth>(piece_) || mode_ != DropMode::all) return 0;
    constexpr int n = Width - kPairWidth + 1;  // 8
    orientation_ = 0;
    orientation<L, kPairWidth, true>(shapes.orientation[0], 0, quiet, carry, out);
    orientation_ = 1;
    const int k2 = row_of(shapes.orientation[1], n, quiet, carry, out);
    orientation_ = 2;
    finish_pair(k2, carry, out);
    orientation_ = 3;
    return row_of(shapes.orientation[3], k2 + n, quiet, carry, out);
  }
  return 0;
}

#if defined(__AVX512F__)
// A pair row's ratings (orientation<..., true>): lanes 0-7 of the vals_ rows are candidates k
// .. k + 7 of orientation 0, summed as sum_terms does, their rare ones through rate_rare, then
// folded into the running best; lanes 8-15 (orientation 2's) are summed too and wait in pair_.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
void DropPass<A, Narrow, RareOnly, Family, Width>::score_pair(int k, std::uint64_t rare, PlyCarry carry,
                                                            DropScores& out) {
  __m512d sum[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
  if (r_.integral) {  // (as sum_terms)
    __m256i whole[2];
    integer_sums(r_, vals_, whole);
    for (int g = 0; g < 2; ++g) sum[g] = _mm512_mul_pd(_mm512_cvtepi32_pd(whole[g]), _mm512_set1_pd(r_.unit));
  } else {
#pragma GCC unroll 2
    for (int t = 0; t < r_.term_count; ++t) {
      const double w = r_.terms[t].weight;
      const std::int32_t* v = vals_[r_.terms[t].slot];
      for (int g = 0; g < 2; ++g) {
        const __m512d x = _mm512_cvtepi32_pd(_mm256_load_si256(reinterpret_cast<const __m256i*>(v + 8 * g)));
        sum[g] = _mm512_add_pd(sum[g], _mm512_mul_pd(_mm512_set1_pd(w), x));
      }
    }
  }
  _mm512_store_pd(pair_.score, sum[1]);
  _mm256_store_si256(reinterpret_cast<__m256i*>(pair_.full), _mm256_load_si256(reinterpret_cast<const __m256i*>(full_ + 8)));
  pair_.rare = rare >> 8;
  double* s = out.score.data() + k;
  _mm512_storeu_pd(s, sum[0]);
  if (rare & 0xFFu) {  // their ratings replace the lanes' sums
    rate_rare(k, rare & 0xFFu, carry, out);
    sum[0] = _mm512_loadu_pd(s);
  }
  BestLanes::Row row[1] = {sum[0]};
  best_.fold(row, k, 8);
}

// Orientation 2's candidates of a pair row (score_pair) as candidates k .. k + 7: their rows,
// holes, wall heights and ratings put in place, the rare ones rated, all folded into the best.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
void DropPass<A, Narrow, RareOnly, Family, Width>::finish_pair(int k, PlyCarry carry, DropScores& out) {
  const auto move = [](std::int32_t* to, const std::int32_t* from) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), _mm256_load_si256(reinterpret_cast<const __m256i*>(from)));
  };
  move(out.row.data() + k, pair_.row);
  move(holes_at_ + k, pair_.holes);
  move(height_at_ + k, pair_.height);
  double* s = out.score.data() + k;
  _mm512_storeu_pd(s, _mm512_load_pd(pair_.score));
  if (pair_.rare) {
    std::copy_n(pair_.full, 8, full_);
    rate_rare(k, pair_.rare, carry, out);
  }
  BestLanes::Row row[1] = {_mm512_loadu_pd(s)};
  best_.fold(row, k, 8);
}
#endif

}  // namespace
}  // namespace tb
