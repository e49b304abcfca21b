// The drop pass's instruction-set primitives (drop_pass/pass.h): the few operations whose best
// form differs between SSE4.2, AVX2 and AVX-512, each behind one name, so that the jobs' code
// is written once.  xsimd covers the rest (kernels/features_simd.h, Lanes).  What a 16-lane
// AVX-512 or two 8-lane AVX2 registers do with a whole board is in drop_pass/registers.h.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "drop_scorer.h"
#include "features_simd.h"
#include "shapes.h"

namespace tb {
namespace {

// The instruction sets of this translation unit (its per-file flags), for `if constexpr`.
#if defined(__AVX512F__)
constexpr bool kAvx512 = true;
#else
constexpr bool kAvx512 = false;
#endif
#if defined(__AVX2__)
constexpr bool kAvx2 = true;
#else
constexpr bool kAvx2 = false;
#endif

// Sum, OR and signed maximum of the lanes (xsimd::hadd warns inside GCC 12's AVX-512
// headers): by halves in registers where the lanes fit 128-bit halves, else through memory.
enum class Fold { add, bit_or, max };
template <Fold F, class VU>
Word lane_fold(VU v) {
  constexpr int N = static_cast<int>(VU::size);
#if defined(__SSE4_1__)
  if constexpr (N == 4 || N == 8) {
    const auto op = [](__m128i a, __m128i b) {
      if constexpr (F == Fold::add) return _mm_add_epi32(a, b);
      else if constexpr (F == Fold::bit_or) return _mm_or_si128(a, b);
      else return _mm_max_epi32(a, b);
    };
    __m128i x;
#if defined(__AVX2__)
    if constexpr (N == 8) x = op(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    else
#endif
      x = v;
    x = op(x, _mm_shuffle_epi32(x, 0x4E));
    x = op(x, _mm_shuffle_epi32(x, 0xB1));
    return static_cast<Word>(_mm_cvtsi128_si32(x));
  }
#endif
  alignas(64) Word a[N];
  v.store_aligned(a);
  Word s = F == Fold::max ? Word{0x80000000u} : Word{0};
  for (int l = 0; l < N; ++l) {
    if constexpr (F == Fold::add) s += a[l];
    else if constexpr (F == Fold::bit_or) s |= a[l];
    else s = static_cast<Word>(std::max(static_cast<std::int32_t>(s), static_cast<std::int32_t>(a[l])));
  }
  return s;
}
template <class VU>
Word lane_sum(VU v) {
  return lane_fold<Fold::add>(v);
}

// Bit l set where lane l of `b` holds (32-bit integer or double lanes).
template <class T, class Arch>
std::uint64_t lane_bits(xsimd::batch_bool<T, Arch> b) {
  using R = typename xsimd::batch_bool<T, Arch>::register_type;
  const R r = b;
  if constexpr (sizeof(R) <= 8) {
    return static_cast<std::uint64_t>(r);  // AVX-512: a mask register
#if defined(__AVX__)
  } else if constexpr (sizeof(R) == 32 && sizeof(T) == 8) {
    return static_cast<unsigned>(_mm256_movemask_pd(r));
  } else if constexpr (sizeof(R) == 32) {
    return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(r)));
#endif
  } else if constexpr (sizeof(T) == 8) {
    return static_cast<unsigned>(_mm_movemask_pd(r));
  } else {
    return static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(r)));
  }
}

// All ones where `b` holds, else 0.
template <class Arch>
xsimd::batch<std::int32_t, Arch> ones_where(xsimd::batch_bool<std::int32_t, Arch> b) {
  using VI = xsimd::batch<std::int32_t, Arch>;
  return xsimd::select(b, VI(-1), VI(0));
}

// A row's load of a base array at p: V's lanes, or with Pair (AVX-512 pair rows) 8 lanes in
// both halves (the two orientations' candidates are at the same columns).
template <class V, bool Pair, class T>
xsimd::batch<T, typename V::U::arch_type> row_load(const T* p) {
  using B = xsimd::batch<T, typename V::U::arch_type>;
#if defined(__AVX512F__)
  if constexpr (Pair) return B(_mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
#endif
  return B::load_unaligned(p);
}

// A row's store of its lanes' values, per candidate: lane l at a[k + x0 + l], or with Pair
// lanes 0-7 at a[k ..] and lanes 8-15 at later[0 ..] (finish_pair moves them).
template <bool Pair, class VI>
void store_row(std::int32_t* a, [[maybe_unused]] std::int32_t* later, int k, int x0, VI v) {
#if defined(__AVX512F__)
  if constexpr (Pair) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + k), _mm512_castsi512_si256(v));
    _mm256_store_si256(reinterpret_cast<__m256i*>(later), _mm512_extracti64x4_epi64(v, 1));
    return;
  }
#endif
  v.store_unaligned(a + k + x0);
}

#if defined(__AVX__)
// With integral weights (DropRating::integral): lanes 0 .. 8 G - 1 of the terms' vals rows,
// each the sum over terms of integer weight x value in int32 (exact: below 2^30 on the rows'
// candidates; lanes past them may wrap, and are never taken as ratings).  Times r.unit, each
// is the double the float terms' loop (TermSums) gives.
template <int G, std::size_t R>
void integer_sums(const DropRating& r, const std::int32_t (&vals)[VALUE_SLOT_NB][R], __m256i (&sum)[G]) {
  for (int g = 0; g < G; ++g) sum[g] = _mm256_setzero_si256();
#pragma GCC unroll 2
  for (int t = 0; t < r.term_count; ++t) {
    const __m256i m = _mm256_set1_epi32(r.integer_weight[t]);
    const std::int32_t* v = vals[r.terms[t].slot];
    for (int g = 0; g < G; ++g)
      sum[g] = _mm256_add_epi32(sum[g], _mm256_mullo_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(v + 8 * g)), m));
  }
}
#endif

// The running best of a pass's scored candidates (the first highest rating), kept per lane in
// registers as each orientation is rated: the pass folds its sums in while they are in
// registers (an argmax pass afterwards reloaded them across the stores that wrote them, which
// cannot forward, and its search for the index mispredicted once a decision).  Lane l keeps
// its highest rating and the first candidate that had it; best() takes the lowest candidate
// among the lanes with the highest.  Without AVX there is none (kVector false): the pass's
// argmax finds the best.
#if defined(__AVX__)
struct BestLanes {
#if defined(__AVX512F__)
  using Row = __m512d;
#else
  using Row = __m256d;
#endif
  static constexpr bool kVector = true;
  static constexpr int kLanes = sizeof(Row) / sizeof(double);
  Row score, index;

  void clear() {
#if defined(__AVX512F__)
    score = _mm512_set1_pd(-std::numeric_limits<double>::infinity());
    index = _mm512_setzero_pd();
#else
    score = _mm256_set1_pd(-std::numeric_limits<double>::infinity());
    index = _mm256_setzero_pd();
#endif
  }

  // One orientation's ratings, candidates k0 .. k0 + n - 1 in lanes 0 .. n - 1 of v[0], v[1],
  // ... (kLanes a vector): their best first, then the pass's.
  template <int G>
  void fold(Row (&v)[G], int k0, int n) {
    constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
    const int last = n - kLanes * (G - 1);  // lanes of v[G - 1] in the row: 1 .. kLanes
#if defined(__AVX512F__)
    const __m512d lane = _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512d first = _mm512_add_pd(_mm512_set1_pd(k0), lane);
    v[G - 1] = _mm512_mask_mov_pd(_mm512_set1_pd(kMinusInf), static_cast<__mmask8>((1u << last) - 1), v[G - 1]);
    __m512d top = v[0], at = first;
    for (int g = 1; g < G; ++g) {
      const __mmask8 above = _mm512_cmp_pd_mask(v[g], top, _CMP_GT_OQ);
      top = _mm512_mask_mov_pd(top, above, v[g]);
      at = _mm512_mask_mov_pd(at, above, _mm512_add_pd(first, _mm512_set1_pd(kLanes * g)));
    }
    const __mmask8 above = _mm512_cmp_pd_mask(top, score, _CMP_GT_OQ);
    score = _mm512_mask_mov_pd(score, above, top);
    index = _mm512_mask_mov_pd(index, above, at);
#else
    const __m256d lane = _mm256_setr_pd(0, 1, 2, 3);
    const __m256d first = _mm256_add_pd(_mm256_set1_pd(k0), lane);
    v[G - 1] = _mm256_blendv_pd(_mm256_set1_pd(kMinusInf), v[G - 1], _mm256_cmp_pd(lane, _mm256_set1_pd(last), _CMP_LT_OQ));
    __m256d top = v[0], at = first;
    for (int g = 1; g < G; ++g) {
      const __m256d above = _mm256_cmp_pd(v[g], top, _CMP_GT_OQ);
      top = _mm256_blendv_pd(top, v[g], above);
      at = _mm256_blendv_pd(at, _mm256_add_pd(first, _mm256_set1_pd(kLanes * g)), above);
    }
    const __m256d above = _mm256_cmp_pd(top, score, _CMP_GT_OQ);
    score = _mm256_blendv_pd(score, top, above);
    index = _mm256_blendv_pd(index, at, above);
#endif
  }

  int best() const {
#if defined(__AVX512F__)
    const double top = _mm512_reduce_max_pd(score);
    const __mmask8 at_top = _mm512_cmp_pd_mask(score, _mm512_set1_pd(top), _CMP_EQ_OQ);
    return static_cast<int>(_mm512_mask_reduce_min_pd(at_top, index));
#else
    __m256d top = _mm256_max_pd(score, _mm256_permute2f128_pd(score, score, 1));
    top = _mm256_max_pd(top, _mm256_permute_pd(top, 0b0101));
    const __m256d at_top = _mm256_cmp_pd(score, top, _CMP_EQ_OQ);
    __m256d low = _mm256_blendv_pd(_mm256_set1_pd(std::numeric_limits<double>::infinity()), index, at_top);
    low = _mm256_min_pd(low, _mm256_permute2f128_pd(low, low, 1));
    low = _mm256_min_pd(low, _mm256_permute_pd(low, 0b0101));
    return static_cast<int>(_mm256_cvtsd_f64(low));
#endif
  }
};
#else
struct BestLanes {
  static constexpr bool kVector = false;
  void clear() {}
  int best() const { return 0; }  // (never called: the pass's argmax instead)
};
#endif

// The ratings of lanes 0 .. M - 1 of a row (M a multiple of 4): per lane the sum over terms of
// weight x value, in term order, a product and a sum per term, no fused multiply-add, as the
// loop without intrinsics.  8 lanes a vector with AVX-512, then 4 (written out: for M = 12
// GCC's vectorizer took 8 lanes in a vector and the last 4 one at a time); without AVX, a loop.
// kIntegral: integral weights (DropRating::integral) take integer_sums, then one exact product.
// The loop over the terms is the caller's (DropPass::sum_terms, add_term per term).
template <int M>
class TermSums {
  static_assert(M % 4 == 0);
#if defined(__AVX512F__)
  static constexpr int M8 = M / 8;
#else
  static constexpr int M8 = 0;
#endif
  static constexpr int M4 = (M - 8 * M8) / 4;

 public:
#if defined(__AVX__)
  static constexpr bool kIntegral = true;

  TermSums() {
#if defined(__AVX512F__)
    for (int g = 0; g < M8; ++g) wide_[g] = _mm512_setzero_pd();
#endif
    for (int g = 0; g < M4; ++g) narrow_[g] = _mm256_setzero_pd();
  }

  template <std::size_t R>
  void integral_terms(const DropRating& r, const std::int32_t (&vals)[VALUE_SLOT_NB][R]) {
    __m256i sum[(M + 7) / 8];
    integer_sums(r, vals, sum);
#if defined(__AVX512F__)
    for (int g = 0; g < M8; ++g) wide_[g] = _mm512_mul_pd(_mm512_cvtepi32_pd(sum[g]), _mm512_set1_pd(r.unit));
#endif
    for (int g = 0; g < M4; ++g) {
      const int l = 8 * M8 + 4 * g;  // the group's first lane
      const __m128i x = l % 8 ? _mm256_extracti128_si256(sum[l / 8], 1) : _mm256_castsi256_si128(sum[l / 8]);
      narrow_[g] = _mm256_mul_pd(_mm256_cvtepi32_pd(x), _mm256_set1_pd(r.unit));
    }
  }

  // The next term, weight w of the values v (its vals row).
  void add_term(double w, const std::int32_t* v) {
#if defined(__AVX512F__)
    for (int g = 0; g < M8; ++g) {
      const __m512d x = _mm512_cvtepi32_pd(_mm256_load_si256(reinterpret_cast<const __m256i*>(v + 8 * g)));
      wide_[g] = _mm512_add_pd(wide_[g], _mm512_mul_pd(_mm512_set1_pd(w), x));
    }
#endif
    for (int g = 0; g < M4; ++g) {
      const __m256d x = _mm256_cvtepi32_pd(_mm_load_si128(reinterpret_cast<const __m128i*>(v + 8 * M8 + 4 * g)));
      narrow_[g] = _mm256_add_pd(narrow_[g], _mm256_mul_pd(_mm256_set1_pd(w), x));
    }
  }

  void store(double* s) const {
#if defined(__AVX512F__)
    for (int g = 0; g < M8; ++g) _mm512_storeu_pd(s + 8 * g, wide_[g]);
#endif
    for (int g = 0; g < M4; ++g) _mm256_storeu_pd(s + 8 * M8 + 4 * g, narrow_[g]);
  }

  void load(const double* s) {
#if defined(__AVX512F__)
    for (int g = 0; g < M8; ++g) wide_[g] = _mm512_loadu_pd(s + 8 * g);
#endif
    for (int g = 0; g < M4; ++g) narrow_[g] = _mm256_loadu_pd(s + 8 * M8 + 4 * g);
  }

  // Lanes 0 .. n - 1, candidates k0 .., into the running best.
  void fold_into(BestLanes& best, int k0, int n) {
#if defined(__AVX512F__)
    BestLanes::Row rows[M8 + M4];  // (at most one narrow group: widened, its lanes 4 .. 7 past the row)
    for (int g = 0; g < M8; ++g) rows[g] = wide_[g];
    for (int g = 0; g < M4; ++g)
      rows[M8 + g] = _mm512_insertf64x4(_mm512_set1_pd(-std::numeric_limits<double>::infinity()), narrow_[g], 0);
    best.fold(rows, k0, n);
#else
    best.fold(narrow_, k0, n);
#endif
  }

 private:
#if defined(__AVX512F__)
  __m512d wide_[M8 > 0 ? M8 : 1];
#endif
  __m256d narrow_[M4 > 0 ? M4 : 1];
#else
  static constexpr bool kIntegral = false;

  TermSums() {
    for (int l = 0; l < M; ++l) acc_[l] = 0.0;
  }

  template <std::size_t R>
  void integral_terms(const DropRating&, const std::int32_t (&)[VALUE_SLOT_NB][R]) {}

  void add_term(double w, const std::int32_t* v) {
    for (int l = 0; l < M; ++l) acc_[l] += w * v[l];
  }

  void store(double* s) const {
    for (int l = 0; l < M; ++l) s[l] = acc_[l];
  }
  void load(const double*) {}                   // (nothing reads the sums after store)
  void fold_into(BestLanes&, int, int) const {}  // (no running best: argmax)

 private:
  alignas(64) double acc_[M];
#endif
};

// AVX2 with 4 lanes (the tails, tails.h): every lane the sum of the four, and an unaligned load.
#if defined(__AVX2__)
inline __m128i lanes_sum(__m128i x) {
  x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4E));
  return _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xB1));
}
inline __m128i loadu128(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
#endif

}  // namespace
}  // namespace tb
