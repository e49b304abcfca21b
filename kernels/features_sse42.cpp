// The xsimd kernel compiled for sse4_2 (per-file flags: kernels/CMakeLists.txt).
#include "features_simd.h"
#include "kernel_variants.h"

namespace tb {

void features_sse42(const BoardBlock& block, std::uint32_t groups, std::int32_t* out) {
  features_simd<xsimd::sse4_2>(block, groups, out);
}

// Test hook (tests/test_features.cpp): features_simd.h's lanes_probe for these vectors.
void lanes_probe_sse42(const Word* words, int n, std::uint32_t* out) {
  lanes_probe<xsimd::sse4_2>(words, n, out);
}

}  // namespace tb
