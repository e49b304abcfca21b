// The feature kernel once, for any xsimd architecture: lanes run across the boards of a
// block (one u32 lane = one column word of one board), never across the cells of a board.
//
// Include only from a per-architecture translation unit (features_<isa>.cpp), which is
// compiled with that instruction set's flags.  Everything here has internal linkage so that
// no function compiled for AVX-512 can be picked by the linker for the portable build.
//
// Bit-parallel forms (docs/features.md): holes = h - popcount(col); hole_depth =
// popcount(col) - (trailing ones of col); wells propagate well-cell markers down through
// empty cells one row per step, adding the live markers each step.
#pragma once

#include <xsimd/xsimd.hpp>

#include "feature_kernels.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace tb {
namespace {

template <class A>
struct Lanes {
  using U = xsimd::batch<std::uint32_t, A>;
  using I = xsimd::batch<std::int32_t, A>;
  static constexpr int N = static_cast<int>(U::size);

  static U popcnt(U x) {
#if defined(__AVX512VPOPCNTDQ__)
    if constexpr (N == 16) return U(_mm512_popcnt_epi32(x));
#if defined(__AVX512VL__)
    if constexpr (N == 8) return U(_mm256_popcnt_epi32(x));
#endif
#endif
    x = x - ((x >> 1) & U(0x55555555u));
    x = (x & U(0x33333333u)) + ((x >> 2) & U(0x33333333u));
    x = (x + (x >> 4)) & U(0x0F0F0F0Fu);
    x = x + (x >> 8);
    x = x + (x >> 16);
    return x & U(0x3Fu);
  }

  // All bits at and below the highest set bit: low_mask(bit_width(x)).
  static U smear(U x) {
    x = x | (x >> 1);
    x = x | (x >> 2);
    x = x | (x >> 4);
    x = x | (x >> 8);
    return x | (x >> 16);
  }

  // low_mask(h) for the column's height h = bit_width(x): a variable shift where the ISA has
  // one per lane (AVX2, AVX-512: a count of 32 gives 0, so the mask is all ones), else smear.
  static U below_top(U x, U h) {
    if constexpr (N >= 8) return (U(1u) << h) - U(1u);
    return smear(x);
  }

  static U bit_width(U x) {
#if defined(__AVX512CD__)
    if constexpr (N == 16) return U(32u) - U(_mm512_lzcnt_epi32(x));
#if defined(__AVX512VL__)
    if constexpr (N == 8) return U(32u) - U(_mm256_lzcnt_epi32(x));
#endif
#endif
    return popcnt(smear(x));
  }

  static I as_int(U x) { return xsimd::bitwise_cast<I>(x); }
  static U as_uint(I x) { return xsimd::bitwise_cast<U>(x); }
};

// Computes the requested groups for N boards.  `rem` < N only for the tail of a block: then
// `cols` is a zero-padded copy and only `rem` lanes are written to `out`.
template <class A>
void board_lanes(const Word* cols, int stride, int width, int height, std::uint32_t groups,
                 std::int32_t* out, int out_stride, int rem) {
  using L = Lanes<A>;
  using U = typename L::U;
  using I = typename L::I;
  constexpr int N = L::N;
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
  U col[kMaxWidth], h[kMaxWidth];
  for (int c = 0; c < W; ++c) {
    col[c] = U::load_unaligned(cols + c * stride);
    h[c] = L::bit_width(col[c]);
  }

  if (groups & G_ROW_TRANSITIONS) {
    U t = L::popcnt(~col[0] & rows) + L::popcnt(~col[W - 1] & rows);
    for (int c = 0; c + 1 < W; ++c) t = t + L::popcnt((col[c] ^ col[c + 1]) & rows);
    put(SLOT_ROW_TRANSITIONS, t);
  }
  if (groups & G_COL_TRANSITIONS) {
    U t = zero;
    for (int c = 0; c < W; ++c) t = t + L::popcnt(col[c] ^ ((col[c] << 1) | U(1u)));
    put(SLOT_COL_TRANSITIONS, t);
  }
  U filled[kMaxWidth];  // cells per column, shared by holes and hole depth
  if (groups & (G_HOLES | G_COL_HOLES | G_HOLE_DEPTH))
    for (int c = 0; c < W; ++c) filled[c] = L::popcnt(col[c]);
  if (groups & (G_HOLES | G_COL_HOLES)) {
    U holes = zero;
    for (int c = 0; c < W; ++c) {
      const U col_holes = h[c] - filled[c];
      holes = holes + col_holes;
      if (groups & G_COL_HOLES) put(SLOT_COL_HOLES + c, col_holes);
    }
    put(SLOT_HOLES, holes);
  }
  if (groups & G_ROWS_WITH_HOLES) {
    U any_hole_row = zero;
    for (int c = 0; c < W; ++c) any_hole_row = any_hole_row | (L::below_top(col[c], h[c]) & ~col[c]);
    put(SLOT_ROWS_WITH_HOLES, L::popcnt(any_hole_row));
  }
  if (groups & G_HOLE_DEPTH) {
    U depth = zero;  // filled cells minus the unbroken run from the floor
    for (int c = 0; c < W; ++c) depth = depth + filled[c] - L::popcnt(col[c] & ~(col[c] + U(1u)));
    put(SLOT_HOLE_DEPTH, depth);
  }
  if (groups & (G_WELLS | G_WELLS_FAST)) {
    const bool want_fast = groups & G_WELLS_FAST;
    U wells = zero, fast = zero;
    for (int c = 0; c < W; ++c) {
      const U left = c == 0 ? ones : col[c - 1];
      const U right = c == W - 1 ? ones : col[c + 1];
      const U empty = ~col[c];
      const U well_cells = left & right & empty & rows;
      if (!xsimd::any(well_cells != zero)) continue;
      // Each marker walks down its empty run; a well cell adds 1 per cell it reaches.
      U marker = well_cells, below_a_well = zero;
      while (xsimd::any(marker != zero)) {
        wells = wells + L::popcnt(marker);
        marker = (marker >> 1) & empty;
        below_a_well = below_a_well | marker;
      }
      if (!want_fast) continue;
      // wells_fast: only the topmost well cell of each run walks, adding 1, 2, ..., k.
      U top = well_cells & ~below_a_well, step(1u);
      while (xsimd::any(top != zero)) {
        fast = fast + L::popcnt(top) * step;
        top = (top >> 1) & empty;
        step = step + U(1u);
      }
    }
    put(SLOT_WELLS, wells);
    if (want_fast) put(SLOT_WELLS_FAST, fast);
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
      seen = seen | (U(1u) << idx);
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

// Full vectors of A, then of the narrower Narrow (e.g. AVX2 inside the AVX-512 kernel, so a
// block of 24 boards costs 16 + 8 lanes, not 32), then a zero-padded tail of Narrow.
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
