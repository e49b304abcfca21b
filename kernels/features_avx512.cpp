// The xsimd kernel compiled for avx512bw, with AVX2 vectors for the last 8 boards (per-file flags: kernels/CMakeLists.txt).
#include "features_simd.h"
#include "kernel_variants.h"

namespace tb {

void features_avx512(const BoardBlock& block, std::uint32_t groups, std::int32_t* out) {
  features_simd<xsimd::avx512bw, xsimd::avx2>(block, groups, out);
}

// Test hooks (tests/test_features.cpp): features_simd.h's lanes_probe for these vectors, the
// AVX-512 ones and the AVX2 ones of the tail (with AVX-512VL instructions).
void lanes_probe_avx512(const Word* words, int n, std::uint32_t* out) {
  lanes_probe<xsimd::avx512bw>(words, n, out);
}
void lanes_probe_avx512_tail(const Word* words, int n, std::uint32_t* out) {
  lanes_probe<xsimd::avx2>(words, n, out);
}

}  // namespace tb
