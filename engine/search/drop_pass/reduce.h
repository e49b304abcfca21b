// The drop pass's reductions (drop_pass/pass.h): a row's ratings from its values (TermSums,
// simd_ops.h) folded into the running best as they are made, and the best candidate.
#pragma once

#include "pass.h"
#include "rare.h"

namespace tb {
namespace {

// The first index of the highest of s[0 .. count) (none is NaN): a vector max (lanes past
// count read as -infinity), then the lowest lane equal to it; no branch per candidate (a
// compare and branch per candidate mispredicts: docs/performance.md).
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
int DropPass<A, Narrow, RareOnly, Family, Width>::argmax(const double* s, int count) {
  using D = xsimd::batch<double, A>;
  constexpr int M = static_cast<int>(D::size);
  const D minus_inf(-std::numeric_limits<double>::infinity());
  alignas(64) double lane[M], top_lanes[M];
  for (int l = 0; l < M; ++l) lane[l] = l;
  const D index = D::load_aligned(lane);
  D m = minus_inf;
  for (int k = 0; k < count; k += M)
    m = xsimd::max(m, xsimd::select(index < D(count - k), D::load_unaligned(s + k), minus_inf));
  m.store_aligned(top_lanes);
  double top = top_lanes[0];
  for (int l = 1; l < M; ++l) top = std::max(top, top_lanes[l]);
  for (int k = 0; k < count; k += M)
    if (const std::uint64_t eq = lane_bits(D::load_unaligned(s + k) == D(top)))
      return k + std::countr_zero(eq);  // a valid lane: lanes past count come after it
  return 0;
}

// score[k0 + l] = sum over terms of weight x value of lane l, in term order, for lanes 0 .. M -
// 1 (TermSums).  Then the rare candidates among lanes 0 .. n - 1 through rare_score, and lanes
// 0 .. n - 1 folded into the running best.  The loop over the terms is here, not in TermSums:
// there clang unrolled it with an exit test per term (perf-gate avx2 +0.3% instructions).
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <int M>
void DropPass<A, Narrow, RareOnly, Family, Width>::sum_terms(int k0, int n, std::uint64_t rare, PlyCarry carry,
                                                             DropScores& out) {
  double* s = out.score.data() + k0;
  TermSums<M> sum;
  if (TermSums<M>::kIntegral && r_.integral) {  // (integral_weights)
    sum.integral_terms(r_, vals_);
  } else {
#pragma GCC unroll 2
    for (int t = 0; t < r_.term_count; ++t) sum.add_term(r_.terms[t].weight, vals_[r_.terms[t].slot]);
  }
  sum.store(s);
  if (rare) {  // their ratings replace the lanes' sums
    rate_rare(k0, rare, carry, out);
    sum.load(s);
  }
  sum.fold_into(best_, k0, n);
}

// The n candidates of one orientation from k0 rated at once (every vector's sums side by
// side: each is a chain of dependent additions), in groups of 4 lanes (stored whole: the
// arrays run kDropLanes past the last candidate); rare candidates through rare_score.  Forced
// inline: with integral_weights' second path clang kept it out of line, a call per row.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
void DropPass<A, Narrow, RareOnly, Family, Width>::score(int k0, int n, std::uint64_t rare, PlyCarry carry,
                                                       DropScores& out) {
  switch ((n + 3) / 4) {
    case 1: sum_terms<4>(k0, n, rare, carry, out); break;
    case 2: sum_terms<8>(k0, n, rare, carry, out); break;
    case 3: sum_terms<12>(k0, n, rare, carry, out); break;
    default: static_assert(kMaxWidth <= 16); sum_terms<16>(k0, n, rare, carry, out); break;
  }
}

// The pass's best candidate: the running best's (BestLanes), or without one argmax's.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
int DropPass<A, Narrow, RareOnly, Family, Width>::best_index() const {
  if constexpr (BestLanes::kVector) return best_.best();
  else return argmax(out_->score.data(), out_->count);
}

}  // namespace
}  // namespace tb
