#include "kernel_variants.h"

#include <array>
#include <cstdlib>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace tb {
namespace {

// Each level's CMake flags (CMakeLists.txt TB_FLAGS_SSE42, TB_FLAGS_AVX2, TB_FLAGS_AVX512: the
// files of kernels/ and engine/search/drop_scorer_*), and the arch of its materialize and sums
// (engine/search/materialize.cpp, search_kernels.cpp; the n-tuple kernel's target of
// engine/policy/ntuple.cpp is within avx512's) side by side with the mask they need.  They must
// agree: a flag added in CMake needs its bit here (tests/test_isa.cpp "IsaTable" fails until then).
// x86-64-v3 beyond the x86-64-v2 baseline: AVX, AVX2, BMI1, BMI2, F16C, FMA, LZCNT, MOVBE, XSAVE;
// x86-64-v4 adds AVX-512 F, BW, CD, DQ and VL.
constexpr std::uint32_t kV3 = CPU_AVX | CPU_AVX2 | CPU_BMI1 | CPU_BMI2 | CPU_F16C | CPU_FMA | CPU_LZCNT | CPU_MOVBE |
                              CPU_XSAVE;
constexpr std::uint32_t kV4 = kV3 | CPU_AVX512F | CPU_AVX512BW | CPU_AVX512CD | CPU_AVX512DQ | CPU_AVX512VL;

constexpr std::array<KernelVariant, ISA_LEVEL_NB> kVariants = {{
    {ISA_AVX512, "avx512", features_avx512, 8, "AVX-512 F/BW/CD/DQ/VL/VPOPCNTDQ/BITALG + x86-64-v3",
     "-mavx512f;-mavx512bw;-mavx512cd;-mavx512dq;-mavx512vl;-mavx512vpopcntdq;-mavx512bitalg;-mavx2;-mfma;-mbmi;"
     "-mbmi2;-mlzcnt;-mpopcnt",
     "x86-64-v4",
     kV4 | CPU_AVX512VPOPCNTDQ | CPU_AVX512BITALG | CPU_POPCNT},
    {ISA_AVX2, "avx2", features_avx2, 8, "x86-64-v3 (AVX2, BMI1/2, FMA, LZCNT, F16C, MOVBE)",
     "-mavx2;-mfma;-mbmi;-mbmi2;-mlzcnt;-mpopcnt", "x86-64-v3", kV3 | CPU_POPCNT},
    {ISA_SSE42, "sse4.2", features_sse42, 4, "SSE4.2 + POPCNT", "-msse4.2;-mpopcnt", "x86-64-v2",
     CPU_SSE42 | CPU_POPCNT},
    {ISA_SCALAR, "scalar", features_scalar, 1, "x86-64-v2 baseline", "", "x86-64-v2", 0},
    {ISA_REFERENCE, "reference", features_reference, 1, "none", "", "x86-64-v2", 0},
}};

std::uint32_t detect_cpu_features() {
  std::uint32_t f = 0;
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
  const auto bit = [](unsigned reg, int i) { return ((reg >> i) & 1u) != 0; };
  if (bit(c, 20)) f |= CPU_SSE42;
  if (bit(c, 23)) f |= CPU_POPCNT;
  if (bit(c, 12)) f |= CPU_FMA;
  if (bit(c, 22)) f |= CPU_MOVBE;
  if (bit(c, 29)) f |= CPU_F16C;
  // XCR0: which register states the OS saves (bits 1-2 XMM and YMM, 5-7 the AVX-512 ones).
  std::uint64_t xcr0 = 0;
  if (bit(c, 26) && bit(c, 27)) {  // XSAVE, and the OS enabled it (OSXSAVE)
    f |= CPU_XSAVE;
    unsigned lo = 0, hi = 0;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (static_cast<std::uint64_t>(hi) << 32) | lo;
  }
  const bool ymm = (xcr0 & 0x6) == 0x6, zmm = ymm && (xcr0 & 0xe0) == 0xe0;
  if (ymm && bit(c, 28)) f |= CPU_AVX;
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    if (bit(b, 3)) f |= CPU_BMI1;
    if (bit(b, 8)) f |= CPU_BMI2;
    if (ymm && bit(b, 5)) f |= CPU_AVX2;
    if (zmm) {
      if (bit(b, 16)) f |= CPU_AVX512F;
      if (bit(b, 17)) f |= CPU_AVX512DQ;
      if (bit(b, 28)) f |= CPU_AVX512CD;
      if (bit(b, 30)) f |= CPU_AVX512BW;
      if (bit(b, 31)) f |= CPU_AVX512VL;
      if (bit(c, 12)) f |= CPU_AVX512BITALG;
      if (bit(c, 14)) f |= CPU_AVX512VPOPCNTDQ;
    }
  }
  if (__get_cpuid(0x80000001u, &a, &b, &c, &d) && bit(c, 5)) f |= CPU_LZCNT;
#endif
  return f;
}

}  // namespace

std::uint32_t cpu_features() {
  static const std::uint32_t features = detect_cpu_features();
  return features;
}

std::span<const KernelVariant> kernel_variants() { return kVariants; }

const KernelVariant* find_kernel(std::string_view name) {
  for (const KernelVariant& v : kVariants)
    if (v.name == name) return &v;
  return nullptr;
}

const KernelVariant& kernel_variant(IsaLevel level) {
  for (const KernelVariant& v : kVariants)
    if (v.level == level) return v;
  return kVariants.back();
}

int kernel_lanes(FeatureKernel kernel) {
  for (const KernelVariant& v : kVariants)
    if (v.kernel == kernel) return v.lanes;
  return 1;
}

const KernelVariant& best_kernel() {
  for (const KernelVariant& v : kVariants)
    if (v.supported()) return v;
  return kVariants.back();
}

const KernelVariant* select_kernel(std::string_view forced, std::string& why) {
  std::string_view name = forced;
  if (name.empty())
    if (const char* env = std::getenv(kKernelEnv); env && *env) name = env;
  if (name.empty()) return &best_kernel();
  const KernelVariant* v = find_kernel(name);
  if (!v) {
    why = "unknown kernel '" + std::string(name) + "' (reference, scalar, sse4.2, avx2, avx512)";
    return nullptr;
  }
  if (!v->supported()) {
    why = "kernel '" + std::string(name) + "' needs " + std::string(v->requires_isa) + ", which this CPU lacks";
    return nullptr;
  }
  return v;
}

}  // namespace tb
