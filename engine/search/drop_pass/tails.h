// The drop pass's rows with tails (DropPass::kTails, drop_pass/pass.h; AVX2 only): the one or
// two candidates of a row past its 8 lanes, each computed alone with its changed columns in 4
// lanes (kTailShapes), as orientation() (quiet_rows.h) computes a lane of the row.
#pragma once

#include "pass.h"
#include "rare.h"

namespace tb {
namespace {

#if defined(__AVX2__)
// The tail of a row (kTails): its candidates' rare bits, by column x; unless the pass is
// rare_only their values join the row's in vals_, from registers (lane x - 8) in whole 4-lane
// stores (which the sums' loads forward; they would not from one word each).
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <int Wd>
std::uint64_t DropPass<A, Narrow, RareOnly, Family, Width>::tail_row(const Orientation& o, int sides, int k, int quiet,
                                                                     DropScores& out) {
  const TailShape& tc = kTailShapes[piece_][orientation_];
  constexpr int kTail = Width - Wd + 1 - LN::N;
  __m128i tv[kTailSlots];
  std::int32_t v[kTailSlots];
  std::uint64_t rare = 0;
  const bool rare0 = tail<Wd>(o, tc, sides, k, LN::N, quiet, v, out);
  rare |= std::uint64_t{rare0} << LN::N;
  for (int t = 0; t < kTailSlots; ++t) tv[t] = _mm_cvtsi32_si128(rare0 ? 0 : v[t]);
  if constexpr (kTail == 2) {
    const bool rare1 = tail<Wd>(o, tc, sides, k, LN::N + 1, quiet, v, out);
    rare |= std::uint64_t{rare1} << (LN::N + 1);
    for (int t = 0; t < kTailSlots; ++t) tv[t] = _mm_insert_epi32(tv[t], rare1 ? 0 : v[t], 1);
  }
  if (mode_ != DropMode::rare_only)        // (every slot, without a branch: a slot outside the
    for (int t = 0; t < kTailSlots; ++t)  // rating's groups is never read)
      _mm_store_si128(reinterpret_cast<__m128i*>(vals_[kTailSlot[t]] + LN::N), tv[t]);
  return rare;
}

// The candidate at column x of a row with tails (kTails), as orientation() makes lane x of
// the row, with the candidate's changed columns in the lanes (kTailShapes): its row, filled
// rows and rare bit (returned); unless it is rare or the pass is rare_only, its values in
// tv (kTailSlot's order) and its holes and wall height.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <int Wd>
bool DropPass<A, Narrow, RareOnly, Family, Width>::tail(const Orientation& o, const TailShape& tc, int sides, int k,
                                                     int x, int quiet, std::int32_t (&tv)[kTailSlots],
                                                     DropScores& out) {
  const int base = kPad + x;
  int y = 0, h[Wd];
  for (int i = 0; i < Wd; ++i) {
    h[i] = h_[base + i];
    y = std::max(y, h[i] - o.bottom[i]);
  }
  const auto lanes = [](const std::int32_t (&v)[4]) { return _mm_load_si128(reinterpret_cast<const __m128i*>(v)); };
  Word full = (y < 32 ? low_mask(o.height) << y : 0u) & left_and_[base] & right_and_[base + Wd];
  for (int i = 0; i < Wd; ++i) full &= col_[base + i] | (y < 32 ? o.mask[i] << y : 0u);
  out.row[k + x] = y;
  full_[x] = full;
  const bool rare = full != 0 || y + o.height > quiet;
  if (rare || mode_ == DropMode::rare_only) return rare;

  const __m128i yv = _mm_set1_epi32(y), zero = _mm_setzero_si128();
  const __m128i cl = loadu128(col_ + base - 2), cm = loadu128(col_ + base - 1), cr = loadu128(col_ + base);
  // The lanes' base heights, from scalar loads (a vector load across load_base's scalar stores
  // of the walls' heights would wait for them).
  const __m128i base_h = _mm_setr_epi32(h_[base - 1], h[0], h_[base + 1], h_[base + 2]);
  const __m128i run = _mm_add_epi32(yv, lanes(tc.bottom));  // the piece run's first row (64 + y outside the piece)
  const __m128i gap = _mm_and_si128(_mm_sub_epi32(run, base_h), lanes(tc.interior));
  const __m128i floats = _mm_cmpgt_epi32(gap, zero);
  const __m128i ct = _mm_and_si128(floats, _mm_set1_epi32(2));
  const __m128i depth = _mm_and_si128(_mm_or_si128(floats, _mm_cmpgt_epi32(loadu128(holes_ + base - 1), zero)), lanes(tc.cells));
  const __m128i ones = _mm_set1_epi32(-1);
  const __m128i from_run = _mm_sllv_epi32(ones, run);  // the rows from the run up (none outside the piece)
  const __m128i from_top = _mm_sllv_epi32(ones, base_h);
  __m128i any = _mm_and_si128(_mm_andnot_si128(from_run, from_top), lanes(tc.interior));
  any = _mm_or_si128(any, _mm_shuffle_epi32(any, 0x4E));
  any = _mm_or_si128(any, _mm_shuffle_epi32(any, 0xB1));
  using L4 = Lanes<xsimd::sse4_2>;  // 4 lanes, byte-table popcounts
  using U4 = typename L4::U;
  const __m128i filled = L4::total(L4::part(U4(_mm_and_si128(_mm_srlv_epi32(cl, yv), lanes(tc.side_left)))) +
                                   L4::part(U4(_mm_and_si128(_mm_srlv_epi32(cr, yv), lanes(tc.side_right)))));
  // Wells, as wells()'s byte-table path: a well cell above its column's top (the new top on
  // the piece lanes) weighs its height above it, one in the gap under the piece its height
  // above the base top, one in a run of holes (rarely) its base run plane's.
  const __m128i nl = _mm_or_si128(cl, _mm_sllv_epi32(lanes(tc.piece_left), yv));
  const __m128i nm = _mm_or_si128(cm, _mm_sllv_epi32(lanes(tc.piece), yv));
  const __m128i nr = _mm_or_si128(cr, _mm_sllv_epi32(lanes(tc.piece_right), yv));
  const __m128i cells = _mm_and_si128(_mm_andnot_si128(nm, _mm_and_si128(nl, nr)), _mm_set1_epi32(static_cast<int>(rows_)));
  const __m128i top = _mm_blendv_epi8(base_h, _mm_add_epi32(yv, lanes(tc.top)), lanes(tc.interior));
  typename L4::Weighted open;
  L4::add_weighted(open, U4(_mm_srlv_epi32(cells, top)));
  L4::add_weighted(open, U4(_mm_srlv_epi32(_mm_and_si128(_mm_andnot_si128(from_run, cells), lanes(tc.interior)), base_h)));
  const __m128i in_holes = _mm_andnot_si128(from_top, cells);
  static_assert(L::kBytes && !L::kNativePopcnt, "hole_start_ and multi_runs_ come from the byte-table column pass");
  __m128i by_planes = _mm_setzero_si128();
  if (!_mm_testz_si128(in_holes, in_holes)) {
    if (!multi_runs_) {
      L4::add_weighted(open, U4(_mm_srlv_epi32(in_holes, loadu128(hole_start_ + base - 1))));
    } else {
      U4 planes[kRunPlanes];
      for (int p = 0; p < kRunPlanes; ++p) planes[p] = U4(loadu128(planes_[p] + base - 1));
      by_planes = weigh<L4>(U4(in_holes), planes);
    }
  }
  __m128i wells = _mm_sub_epi32(_mm_add_epi32(L4::weighted_total(open), by_planes), loadu128(wells_ + base - 1));
  wells = _mm_and_si128(wells, lanes(tc.valid));
  // Two sums a lane (each below 2^15) in one reduction, wells (signed) in another.
  const __m128i a = lanes_sum(_mm_add_epi32(gap, _mm_slli_epi32(ct, 16)));
  const __m128i d = lanes_sum(_mm_add_epi32(depth, _mm_slli_epi32(filled, 16)));
  const int sa = _mm_cvtsi128_si32(a), sd = _mm_cvtsi128_si32(d);
  const int holes = t_.holes + (sa & 0xFFFF);
  tv[0] = 2 * y + o.height - 1;
  tv[1] = holes;
  tv[2] = t_.ct + (sa >> 16);
  tv[3] = t_.depth + (sd & 0xFFFF);
  tv[4] = popcount(t_.hole_rows | static_cast<Word>(_mm_cvtsi128_si32(any)));
  tv[5] = t_.rt + sides - 2 * (sd >> 16);
  tv[6] = t_.wells + _mm_cvtsi128_si32(lanes_sum(wells));
  holes_at_[k + x] = holes;
  height_at_[k + x] = std::max(t_.max, y + tc.top_most);
  return false;
}
#endif

}  // namespace
}  // namespace tb
