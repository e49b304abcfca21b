// The xsimd kernel compiled for avx512bw, with AVX2 vectors for the last 8 boards (per-file flags: kernels/CMakeLists.txt).
#include "features_simd.h"
#include "kernel_variants.h"

namespace tb {

void features_avx512(const BoardBlock& block, std::uint32_t groups, std::int32_t* out) {
  features_simd<xsimd::avx512bw, xsimd::avx2>(block, groups, out);
}

}  // namespace tb
