// The feature kernel once, for any xsimd architecture: lanes run across the boards of a
// block (one u32 lane = one column word of one board), never across the cells of a board.
//
// Include only from a per-architecture translation unit (features_<isa>.cpp), which is
// compiled with that instruction set's flags.  Everything here has internal linkage so that
// no function compiled for AVX-512 can be picked by the linker for the portable build.
// (engine/search/drop_pass/ uses Lanes too.)
//
// Bit-parallel forms (docs/features.md): holes = h - popcount(col); hole_depth =
// popcount(col & (col + 1)) (the filled cells above the lowest empty one); wells and
// wells_fast are weighted popcounts (wells_lanes below), with no walk down the rows.
#pragma once

#include <array>

#include <xsimd/xsimd.hpp>

#include "feature_kernels.h"

#if defined(__SSSE3__) || defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace tb {
namespace {

// Every primitive is forced inline: a call per popcount (GCC kept some out of line in the drop
// scorer's many call sites) costs more than the popcount.
template <class A>
struct Lanes {
  using U = xsimd::batch<std::uint32_t, A>;
  using I = xsimd::batch<std::int32_t, A>;
  static constexpr int N = static_cast<int>(U::size);

  // How this translation unit counts bits at this width.  Native: one AVX-512 instruction
  // (VPOPCNTDQ; with VL for 8 lanes).  Bytes: PSHUFB looks up each nibble's count in a
  // 16-byte table (AVX-512BW, AVX2, SSSE3), which also gives the weighted counts below.
  // Otherwise the portable SWAR forms.
#if defined(__AVX512VPOPCNTDQ__) && defined(__AVX512VL__)
  static constexpr bool kNativePopcnt = N == 16 || N == 8;
#elif defined(__AVX512VPOPCNTDQ__)
  static constexpr bool kNativePopcnt = N == 16;
#else
  static constexpr bool kNativePopcnt = false;
#endif
#if defined(__AVX512BW__)
  static constexpr bool kBytes = N == 16 || N == 8 || N == 4;
#elif defined(__AVX2__)
  static constexpr bool kBytes = N == 8 || N == 4;
#elif defined(__SSSE3__)
  static constexpr bool kBytes = N == 4;
#else
  static constexpr bool kBytes = false;
#endif

  // --- byte-level building blocks (kBytes only) -------------------------------------------

  // The 16 bytes a, b, c, d (little-endian words) in every 128-bit lane: a PSHUFB table.
  [[gnu::always_inline]] static U table16(std::uint32_t a, std::uint32_t b, std::uint32_t c,
                                          std::uint32_t d) {
#if defined(__AVX512F__)
    if constexpr (N == 16) return U(_mm512_set4_epi32(static_cast<int>(d), static_cast<int>(c),
                                                      static_cast<int>(b), static_cast<int>(a)));
#endif
#if defined(__AVX2__)
    if constexpr (N == 8)
      return U(_mm256_setr_epi32(static_cast<int>(a), static_cast<int>(b), static_cast<int>(c),
                                 static_cast<int>(d), static_cast<int>(a), static_cast<int>(b),
                                 static_cast<int>(c), static_cast<int>(d)));
#endif
#if defined(__SSSE3__)
    if constexpr (N == 4)
      return U(_mm_setr_epi32(static_cast<int>(a), static_cast<int>(b), static_cast<int>(c),
                              static_cast<int>(d)));
#endif
    static_assert(kBytes, "table16 is for the byte paths");
    return U(a);
  }
  // The PSHUFB table whose byte n is f(n), n = 0..15 (f a captureless lambda).  The words are
  // computed at compile time: GCC did not fold the loop inside the drop scorer's many inlined
  // calls and built the table at run time for every call.
  template <class F>
  [[gnu::always_inline]] static U nibble_table(F) {
    static constexpr std::array<std::uint32_t, 4> w = [] {
      std::array<std::uint32_t, 4> a{};
      for (int n = 0; n < 16; ++n) a[n / 4] |= static_cast<std::uint32_t>(F{}(n)) << (8 * (n % 4));
      return a;
    }();
    return table16(w[0], w[1], w[2], w[3]);
  }
  // Per byte: table[idx & 15] (every byte of idx must be < 128, which the callers' masks give).
  [[gnu::always_inline]] static U lookup(U table, U idx) {
#if defined(__AVX512BW__)
    if constexpr (N == 16) return U(_mm512_shuffle_epi8(table, idx));
#endif
#if defined(__AVX2__)
    if constexpr (N == 8) return U(_mm256_shuffle_epi8(table, idx));
#endif
#if defined(__SSSE3__)
    if constexpr (N == 4) return U(_mm_shuffle_epi8(table, idx));
#endif
    return table;
  }
  // Per lane: sum over its 4 bytes of x_b * w_b, x unsigned, w signed (each pair of products
  // must fit in an int16, which the callers' bounds give).
  [[gnu::always_inline]] static U dot_bytes(U x, U w) {
#if defined(__AVX512BW__)
    if constexpr (N == 16)
      return U(_mm512_madd_epi16(_mm512_maddubs_epi16(x, w), _mm512_set1_epi16(1)));
#endif
#if defined(__AVX2__)
    if constexpr (N == 8)
      return U(_mm256_madd_epi16(_mm256_maddubs_epi16(x, w), _mm256_set1_epi16(1)));
#endif
#if defined(__SSSE3__)
    if constexpr (N == 4) return U(_mm_madd_epi16(_mm_maddubs_epi16(x, w), _mm_set1_epi16(1)));
#endif
    return x;
  }
  // Sums of per-byte values are added with 32-bit adds: exact while no byte sum passes 255
  // (no carry crosses a byte).
  [[gnu::always_inline]] static U low_nibbles(U x) { return x & U(0x0F0F0F0Fu); }
  [[gnu::always_inline]] static U high_nibbles(U x) { return (x >> 4) & U(0x0F0F0F0Fu); }

  // --- popcount ---------------------------------------------------------------------------

  // A sum of popcounts costs one reduction: part(x) holds x's count spread over the lane (per
  // byte on the byte path, each byte <= 8; the whole count otherwise), parts add exactly while
  // no byte passes 255, so any kMaxParts of them; total() turns such a sum into lane counts.
  static constexpr int kMaxParts = 31;
  [[gnu::always_inline]] static U part(U x) {
    if constexpr (kNativePopcnt) {
      return popcnt(x);
    } else if constexpr (kBytes) {
      const U table = nibble_table([](int n) { return std::popcount(static_cast<unsigned>(n)); });
      return lookup(table, low_nibbles(x)) + lookup(table, high_nibbles(x));
    } else {
      return popcnt(x);
    }
  }
  [[gnu::always_inline]] static U total(U parts) {
    if constexpr (!kNativePopcnt && kBytes) return dot_bytes(parts, U(0x01010101u));
    return parts;
  }

  [[gnu::always_inline]] static U popcnt(U x) {
#if defined(__AVX512VPOPCNTDQ__)
    if constexpr (N == 16) return U(_mm512_popcnt_epi32(x));
#if defined(__AVX512VL__)
    if constexpr (N == 8) return U(_mm256_popcnt_epi32(x));
#endif
#endif
    if constexpr (kBytes) return total(part(x));
    // The reference form (SWAR), for widths with neither.
    x = x - ((x >> 1) & U(0x55555555u));
    x = (x & U(0x33333333u)) + ((x >> 2) & U(0x33333333u));
    x = (x + (x >> 4)) & U(0x0F0F0F0Fu);
    x = x + (x >> 8);
    x = x + (x >> 16);
    return x & U(0x3Fu);
  }

  // --- weighted popcount: sum over the set bits r of x of (r + 1) ---------------------------

  // Accumulated over words like part(): bit r = 8b + 4q + i (byte b, nibble q, bit i) weighs
  // (i) + (1 + 4q + 8b).  `index` sums i per byte (<= 12 a word), `low` / `high` the bits of
  // the low / high nibbles (<= 4 a word), so kMaxWeighted words keep every byte <= 255.
  // Without byte lookups, `index` holds the finished sum (masks and popcounts).
  static constexpr int kMaxWeighted = 21;
  struct Weighted {
    U index = U(0u), low = U(0u), high = U(0u);  // (U{0u} would be an initializer list)
  };
  [[gnu::always_inline]] static void add_weighted(Weighted& acc, U x) {
    if constexpr (kBytes) {
      const U counts = nibble_table([](int n) { return std::popcount(static_cast<unsigned>(n)); });
      const U indices = nibble_table([](int n) {
        return ((n >> 1) & 1) + 2 * ((n >> 2) & 1) + 3 * ((n >> 3) & 1);
      });
      const U lo = low_nibbles(x), hi = high_nibbles(x);
      acc.index = acc.index + lookup(indices, lo) + lookup(indices, hi);
      acc.low = acc.low + lookup(counts, lo);
      acc.high = acc.high + lookup(counts, hi);
    } else {
      // The reference form: r + 1 = 1 + sum of the bits 2^j of r.
      U s = popcnt(x);
      s = s + popcnt(x & U(0xAAAAAAAAu));
      s = s + (popcnt(x & U(0xCCCCCCCCu)) << 1);
      s = s + (popcnt(x & U(0xF0F0F0F0u)) << 2);
      s = s + (popcnt(x & U(0xFF00FF00u)) << 3);
      acc.index = acc.index + s + (popcnt(x & U(0xFFFF0000u)) << 4);
    }
  }
  [[gnu::always_inline]] static U weighted_total(const Weighted& acc) {
    if constexpr (kBytes) {
      // Bytes 0..3 of a lane weigh 1 + 8b (low nibbles) and 5 + 8b (high nibbles).  After
      // kMaxWeighted words, index <= 252 and low, high <= 84 per byte, so every pair of
      // products stays below 4,300 (an int16 for MADDUBS).
      const U w_low(1u | 9u << 8 | 17u << 16 | 25u << 24);
      const U w_high(5u | 13u << 8 | 21u << 16 | 29u << 24);
      return dot_bytes(acc.index, U(0x01010101u)) + dot_bytes(acc.low, w_low) +
             dot_bytes(acc.high, w_high);
    }
    return acc.index;
  }

  // --- heights ------------------------------------------------------------------------------

  // All bits at and below the highest set bit: low_mask(bit_width(x)).
  [[gnu::always_inline]] static U smear(U x) {
    x = x | (x >> 1);
    x = x | (x >> 2);
    x = x | (x >> 4);
    x = x | (x >> 8);
    return x | (x >> 16);
  }

#if defined(__SSE4_1__)
  // 4 lanes without a variable shift per lane (SSE4.1): the lanes shifted by each lane's count
  // (SSE's shifts take one count, and give 0 from 32 on), blended.  In registers: the portable
  // loop below goes through memory, and its scalar stores then wait to be loaded as a vector
  // (GCC 12 compiles it so; the SSE4.2 drop pass ran 2.6x slower than with clang 14).
  template <bool Left>
  [[gnu::always_inline]] static __m128i shift_each(__m128i x, __m128i n) {
    const __m128i zero = _mm_setzero_si128();
    const auto by = [&](__m128i count) {
      if constexpr (Left) return _mm_sll_epi32(x, count);
      else return _mm_srl_epi32(x, count);
    };
    const __m128i r0 = by(_mm_unpacklo_epi32(n, zero));  // (the count is the low 64 bits)
    const __m128i r1 = by(_mm_srli_epi64(n, 32));
    const __m128i r2 = by(_mm_unpackhi_epi32(n, zero));
    const __m128i r3 = by(_mm_srli_si128(n, 12));
    return _mm_blend_epi16(_mm_blend_epi16(r0, r1, 0x0C), _mm_blend_epi16(r2, r3, 0xC0), 0xF0);
  }
#endif

  // x << n per lane, 0 where n >= 32, with the ISA's variable shift (AVX2, AVX-512), SSE4.1's
  // shift_each (4 lanes), or a portable loop.  Not xsimd's operator<<: xsimd 8.1 has no
  // AVX-512 form of it, and its portable form is a C++ shift, undefined at 32.
  [[gnu::always_inline]] static U shl(U x, U n) {
#if defined(__AVX512F__)
    if constexpr (N == 16) return U(_mm512_sllv_epi32(x, n));
#endif
#if defined(__AVX2__)
    if constexpr (N == 8) return U(_mm256_sllv_epi32(x, n));
#endif
#if defined(__SSE4_1__)
    if constexpr (N == 4) return U(shift_each<true>(x, n));
#endif
    alignas(64) std::uint32_t a[N], b[N];
    x.store_aligned(a);
    n.store_aligned(b);
    for (int l = 0; l < N; ++l) a[l] = b[l] < 32 ? a[l] << b[l] : 0u;
    return U::load_aligned(a);
  }

  // x >> n per lane, 0 where n >= 32 (as shl).
  [[gnu::always_inline]] static U shr(U x, U n) {
#if defined(__AVX512F__)
    if constexpr (N == 16) return U(_mm512_srlv_epi32(x, n));
#endif
#if defined(__AVX2__)
    if constexpr (N == 8) return U(_mm256_srlv_epi32(x, n));
#endif
#if defined(__SSE4_1__)
    if constexpr (N == 4) return U(shift_each<false>(x, n));
#endif
    alignas(64) std::uint32_t a[N], b[N];
    x.store_aligned(a);
    n.store_aligned(b);
    for (int l = 0; l < N; ++l) a[l] = b[l] < 32 ? a[l] >> b[l] : 0u;
    return U::load_aligned(a);
  }

  // The rows from n up: ones << n per lane, 0 where n >= 32 (so ~from_row(n) = low_mask(n), one
  // operation shorter than (1 << n) - 1 where it is and-ed in).
  [[gnu::always_inline]] static U from_row(U n) { return shl(U(~0u), n); }

  // low_mask(h) for the column's height h = bit_width(x): a variable shift where the ISA has
  // one per lane (AVX2, AVX-512: a count of 32 gives 0, so the mask is all ones), else smear.
  [[gnu::always_inline]] static U below_top(U x, U h) {
    if constexpr (N >= 8) return shl(U(1u), h) - U(1u);
    return smear(x);
  }

  [[gnu::always_inline]] static U bit_width(U x) {
#if defined(__AVX512CD__)
    if constexpr (N == 16) return U(32u) - U(_mm512_lzcnt_epi32(x));
#if defined(__AVX512VL__)
    if constexpr (N == 8) return U(32u) - U(_mm256_lzcnt_epi32(x));
#endif
#endif
    // Without LZCNT: the exponent of a float.  y = x & ~(x >> 1) keeps the top bit of every
    // run of ones in x, so y has x's highest bit m (bit m+1 of x is clear, or m = 31 and the
    // logical shift brings in 0) and no two adjacent bits.  Hence for m <= 30,
    //   2^m <= y <= 2^m + 2^(m-1) - 1,
    // and both 2^m and 1.5 * 2^m are floats, so cvtepi32_ps(y) rounds (in any rounding mode)
    // to a value in [2^m, 1.5 * 2^m]: exponent field m + 127, and bit_width = field - 126.
    // (Without the isolation, x = 2^25 - 1 would round up to 2^25.)  y = 0 gives +0.0, field
    // 0, and the unsigned saturating subtraction gives 0.  m = 31: y is negative as an int32
    // (the conversion is signed), sign bit set, so (bits >> 23) >= 256 and the result of the
    // subtraction is >= 130; the final min turns exactly that case into 32 (every other case
    // is <= 31).  SUBS_EPU16 works on 16-bit halves: bits >> 23 < 2^9 lives in the low half,
    // and the high half of the constant is 0.
#if defined(__AVX2__)
    if constexpr (N == 8) {
      const __m256i y = _mm256_andnot_si256(_mm256_srli_epi32(x, 1), x);
      const __m256i field = _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(y)), 23);
      return U(_mm256_min_epu32(_mm256_subs_epu16(field, _mm256_set1_epi32(126)),
                                _mm256_set1_epi32(32)));
    }
#endif
#if defined(__SSE4_1__)
    if constexpr (N == 4) {
      const __m128i y = _mm_andnot_si128(_mm_srli_epi32(x, 1), x);
      const __m128i field = _mm_srli_epi32(_mm_castps_si128(_mm_cvtepi32_ps(y)), 23);
      return U(_mm_min_epu32(_mm_subs_epu16(field, _mm_set1_epi32(126)), _mm_set1_epi32(32)));
    }
#endif
    return popcnt(smear(x));
  }

  // Whether every lane of x is 0: one test (xsimd's any(x != 0) compares to a zero vector first).
  [[gnu::always_inline]] static bool none(U x) {
#if defined(__AVX512F__)
    if constexpr (N == 16) return _mm512_test_epi32_mask(x, x) == 0;
#endif
#if defined(__AVX__)
    if constexpr (N == 8) return _mm256_testz_si256(x, x);
#endif
#if defined(__SSE4_1__)
    if constexpr (N == 4) return _mm_testz_si128(x, x);
#endif
    return !xsimd::any(x != U(0u));
  }

  [[gnu::always_inline]] static I as_int(U x) { return xsimd::bitwise_cast<I>(x); }
  [[gnu::always_inline]] static U as_uint(I x) { return xsimd::bitwise_cast<U>(x); }
};

// Row indices need 5 bits (kMaxHeight + 4 <= 32).
constexpr int kRowIndexBits = 5;
// Bit r of kRowBitPlane[j] is bit j of r: the row index, bit-sliced (a table, so that no
// build computes it at run time).
constexpr std::array<Word, kRowIndexBits> kRowBitPlane = [] {
  std::array<Word, kRowIndexBits> planes{};
  for (int j = 0; j < kRowIndexBits; ++j)
    for (int r = 0; r < 32; ++r) planes[j] |= static_cast<Word>((r >> j) & 1) << r;
  return planes;
}();
static_assert(kRowBitPlane[0] == 0xAAAAAAAAu && kRowBitPlane[4] == 0xFFFF0000u);

// The well cells' share of wells and wells_fast, by run bottoms (kWells, kFast: which).
// Adds, over the columns `which[0 .. n-1]`, for each cell of cells[c] (well cells of column c),
// r + 1 - a to `wells`, and for each empty cell with a cell of cells[c] above it in its run,
// r + 1 - a to `fast`; a is the cell's run bottom, which must be < 2^kPlanes.
//
// A well cell at row r adds r + 1 - a, where a is the bottom row of its empty run (the row
// above the first filled cell below it, or the floor, 0).  Summed over the well cells:
//   wells = sum (r + 1)  -  sum a  =  weighted(well cells)  -  sum_j 2^j |well cells & A_j|
// where A_j holds the empty cells whose run bottom has bit j set.  A_j needs no loop over the
// runs: with B = the run bottoms (empty cells with a filled cell or the floor below), adding
// B & kRowBitPlane[j] to E = ~col carries through exactly the runs whose bottom has bit j,
// clearing them, so A_j = E & ~(E + (B & kRowBitPlane[j])).  (The run above the column top
// ends at bit 31; its carry leaves the word.)
//
// wells_fast adds k(k + 1)/2 per empty run that holds a well cell, k = the run's cells from its
// bottom a up to its topmost well cell: the same weighting, r + 1 - a, summed over those cells
// instead, which are the empty cells with a well cell above them in their run (the well cells
// smeared down through the empty cells, by doubling steps).
template <class A, bool kWells, bool kFast, int kPlanes>
void wells_by_run_bottom(const typename Lanes<A>::U* col, const typename Lanes<A>::U* cells,
                         const int* which, int n, typename Lanes<A>::U& wells,
                         typename Lanes<A>::U& fast) {
  using L = Lanes<A>;
  using U = typename L::U;
  static_assert(kPlanes <= kRowIndexBits);
  const U zero(0u);
  U plane[kPlanes];
  for (int j = 0; j < kPlanes; ++j) plane[j] = U(kRowBitPlane[j]);
  typename L::Weighted wells_weight, fast_weight;
  U wells_bottom[kPlanes], fast_bottom[kPlanes];  // parts of |cells & A_j|
  for (int j = 0; j < kPlanes; ++j) wells_bottom[j] = fast_bottom[j] = zero;
  for (int i = 0; i < n; ++i) {
    const int c = which[i];
    const U empty = ~col[c];
    // Bit 0 of every plane is 0 (a run bottom at the floor adds 0), so B & plane needs no
    // floor bit: ~col & (col << 1) & plane.
    const U filled_below = col[c] << 1;
    U smeared = zero;
    if constexpr (kFast) {
      // Doubling: after the step of shift s, `smeared` holds each empty cell within 2s rows
      // below a cell of its run; `open` the cells with the next s rows (itself included) empty.
      smeared = cells[c];
      U open = empty;
      for (int s = 1; s < 32; s *= 2) {
        smeared = smeared | ((smeared >> s) & open);
        open = open & (open >> s);
      }
      L::add_weighted(fast_weight, smeared);
    }
    if constexpr (kWells) L::add_weighted(wells_weight, cells[c]);
    for (int j = 0; j < kPlanes; ++j) {
      const U not_in_a = empty + (empty & filled_below & plane[j]);  // A_j cleared
      if constexpr (kWells) wells_bottom[j] = wells_bottom[j] + L::part(cells[c] & ~not_in_a);
      if constexpr (kFast) fast_bottom[j] = fast_bottom[j] + L::part(smeared & ~not_in_a);
    }
  }
  auto bottoms = [&](const U (&parts)[kPlanes]) {  // sum of 2^j |cells & A_j|, by Horner
    U sum = zero;
    for (int j = kPlanes - 1; j >= 0; --j) sum = sum + sum + L::total(parts[j]);
    return sum;
  };
  if constexpr (kWells) wells = wells + L::weighted_total(wells_weight) - bottoms(wells_bottom);
  if constexpr (kFast) fast = fast + L::weighted_total(fast_weight) - bottoms(fast_bottom);
}

// wells_by_run_bottom with the bits of the run bottoms known at run time: `rows` is the OR
// of the cells (over the columns and lanes), and a cell's run bottom is at or below it, so
// bit_width(highest row) bits hold every run bottom.
template <class A, bool kWells, bool kFast>
void wells_by_run_bottom_for(typename Lanes<A>::U rows, const typename Lanes<A>::U* col,
                             const typename Lanes<A>::U* cells, const int* which, int n,
                             typename Lanes<A>::U& wells, typename Lanes<A>::U& fast) {
  constexpr int N = Lanes<A>::N;
  alignas(64) std::uint32_t lane[N];
  rows.store_aligned(lane);
  std::uint32_t any_row = 0;
  for (int l = 0; l < N; ++l) any_row |= lane[l];
  const int top_row = std::bit_width(any_row) - 1;  // n >= 1 columns with cells: any_row != 0
  const int planes = std::bit_width(static_cast<unsigned>(top_row));
  if (planes <= 3)
    return wells_by_run_bottom<A, kWells, kFast, 3>(col, cells, which, n, wells, fast);
  if (planes == 4)
    return wells_by_run_bottom<A, kWells, kFast, 4>(col, cells, which, n, wells, fast);
  wells_by_run_bottom<A, kWells, kFast, kRowIndexBits>(col, cells, which, n, wells, fast);
}

// wells and wells_fast of N boards (kWells, kFast: which).  `h` holds the column heights when
// N >= 8.
//
// The run above a column's top starts at h, so with variable shifts (N >= 8) its well cells
// are well_cells >> h from bit 0 on, and their shares need no run bottoms:
//   wells += weighted(well_cells >> h),   wells_fast += k(k + 1)/2, k = bit_width(well_cells >> h).
// The well cells below the top (covered: in holes) go by run bottoms, and only in the columns
// where some lane has one: a loop over those columns, with the width of the run bottoms
// picked at run time (in greedy BCTS 10x20 play, 4 passes in 5 have such a column, 1.9 columns
// on average, and 3 bits hold their run bottoms 99 times in 100).  When more than half the
// columns have one (messy boards, as in the corpora of bench/data), every well cell goes by
// run bottoms instead, all columns alike; so it does without variable shifts.  These are the
// only branches on the data, one or two a pass.
//
// This replaced a walk that moved well-cell markers down one row per step while any lane had
// one left: branches on the data in every column, which mispredicted on fresh boards.
// (features_reference.cpp keeps the definitions' walks.)
template <class A, bool kWells, bool kFast>
void wells_lanes(const typename Lanes<A>::U* col, const typename Lanes<A>::U* h, int W,
                 typename Lanes<A>::U rows, typename Lanes<A>::U& wells,
                 typename Lanes<A>::U& fast) {
  using L = Lanes<A>;
  using U = typename L::U;
  constexpr int N = L::N;
  const U zero(0u), ones(~0u);
  U well_cells[kMaxWidth];
  int which[kMaxWidth];
  for (int c = 0; c < W; ++c) {
    const U left = c == 0 ? ones : col[c - 1];
    const U right = c == W - 1 ? ones : col[c + 1];
    well_cells[c] = left & right & ~col[c] & rows;
  }
  wells = fast = zero;
  if constexpr (N >= 8) {
    U covered[kMaxWidth], covered_rows = zero;  // OR of the covered cells
    int n = 0;
    for (int c = 0; c < W; ++c) {
      covered[c] = well_cells[c] & L::below_top(col[c], h[c]);
      covered_rows = covered_rows | covered[c];
      which[n] = c;  // kept when some lane has a covered cell (no branch)
      n += !L::none(covered[c]);
    }
    if (2 * n > W) {  // many such columns
      for (int c = 0; c < W; ++c) which[c] = c;
      return wells_by_run_bottom<A, kWells, kFast, kRowIndexBits>(col, well_cells, which, W,
                                                                  wells, fast);
    }
    typename L::Weighted weight;
    U triangles = zero;  // sum of k(k + 1)
    for (int c = 0; c < W; ++c) {
      const U open = L::shr(well_cells[c], h[c]);  // (a count of 32 gives 0)
      if constexpr (kWells) L::add_weighted(weight, open);
      if constexpr (kFast) {
        const U k = L::bit_width(open);
        triangles = triangles + k * (k + U(1u));
      }
    }
    if constexpr (kWells) wells = L::weighted_total(weight);
    if constexpr (kFast) fast = triangles >> 1;
    if (n == 0) return;
    return wells_by_run_bottom_for<A, kWells, kFast>(covered_rows, col, covered, which, n, wells,
                                                     fast);
  }
  for (int c = 0; c < W; ++c) which[c] = c;
  wells_by_run_bottom<A, kWells, kFast, kRowIndexBits>(col, well_cells, which, W, wells, fast);
}

// Computes the requested groups for N boards.  `rem` < N only for the tail of a block: then
// `cols` is a zero-padded copy and only `rem` lanes are written to `out`.
template <class A>
void board_lanes(const Word* cols, int stride, int width, int height, std::uint32_t groups,
                 std::int32_t* out, int out_stride, int rem) {
  using L = Lanes<A>;
  using U = typename L::U;
  using I = typename L::I;
  constexpr int N = L::N;
  static_assert(kMaxWidth + 1 <= L::kMaxParts && kMaxWidth <= L::kMaxWeighted);
  auto put = [&](int slot, U v) {
    std::int32_t* dst = out + slot * out_stride;
    if (rem == N) {
      L::as_int(v).store_unaligned(dst);
    } else {
      alignas(64) std::int32_t tmp[N];
      L::as_int(v).store_aligned(tmp);
      for (int j = 0; j < rem; ++j) dst[j] = tmp[j];
    }
  };
  const int W = width;
  const U rows(height >= 32 ? ~0u : (1u << height) - 1u);  // no shared inline code here
  const U zero(0u), ones(~0u);
  constexpr std::uint32_t kHeightGroups = G_HOLES | G_COL_HOLES | G_ROWS_WITH_HOLES | G_MAX_HEIGHT |
                                          G_AGG_HEIGHT | G_HEIGHTS | G_BUMPINESS | G_DIFFS |
                                          G_DIVERSITY | G_COL_WELLS;
  U col[kMaxWidth], h[kMaxWidth];
  for (int c = 0; c < W; ++c) {
    col[c] = U::load_unaligned(cols + c * stride);
    if ((groups & kHeightGroups) || (N >= 8 && (groups & (G_WELLS | G_WELLS_FAST))))
      h[c] = L::bit_width(col[c]);
  }

  // Sums of popcounts add parts and reduce once (Lanes::part).
  if (groups & G_ROW_TRANSITIONS) {
    U t = L::part(~col[0] & rows) + L::part(~col[W - 1] & rows);
    for (int c = 0; c + 1 < W; ++c) t = t + L::part((col[c] ^ col[c + 1]) & rows);
    put(SLOT_ROW_TRANSITIONS, L::total(t));
  }
  if (groups & G_COL_TRANSITIONS) {
    U t = zero;
    for (int c = 0; c < W; ++c) t = t + L::part(col[c] ^ ((col[c] << 1) | U(1u)));
    put(SLOT_COL_TRANSITIONS, L::total(t));
  }
  if (groups & G_COL_HOLES) {
    U holes = zero;
    for (int c = 0; c < W; ++c) {
      const U col_holes = h[c] - L::popcnt(col[c]);
      holes = holes + col_holes;
      put(SLOT_COL_HOLES + c, col_holes);
    }
    put(SLOT_HOLES, holes);
  } else if (groups & G_HOLES) {
    U heights = zero, filled = zero;
    for (int c = 0; c < W; ++c) {
      heights = heights + h[c];
      filled = filled + L::part(col[c]);
    }
    put(SLOT_HOLES, heights - L::total(filled));
  }
  if (groups & G_ROWS_WITH_HOLES) {
    U any_hole_row = zero;
    for (int c = 0; c < W; ++c)
      any_hole_row = any_hole_row | (L::below_top(col[c], h[c]) & ~col[c]);
    put(SLOT_ROWS_WITH_HOLES, L::popcnt(any_hole_row));
  }
  if (groups & G_HOLE_DEPTH) {
    // col & (col + 1) clears the unbroken run of filled cells from the floor: what is left
    // are the filled cells above the lowest empty cell, which is then a hole.
    U depth = zero;
    for (int c = 0; c < W; ++c) depth = depth + L::part(col[c] & (col[c] + U(1u)));
    put(SLOT_HOLE_DEPTH, L::total(depth));
  }
  if (groups & (G_WELLS | G_WELLS_FAST)) {
    U wells = zero, fast = zero;
    if (!(groups & G_WELLS_FAST))
      wells_lanes<A, true, false>(col, h, W, rows, wells, fast);
    else if (!(groups & G_WELLS))
      wells_lanes<A, false, true>(col, h, W, rows, wells, fast);
    else
      wells_lanes<A, true, true>(col, h, W, rows, wells, fast);
    if (groups & G_WELLS) put(SLOT_WELLS, wells);
    if (groups & G_WELLS_FAST) put(SLOT_WELLS_FAST, fast);
  }
  if (groups & (G_MAX_HEIGHT | G_AGG_HEIGHT | G_HEIGHTS)) {
    U mx = zero, sum = zero;
    for (int c = 0; c < W; ++c) {
      mx = xsimd::max(mx, h[c]);
      sum = sum + h[c];
      if (groups & G_HEIGHTS) put(SLOT_HEIGHT + c, h[c]);
    }
    put(SLOT_MAX_HEIGHT, mx);
    put(SLOT_AGG_HEIGHT, sum);
  }
  if (groups & (G_BUMPINESS | G_DIFFS | G_DIVERSITY)) {
    U bump = zero, seen = zero;
    for (int c = 0; c + 1 < W; ++c) {
      const I d = L::as_int(h[c + 1]) - L::as_int(h[c]);
      const U ad = L::as_uint(xsimd::abs(d));
      bump = bump + ad;
      if (groups & G_DIFFS) put(SLOT_DIFF + c, ad);
      // Bit d+2 for d in [-2, 2]; anything else lands on bit 5, dropped below.
      const U idx = xsimd::min(L::as_uint(d + I(2)), U(5u));
      seen = seen | L::shl(U(1u), idx);
    }
    put(SLOT_BUMPINESS, bump);
    put(SLOT_DIVERSITY, L::popcnt(seen & U(0x1Fu)));
  }
  if (groups & G_COL_WELLS) {
    for (int c = 0; c < W; ++c) {
      const I lh = L::as_int(c == 0 ? h[1] : h[c - 1]);
      const I rh = L::as_int(c == W - 1 ? h[W - 2] : h[c + 1]);
      put(SLOT_COL_WELLS + c, L::as_uint(xsimd::max(xsimd::min(lh, rh) - L::as_int(h[c]), I(0))));
    }
  }
  if (groups & G_ROW_FILL) {
    U plane[5] = {zero, zero, zero, zero, zero};  // bit-sliced per-row fill counters
    for (int c = 0; c < W; ++c) {
      U carry = col[c];
      for (int j = 0; j < 5; ++j) {
        const U next = plane[j] & carry;
        plane[j] = plane[j] ^ carry;
        carry = next;
      }
    }
    static_assert(kRowFillBuckets == 5, "the buckets below are written out one by one");
    const U big = plane[3] | plane[4];  // fill >= 8
    const U lt8 = ~big & rows;
    put(SLOT_ROW_FILL + 0, L::popcnt(lt8 & ~plane[1] & ~plane[2]));
    put(SLOT_ROW_FILL + 1, L::popcnt(lt8 & plane[1] & ~plane[2]));
    put(SLOT_ROW_FILL + 2, L::popcnt(lt8 & ~plane[1] & plane[2]));
    put(SLOT_ROW_FILL + 3, L::popcnt(lt8 & plane[1] & plane[2]));
    put(SLOT_ROW_FILL + 4, L::popcnt(big & rows));
  }
}

// Test hook (tests/test_features.cpp, through features_<isa>.cpp): the lane primitives of A
// on n words, any values (walls, rows >= H), kLanesProbeResults results a word: popcnt,
// bit_width, below_top(x, bit_width(x)), the total of kMaxParts parts of x (kMaxParts *
// popcount), the weighted total of kMaxWeighted additions of x (kMaxWeighted * sum of r + 1),
// and shl and shr of x by lanes_probe_count(i) for word i (0 .. 40: every lane sees counts of
// 32 and more).
constexpr int kLanesProbeResults = 7;
constexpr Word lanes_probe_count(int i) { return static_cast<Word>(i % 41); }
template <class A>
void lanes_probe(const Word* words, int n, std::uint32_t* out) {
  using L = Lanes<A>;
  using U = typename L::U;
  constexpr int N = L::N;
  for (int i = 0; i < n; i += N) {
    alignas(64) Word in[N] = {};
    for (int j = 0; j < N && i + j < n; ++j) in[j] = words[i + j];
    const U x = U::load_aligned(in);
    U parts(0u);
    for (int t = 0; t < L::kMaxParts; ++t) parts = parts + L::part(x);
    typename L::Weighted weighted;
    for (int t = 0; t < L::kMaxWeighted; ++t) L::add_weighted(weighted, x);
    const U h = L::bit_width(x);
    alignas(64) Word count[N];
    for (int j = 0; j < N; ++j) count[j] = lanes_probe_count(i + j);
    const U by = U::load_aligned(count);
    const U results[kLanesProbeResults] = {L::popcnt(x),          h,           L::below_top(x, h),
                                           L::total(parts),       L::weighted_total(weighted),
                                           L::shl(x, by),         L::shr(x, by)};
    for (int r = 0; r < kLanesProbeResults; ++r) {
      alignas(64) Word lanes[N];
      results[r].store_aligned(lanes);
      for (int j = 0; j < N && i + j < n; ++j) out[kLanesProbeResults * (i + j) + r] = lanes[j];
    }
  }
}

// Full vectors of A, then of the narrower Narrow (e.g. AVX2 inside the AVX-512 kernel, so a
// block of 24 boards costs 16 + 8 lanes, not 32), then a zero-padded tail of Narrow.
// (Measured on AMD Zen 4, greedy BCTS 10x20 blocks: one masked 16-lane AVX-512 vector for the
// last 8 boards instead of the AVX2 one made the kernel 15% slower.)
template <class A, class Narrow = A>
void features_simd(const BoardBlock& b, std::uint32_t groups, std::int32_t* out) {
  constexpr int N = Lanes<A>::N, M = Lanes<Narrow>::N;
  int k = 0;
  for (; k + N <= b.count; k += N)
    board_lanes<A>(b.cols + k, b.stride, b.width, b.height, groups, out + k, b.stride, N);
  if constexpr (M < N)
    for (; k + M <= b.count; k += M)
      board_lanes<Narrow>(b.cols + k, b.stride, b.width, b.height, groups, out + k, b.stride, M);
  if (k == b.count) return;
  alignas(64) Word padded[kMaxWidth * M] = {};  // (kMaxWidth, M), empty boards past the tail
  for (int c = 0; c < b.width; ++c)
    for (int j = k; j < b.count; ++j) padded[c * M + (j - k)] = b.cols[c * b.stride + j];
  board_lanes<Narrow>(padded, M, b.width, b.height, groups, out + k, b.stride, b.count - k);
}

}  // namespace
}  // namespace tb
