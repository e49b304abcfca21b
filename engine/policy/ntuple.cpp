#include "ntuple.h"

#include <algorithm>
#include <bit>

#if defined(__x86_64__)
#include <immintrin.h>
#define TB_NTUPLE_AVX512 1
#endif

namespace tb {
namespace {

constexpr int kDiffClip = 3;                       // differences in [-3, 3]: 7 values
constexpr int kDiffValues = 2 * kDiffClip + 1;
constexpr int kHoleClip = 15;                      // 16 hole counts
constexpr int kSurfaceRows = 4;                    // 3 columns x 4 rows = 12 bits

// Rows t-4 .. t-1 of one column as 4 bits (bit j = row t-4+j); rows below 0 are filled.
inline std::uint32_t surface_nibble(Word col, int t) {
  const int low = t - kSurfaceRows;
  if (low >= 0) return (col >> low) & 0xFu;
  return ((col << -low) | low_mask(-low)) & 0xFu;
}

#ifdef TB_NTUPLE_AVX512
// The x86-64-v2 baseline plus what the kernel uses (within the avx512 level's CPU mask,
// kernels/kernel_variants.cpp); called only with that level.  Helpers carry the same target so that they inline.
#define TB_AVX512 __attribute__((target("avx512f,avx512cd,avx512bw,avx512vl,avx512vpopcntdq")))
// GCC 12's AVX-512 header makes its "undefined" vectors by self-initialization
// (`__m512i __Y = __Y;`), which -Wmaybe-uninitialized reports at every inlined use.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

struct Tables {
  int width;
  std::uint32_t levels, profile_size, surface_size;
};

// clamp(hi - lo, -3, 3) + 3 per lane: one digit of a profile index.
TB_AVX512 inline __m512i profile_digit(__m512i hi, __m512i lo) {
  const __m512i d = _mm512_sub_epi32(hi, lo);
  const __m512i clipped =
      _mm512_min_epi32(_mm512_max_epi32(d, _mm512_set1_epi32(-kDiffClip)), _mm512_set1_epi32(kDiffClip));
  return _mm512_add_epi32(clipped, _mm512_set1_epi32(kDiffClip));
}

// surface_nibble per lane.  For t >= 4 it is col >> (t - 4); below, the rows under the floor
// are filled: (col << 4 | 0xF) >> t, whose 32-bit shift loses rows 28..31, which t < 4 never
// reaches.  Both forms are computed and the lane picks one (a shift count >= 32 gives 0).
TB_AVX512 inline __m512i surface_nibble_x16(__m512i col, __m512i t) {
  const __m512i four = _mm512_set1_epi32(kSurfaceRows);
  const __mmask16 high = _mm512_cmpge_epi32_mask(t, four);
  const __m512i floor_filled = _mm512_or_si512(_mm512_slli_epi32(col, kSurfaceRows), _mm512_set1_epi32(0xF));
  const __m512i low_form = _mm512_srlv_epi32(floor_filled, t);
  const __m512i high_form = _mm512_srlv_epi32(col, _mm512_sub_epi32(t, four));
  return _mm512_and_si512(_mm512_mask_mov_epi32(low_form, high, high_form), _mm512_set1_epi32(0xF));
}

// Tuple t's indices of 16 boards: stored in its row of idx if asked (idx points at board k0 of
// tuple 0), and its weights added to the two accumulators (boards k0 .. k0+7 and k0+8 .. k0+15)
// of the lanes in `read`; each lane adds its tuples in order, as the scalar sum does.
TB_AVX512 inline void add_tuple(__m512i index, int t, __mmask16 live, __mmask16 read, const double* w,
                                std::uint32_t* idx, int stride, __m512d& lo, __m512d& hi) {
  if (idx) _mm512_mask_storeu_epi32(idx + static_cast<std::ptrdiff_t>(t) * stride, live, index);
  const __m512d zero = _mm512_setzero_pd();
  lo = _mm512_add_pd(lo, _mm512_mask_i32gather_pd(zero, static_cast<__mmask8>(read),
                                                  _mm512_castsi512_si256(index), w, 8));
  hi = _mm512_add_pd(hi, _mm512_mask_i32gather_pd(zero, static_cast<__mmask8>(read >> 8),
                                                  _mm512_extracti64x4_epi64(index, 1), w, 8));
}

// NTupleNetwork::block_values, 16 boards per pass, one per 32-bit lane: heights by leading-zero
// count, holes as height - popcount (every filled cell is below the height), then each tuple's
// index exactly as indices() forms it.  Lanes past `count` are masked at every load and store.
TB_AVX512 void block_values_avx512(const Tables& tables, const Word* cols, int stride, int count, const bool* skip,
                                   const double* w, double* out, std::uint32_t* idx) {
  const int W = tables.width;
  const __m512i levels = _mm512_set1_epi32(static_cast<int>(tables.levels));
  for (int k0 = 0; k0 < count; k0 += 16) {
    const int n = std::min(16, count - k0);
    const __mmask16 live = static_cast<__mmask16>(n == 16 ? 0xFFFFu : (1u << n) - 1);
    __mmask16 read = live;
    if (skip) {
      const __m128i s = _mm_maskz_loadu_epi8(live, skip + k0);
      read = static_cast<__mmask16>(live & ~_mm_test_epi8_mask(s, s));
    }
    __m512i col[kMaxWidth], h[kMaxWidth];
    __m512i holes = _mm512_setzero_si512(), top = _mm512_setzero_si512();
    for (int c = 0; c < W; ++c) {
      col[c] = _mm512_maskz_loadu_epi32(live, cols + static_cast<std::ptrdiff_t>(c) * stride + k0);
      h[c] = _mm512_sub_epi32(_mm512_set1_epi32(32), _mm512_lzcnt_epi32(col[c]));
      holes = _mm512_add_epi32(holes, _mm512_sub_epi32(h[c], _mm512_popcnt_epi32(col[c])));
      top = _mm512_max_epi32(top, h[c]);
    }
    __m512d lo = _mm512_setzero_pd(), hi = _mm512_setzero_pd();
    std::uint32_t* at_k0 = idx ? idx + k0 : nullptr;
    std::uint32_t base = 0;
    int tuple = 0;
    for (int c = 0; c + 3 < W; ++c, base += tables.profile_size) {
      __m512i d = profile_digit(h[c + 1], h[c]);
      d = _mm512_add_epi32(_mm512_mullo_epi32(d, _mm512_set1_epi32(kDiffValues)), profile_digit(h[c + 2], h[c + 1]));
      d = _mm512_add_epi32(_mm512_mullo_epi32(d, _mm512_set1_epi32(kDiffValues)), profile_digit(h[c + 3], h[c + 2]));
      const __m512i m = _mm512_max_epi32(_mm512_max_epi32(h[c], h[c + 1]), _mm512_max_epi32(h[c + 2], h[c + 3]));
      const __m512i index = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(base)),
                                             _mm512_add_epi32(_mm512_mullo_epi32(d, levels), m));
      add_tuple(index, tuple++, live, read, w, at_k0, stride, lo, hi);
    }
    for (int c = 0; c + 2 < W; ++c, base += tables.surface_size) {
      const __m512i t = _mm512_max_epi32(_mm512_max_epi32(h[c], h[c + 1]), h[c + 2]);
      const __m512i bits = _mm512_or_si512(
          surface_nibble_x16(col[c], t),
          _mm512_or_si512(_mm512_slli_epi32(surface_nibble_x16(col[c + 1], t), 4),
                          _mm512_slli_epi32(surface_nibble_x16(col[c + 2], t), 8)));
      const __m512i index = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(base)), bits);
      add_tuple(index, tuple++, live, read, w, at_k0, stride, lo, hi);
    }
    const __m512i clipped_holes = _mm512_min_epi32(holes, _mm512_set1_epi32(kHoleClip));
    const __m512i index = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(base)),
                                           _mm512_add_epi32(_mm512_mullo_epi32(clipped_holes, levels), top));
    add_tuple(index, tuple, live, read, w, at_k0, stride, lo, hi);
    _mm512_mask_storeu_pd(out + k0, static_cast<__mmask8>(live), lo);
    if (n > 8) _mm512_mask_storeu_pd(out + k0 + 8, static_cast<__mmask8>(live >> 8), hi);
  }
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#undef TB_AVX512
#endif

}  // namespace

NTupleNetwork::NTupleNetwork(Geometry g)
    : geometry_(g),
      profile_size_(static_cast<std::uint32_t>(kDiffValues * kDiffValues * kDiffValues * (g.height + 1))),
      surface_size_(1u << (3 * kSurfaceRows)),
      holes_size_(static_cast<std::uint32_t>((kHoleClip + 1) * (g.height + 1))) {
  const std::size_t total = static_cast<std::size_t>(g.width - 3) * profile_size_ +
                            static_cast<std::size_t>(g.width - 2) * surface_size_ + holes_size_;
  weights_.assign(total, 0.0);
}

void NTupleNetwork::indices(const Board& b, std::uint32_t* out) const {
  const int W = geometry_.width;
  const std::uint32_t levels = static_cast<std::uint32_t>(geometry_.height + 1);
  int h[kMaxWidth];
  int holes = 0, top = 0;
  for (int c = 0; c < W; ++c) {
    h[c] = column_height(b.cols[c]);
    holes += std::popcount(low_mask(h[c]) & ~b.cols[c]);
    top = std::max(top, h[c]);
  }
  std::uint32_t base = 0;
  for (int c = 0; c + 3 < W; ++c, base += profile_size_) {
    std::uint32_t d = 0;
    for (int i = 0; i < 3; ++i)
      d = d * kDiffValues + static_cast<std::uint32_t>(std::clamp(h[c + i + 1] - h[c + i], -kDiffClip, kDiffClip) + kDiffClip);
    const int m = std::max(std::max(h[c], h[c + 1]), std::max(h[c + 2], h[c + 3]));
    *out++ = base + d * levels + static_cast<std::uint32_t>(m);
  }
  for (int c = 0; c + 2 < W; ++c, base += surface_size_) {
    const int t = std::max(std::max(h[c], h[c + 1]), h[c + 2]);
    *out++ = base + (surface_nibble(b.cols[c], t) | surface_nibble(b.cols[c + 1], t) << 4 |
                     surface_nibble(b.cols[c + 2], t) << 8);
  }
  *out = base + static_cast<std::uint32_t>(std::min(holes, kHoleClip)) * levels + static_cast<std::uint32_t>(top);
}

double NTupleNetwork::value(const std::uint32_t* idx) const {
  double v = 0.0;
  for (int t = 0; t < tuple_count(); ++t) v += weights_[idx[t]];
  return v;
}

double NTupleNetwork::value(const Board& b) const {
  std::uint32_t idx[3 * kMaxWidth];
  indices(b, idx);
  return value(idx);
}

void NTupleNetwork::block_values(NTupleKernel kernel, const Word* cols, int stride, int count, const bool* skip,
                                 const double* w, double* out, std::uint32_t* idx) const {
#ifdef TB_NTUPLE_AVX512
  if (kernel == NTupleKernel::avx512) {
    const Tables tables{geometry_.width, static_cast<std::uint32_t>(geometry_.height + 1), profile_size_,
                        surface_size_};
    block_values_avx512(tables, cols, stride, count, skip, w, out, idx);
    return;
  }
#endif
  const int m = tuple_count();
  for (int k = 0; k < count; ++k) {
    if (skip && skip[k]) {
      out[k] = 0.0;
      continue;
    }
    Board b;
    for (int c = 0; c < geometry_.width; ++c) b.cols[c] = cols[static_cast<std::ptrdiff_t>(c) * stride + k];
    std::uint32_t ix[3 * kMaxWidth];
    indices(b, ix);
    double v = 0.0;
    for (int t = 0; t < m; ++t) v += w[ix[t]];
    out[k] = v;
    if (idx)
      for (int t = 0; t < m; ++t) idx[static_cast<std::ptrdiff_t>(t) * stride + k] = ix[t];
  }
}

std::string NTupleNetwork::tuple_name(int t) const {
  const int profiles = geometry_.width - 3, surfaces = geometry_.width - 2;
  if (t < profiles) return "profile[" + std::to_string(t) + "]";
  if (t < profiles + surfaces) return "surface[" + std::to_string(t - profiles) + "]";
  return "holes";
}

std::uint32_t NTupleNetwork::table_offset(int t) const {
  const std::uint32_t profiles = static_cast<std::uint32_t>(geometry_.width - 3);
  const std::uint32_t surfaces = static_cast<std::uint32_t>(geometry_.width - 2);
  const std::uint32_t ut = static_cast<std::uint32_t>(t);
  if (ut < profiles) return ut * profile_size_;
  if (ut < profiles + surfaces) return profiles * profile_size_ + (ut - profiles) * surface_size_;
  return profiles * profile_size_ + surfaces * surface_size_;
}

std::uint32_t NTupleNetwork::table_size(int t) const {
  const int profiles = geometry_.width - 3, surfaces = geometry_.width - 2;
  if (t < profiles) return profile_size_;
  if (t < profiles + surfaces) return surface_size_;
  return holes_size_;
}

}  // namespace tb
