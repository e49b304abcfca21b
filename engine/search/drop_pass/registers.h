// The drop pass's board in registers (drop_pass/pass.h): where the padded board fits one
// AVX-512 register or two AVX2 8-lane registers (boards up to 12 columns), the base board's
// column pass and full-row masks (base_pass.h) and the rare candidates' drop() and column pass
// (rare.h) work in them, not in a copy in memory: the game loop and the 2-ply search write a
// board a column at a time just before, and a vector load across such stores waits until they
// reach the cache.  The only instruction-set code of the pass beyond simd_ops.h, the AVX2 tails
// (tails.h) and the AVX-512 pair rows (pair_rows.h); the pass calls it only where
// DropPass::kOneRegister or kTwoRegisters holds.
#pragma once

#include "pass.h"

namespace tb {
namespace {

#if defined(__AVX512F__)
// Lane 0 of 128-bit block B of x.
template <int B>
Word block_lane(__m512i x) {
  return static_cast<Word>(_mm_cvtsi128_si32(_mm512_extracti32x4_epi32(x, B)));
}
// Every lane of 128-bit block i: the sum of the lanes of x_i (wrapping, as the sums' 32 bits).
inline __m512i lane_sums4(__m512i x0, __m512i x1, __m512i x2, __m512i x3) {
  // Blocks 0-1: x0's lower and upper 256 bits added, blocks 2-3 x1's (x2 and x3 alike).
  const __m512i s01 = _mm512_add_epi32(_mm512_shuffle_i64x2(x0, x1, 0x44), _mm512_shuffle_i64x2(x0, x1, 0xEE));
  const __m512i s23 = _mm512_add_epi32(_mm512_shuffle_i64x2(x2, x3, 0x44), _mm512_shuffle_i64x2(x2, x3, 0xEE));
  // Block i: x_i's four 128-bit blocks added.
  __m512i s = _mm512_add_epi32(_mm512_shuffle_i64x2(s01, s23, 0x88), _mm512_shuffle_i64x2(s01, s23, 0xDD));
  s = _mm512_add_epi32(s, _mm512_shuffle_epi32(s, _MM_PERM_BADC));
  return _mm512_add_epi32(s, _mm512_shuffle_epi32(s, _MM_PERM_CDAB));
}
// Every lane of blocks 0-1: the OR of the lanes of x0; of blocks 2-3: of x1.
inline __m512i lane_ors2(__m512i x0, __m512i x1) {
  __m512i o = _mm512_or_si512(_mm512_shuffle_i64x2(x0, x1, 0x44), _mm512_shuffle_i64x2(x0, x1, 0xEE));
  o = _mm512_or_si512(o, _mm512_shuffle_i64x2(o, o, 0xB1));
  o = _mm512_or_si512(o, _mm512_shuffle_epi32(o, _MM_PERM_BADC));
  return _mm512_or_si512(o, _mm512_shuffle_epi32(o, _MM_PERM_CDAB));
}

// Lane l: padded index l of board b of width W (column l - kPad; the walls all ones), from a
// load per column (a vector load across the board's just-written columns would wait).
inline __m512i padded_board(const Board& b, int W) {
  static_assert(kPad == 2);
  const auto c = [&](int i) { return static_cast<int>(b.cols[i]); };  // (columns >= W: masked below)
  const __m512i cols = _mm512_setr_epi32(-1, -1, c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7), c(8), c(9),
                                         c(10), c(11), -1, -1);
  return _mm512_mask_mov_epi32(_mm512_set1_epi32(-1), static_cast<__mmask16>(((1u << W) - 1) << kPad), cols);
}

// column_pass's input from a padded board in one register: lane l holds padded indices l,
// l + 1 and l + 2 (the walls past the board all ones).
template <class U>
std::array<U, 3> neighbours(U padded) {
  const __m512i ones = _mm512_set1_epi32(-1);
  return {padded, U(_mm512_alignr_epi32(ones, padded, 1)), U(_mm512_alignr_epi32(ones, padded, 2))};
}

// The full-row masks (left_and_ and right_and_, load_base) from the padded board in one
// register: an exclusive prefix AND and an inclusive suffix AND across the lanes, in four lane
// shifts each (the walls are all ones, so they change nothing; the orientations read indices
// kPad .. kPad + 21).
inline void and_scans(__m512i padded, Word (&left_and)[kPadded], Word (&right_and)[kPadded]) {
  const __m512i ones = _mm512_set1_epi32(-1);
  __m512i up = padded, down = padded;
  up = _mm512_and_si512(up, _mm512_alignr_epi32(up, ones, 15));  // lane p: AND of lanes 0 .. p
  up = _mm512_and_si512(up, _mm512_alignr_epi32(up, ones, 14));
  up = _mm512_and_si512(up, _mm512_alignr_epi32(up, ones, 12));
  up = _mm512_and_si512(up, _mm512_alignr_epi32(up, ones, 8));
  down = _mm512_and_si512(down, _mm512_alignr_epi32(ones, down, 1));  // lane p: AND of lanes p .. 15
  down = _mm512_and_si512(down, _mm512_alignr_epi32(ones, down, 2));
  down = _mm512_and_si512(down, _mm512_alignr_epi32(ones, down, 4));
  down = _mm512_and_si512(down, _mm512_alignr_epi32(ones, down, 8));
  const __m512i all = _mm512_permutexvar_epi32(_mm512_set1_epi32(15), up);  // every column
  _mm512_store_si512(left_and, _mm512_alignr_epi32(up, ones, 15));        // lane p: lanes 0 .. p - 1
  for (int j = 16; j < kPadded; j += 16) {
    _mm512_store_si512(left_and + j, all);
    _mm512_store_si512(right_and + j, ones);
  }
  _mm512_store_si512(right_and, down);
}

// column_pass's totals when the board fits one vector (lane l: column l - 1), with vector
// reductions; with keep, bump_ and div_ as the scalar loop leaves them.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
void DropPass<A, Narrow, RareOnly, Family, Width>::reduce_one_vector(U ct_holes, U depth_rt, U wells_fast, U hole_rows,
                                                                     U c, U h, bool keep, Totals& t) {
  const __mmask16 columns = static_cast<__mmask16>(((1u << W()) - 1) << 1);
  // Four lane sums in one tree and two ORs in another (shorter than a reduction each): the
  // wall height is the bit width of the OR of the column words.
  const __m512i s = lane_sums4(ct_holes, depth_rt, wells_fast, _mm512_maskz_mov_epi32(columns, h));
  unpack(block_lane<0>(s), block_lane<1>(s), block_lane<2>(s), t);
  t.agg = static_cast<std::int32_t>(block_lane<3>(s));
  const __m512i o = lane_ors2(hole_rows, _mm512_maskz_mov_epi32(columns, c));
  t.hole_rows = block_lane<0>(o);
  t.max = std::bit_width(block_lane<2>(o));
  if (!(groups() & (G_BUMPINESS | G_DIVERSITY))) return;
  // Lane l = 1 .. W - 1: the pair of columns l - 1, l.
  const __mmask16 pairs = static_cast<__mmask16>(((1u << W()) - 1) & ~1u);
  const __m512i d_pair = _mm512_sub_epi32(_mm512_alignr_epi32(_mm512_setzero_si512(), h, 1), h);
  const __m512i bump = _mm512_maskz_abs_epi32(pairs, d_pair);
  const __m512i bit = _mm512_maskz_sllv_epi32(
      pairs, _mm512_set1_epi32(1), _mm512_min_epu32(_mm512_add_epi32(d_pair, _mm512_set1_epi32(2)), _mm512_set1_epi32(5)));
  t.bump = _mm512_reduce_add_epi32(bump);
  t.pair_bits = static_cast<Word>(_mm512_reduce_or_epi32(bit));
  if (keep) {
    fill_lanes(bump_, 0);
    fill_lanes(div_, Word{0});
    _mm512_storeu_si512(bump_ + kPad, bump);
    _mm512_storeu_si512(div_ + kPad, bit);
  }
}

// load_base with the padded board in one register, and the column pass from it.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
void DropPass<A, Narrow, RareOnly, Family, Width>::load_base_in_one_register(const Board& b, bool features) {
  const U padded(padded_board(b, W()));
  padded.store_aligned(col_);
  if (features) column_pass<true>(t_, col_, neighbours(padded).data());
  and_scans(padded, left_and_, right_and_);
}

// rare_score's drop() and column pass with the padded board in one register (boards up to 12
// wide): the same lock, line clears and game-over rule as drop(), without a copy of the board
// in memory (a vector load across the words just stored waits for them to reach the cache).
// False if the move ends the game.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
bool DropPass<A, Narrow, RareOnly, Family, Width>::rare_in_registers(Placement pl, int k, Word full, Move& m,
                                                                     Totals& t) {
  const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
  const int y = pl.row;
  if (!lock(o, y, full, m)) return false;
  const int first = pl.column + kPad;  // padded index of the piece's first column
  const __m512i ones = _mm512_set1_epi32(-1);
  const __mmask16 board_lanes = static_cast<__mmask16>(((1u << W()) - 1) << kPad);
  __m512i padded = U::load_aligned(col_);  // (load_base's padded_board(board_))
  const __m512i shape = _mm512_maskz_loadu_epi32(static_cast<__mmask16>((1u << o.width) - 1), o.mask.data());
  const __m512i at = _mm512_sub_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                      _mm512_set1_epi32(first));
  const __mmask16 piece_lanes = static_cast<__mmask16>(((1u << o.width) - 1) << first);
  const __m512i piece = _mm512_sllv_epi32(_mm512_maskz_permutexvar_epi32(piece_lanes, at, shape), _mm512_set1_epi32(y));
  padded = _mm512_or_si512(padded, piece);
  if (full) {
    padded = remove_rows_lanes(U(padded), full);
    padded = _mm512_mask_mov_epi32(ones, board_lanes, padded);  // the walls lost their top bit
  }
  column_pass<false>(t, nullptr, neighbours(U(padded)).data());
  if (t.max > wall_limit(r_.overflow, r_.geometry)) return false;  // t.max: the wall height
  _mm512_storeu_si512(keep(k, m, t).cols.data(),
                      _mm512_maskz_mov_epi32(static_cast<__mmask16>((1u << W()) - 1), _mm512_alignr_epi32(ones, padded, kPad)));
  return true;
}
#endif

#if defined(__AVX2__) && !defined(__AVX512F__)
// Lanes k .. k + 7 of the 16 lanes a, b (0 < k <= 4): a's upper half and b's lower half
// joined, then a byte shift within each half.
template <int K, class U>
U lanes_after(U a, U b) {
  static_assert(K > 0 && K <= 4);
  return U(_mm256_alignr_epi8(_mm256_permute2x128_si256(a, b, 0x21), a, 4 * K));
}

// All ones in the lanes whose padded index first + l is a column of a board of width W.
inline __m256i in_board(int first, int W) {
  const __m256i at = _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(first - kPad));
  return _mm256_andnot_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), at), _mm256_cmpgt_epi32(_mm256_set1_epi32(W), at));
}
// column_pass's input from a padded board in two registers (padded indices 0-7 and 8-15):
// per step, the lanes at padded indices j - 1.., j.. and j + 1.. (j = 1, 9; walls past 15).
template <class U>
std::array<U, 6> neighbours(U lo, U hi) {
  const U ones(~Word{0});
  return {lo, lanes_after<1>(lo, hi), lanes_after<2>(lo, hi), hi, lanes_after<1>(hi, ones), lanes_after<2>(hi, ones)};
}

// load_base with the padded board in two 8-lane registers (padded indices 0-7 and 8-15): its
// column pass reads them and their shifts, and the full-row masks are a prefix and a suffix
// AND across the 16 lanes in registers, not scalar chains through memory after scalar stores
// (the vector loads of the column pass waited for those).
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
void DropPass<A, Narrow, RareOnly, Family, Width>::load_base_in_two_registers(const Board& b, bool features) {
  const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const U ones(~Word{0});
  const __m256i cols0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.cols.data()));      // columns 0-7
  const __m256i cols6 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.cols.data() + 6));  // 6-13
  const U lo_cols(_mm256_permutevar8x32_epi32(cols0, _mm256_sub_epi32(index, _mm256_set1_epi32(kPad))));
  const U lo = xsimd::select(U(in_board(0, W())) != U(0u), lo_cols, ones);
  const U hi = xsimd::select(U(in_board(N, W())) != U(0u), U(cols6), ones);
  lo.store_aligned(col_);
  hi.store_aligned(col_ + N);
  if (features) column_pass<true>(t_, col_, neighbours(lo, hi).data());
  // Prefix AND within each register (lane l: lanes 0 .. l), then across them.
  const auto before = [&](U x, int k) {  // lane l: x[l - k], ones below k
    const __m256i at = _mm256_sub_epi32(index, _mm256_set1_epi32(k));
    const U moved(_mm256_permutevar8x32_epi32(x, at));
    return xsimd::select(U(_mm256_cmpgt_epi32(_mm256_set1_epi32(k), index)) != U(0u), ones, moved);
  };
  const auto after = [&](U x, int k) {  // lane l: x[l + k], ones from 8 - k
    const __m256i at = _mm256_add_epi32(index, _mm256_set1_epi32(k));
    const U moved(_mm256_permutevar8x32_epi32(x, at));
    return xsimd::select(U(_mm256_cmpgt_epi32(at, _mm256_set1_epi32(N - 1))) != U(0u), ones, moved);
  };
  U up_lo = lo, up_hi = hi, down_lo = lo, down_hi = hi;
  for (int k = 1; k < N; k *= 2) {
    up_lo = up_lo & before(up_lo, k);
    up_hi = up_hi & before(up_hi, k);
    down_lo = down_lo & after(down_lo, k);
    down_hi = down_hi & after(down_hi, k);
  }
  const U all_lo(_mm256_permutevar8x32_epi32(up_lo, _mm256_set1_epi32(N - 1)));
  up_hi = up_hi & all_lo;                                                                // lanes 0 .. 8 + l
  down_lo = down_lo & U(_mm256_permutevar8x32_epi32(down_hi, _mm256_setzero_si256()));  // lanes l .. 15
  // left_and_[j]: lanes before j; right_and_[j]: lanes j on.
  const U left_hi =
      xsimd::select(U(_mm256_cmpeq_epi32(index, _mm256_setzero_si256())) != U(0u), all_lo, before(up_hi, 1));
  before(up_lo, 1).store_aligned(left_and_);
  left_hi.store_aligned(left_and_ + N);
  down_lo.store_aligned(right_and_);
  down_hi.store_aligned(right_and_ + N);
  const U all(_mm256_permutevar8x32_epi32(up_hi, _mm256_set1_epi32(N - 1)));
  for (int j = 2 * N; j < kPadded; j += N) {  // (col_ past index 15: load_base's fill)
    all.store_aligned(left_and_ + j);
    ones.store_aligned(right_and_ + j);
  }
}

// rare_score's drop() and column pass with the padded board in two 8-lane registers (AVX2,
// boards up to 12 wide), as rare_in_registers does in one: no copy of the board in memory
// whose scalar stores the column pass's vector loads would wait for.  False if the move ends
// the game.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
bool DropPass<A, Narrow, RareOnly, Family, Width>::rare_in_two_registers(Placement pl, int k, Word full, Move& m,
                                                                         Totals& t) {
  const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
  const int y = pl.row;
  if (!lock(o, y, full, m)) return false;
  const int first = pl.column + kPad;  // padded index of the piece's first column
  const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  // The piece's words in lanes 0-3 (0 past its width), 0 in lanes 4-7.
  const __m256i shape = _mm256_zextsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(o.mask.data())));
  const auto with_piece = [&](U half, int at0) {  // lanes of padded indices at0 ..
    const __m256i at = _mm256_add_epi32(index, _mm256_set1_epi32(at0 - first));  // piece column of each lane
    const __m256i in = _mm256_cmpeq_epi32(_mm256_and_si256(at, _mm256_set1_epi32(~7)), _mm256_setzero_si256());
    const __m256i cells = _mm256_sllv_epi32(_mm256_permutevar8x32_epi32(shape, at), _mm256_set1_epi32(y));
    return half | U(_mm256_and_si256(in, cells));
  };
  U lo = with_piece(U::load_aligned(col_), 0), hi = with_piece(U::load_aligned(col_ + N), N);
  if (full) {  // the walls lose their top bit: all ones again outside the board
    const U ones(~Word{0});
    lo = xsimd::select(U(in_board(0, W())) != U(0u), remove_rows_lanes(lo, full), ones);
    hi = xsimd::select(U(in_board(N, W())) != U(0u), remove_rows_lanes(hi, full), ones);
  }
  column_pass<false>(t, nullptr, neighbours(lo, hi).data());
  if (t.max > wall_limit(r_.overflow, r_.geometry)) return false;  // t.max: the wall height
  // Columns 0-7 and 8-15 (padded indices 2-9 and 10-17), 0 past the board.
  Board& kept = keep(k, m, t);
  (lanes_after<2>(lo, hi) & U(in_board(kPad, W()))).store_unaligned(kept.cols.data());
  (lanes_after<2>(hi, U(~Word{0})) & U(in_board(N + kPad, W()))).store_unaligned(kept.cols.data() + N);
  return true;
}
#endif

}  // namespace
}  // namespace tb
