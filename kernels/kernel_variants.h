// The instruction-set levels: every compiled feature kernel, the one CPU check and the one
// override (docs/architecture.md "One instruction-set table").
//
// One row per level, in priority order (best first): avx512, avx2, sse4.2, scalar, reference.
// A level runs when the CPU has every feature of its `required` mask (cpu_features, the one
// detection); the portable build picks the best such level, and `--kernel NAME` or the
// environment variable TETRISBENCH_KERNEL forces one.  This table is the kernels' half of a
// level; the engine's half (materialize, sums, drop passes, n-tuple kernel) is indexed by
// `level` (engine/search/isa.h).  All levels give identical results (tested).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "feature_kernels.h"

namespace tb {

// xsimd variants, one translation unit each (features_<isa>.cpp).
void features_sse42(const BoardBlock& block, std::uint32_t groups, std::int32_t* out);
void features_avx2(const BoardBlock& block, std::uint32_t groups, std::int32_t* out);
void features_avx512(const BoardBlock& block, std::uint32_t groups, std::int32_t* out);

enum IsaLevel : std::uint8_t { ISA_REFERENCE, ISA_SCALAR, ISA_SSE42, ISA_AVX2, ISA_AVX512, ISA_LEVEL_NB };

// CPU features a level's code may use beyond the x86-64-v2 baseline every file is built for
// (CMakeLists.txt `-march=x86-64-v2`: a CPU without it cannot start the program).  AVX, AVX2 and
// AVX-512 count only with the OS saving their registers (XCR0).
enum CpuFeature : std::uint32_t {
  CPU_SSE42 = 1u << 0,
  CPU_POPCNT = 1u << 1,
  CPU_XSAVE = 1u << 2,  // XSAVE, enabled by the OS (OSXSAVE)
  CPU_AVX = 1u << 3,
  CPU_AVX2 = 1u << 4,
  CPU_FMA = 1u << 5,
  CPU_BMI1 = 1u << 6,
  CPU_BMI2 = 1u << 7,
  CPU_LZCNT = 1u << 8,
  CPU_F16C = 1u << 9,
  CPU_MOVBE = 1u << 10,
  CPU_AVX512F = 1u << 11,
  CPU_AVX512BW = 1u << 12,
  CPU_AVX512CD = 1u << 13,
  CPU_AVX512DQ = 1u << 14,
  CPU_AVX512VL = 1u << 15,
  CPU_AVX512VPOPCNTDQ = 1u << 16,
  CPU_AVX512BITALG = 1u << 17,
};

// The one detection: the CpuFeature bits of this CPU (cpuid and XCR0, read once).
std::uint32_t cpu_features();

struct KernelVariant {
  IsaLevel level;
  std::string_view name;  // --kernel NAME
  FeatureKernel kernel;
  int lanes;                      // callers pad blocks to a multiple of this (no tail path)
  std::string_view requires_isa;  // what the CPU must have, for `tetrisbench info`
  // What this level's code is compiled with: its CMake flags (TB_FLAGS_<LEVEL>, CMakeLists.txt,
  // as compiled), then the `target("arch=...")` of its materialize and sums (engine/search).
  std::string_view cmake_flags, arch;
  // The CpuFeature bits of cmake_flags and arch: the two must agree (tests/test_isa.cpp
  // "IsaTable" checks them against CMake's lists).
  std::uint32_t required;

  bool supported() const { return (cpu_features() & required) == required; }
};

std::span<const KernelVariant> kernel_variants();  // priority order
const KernelVariant* find_kernel(std::string_view name);  // nullptr if unknown
const KernelVariant& kernel_variant(IsaLevel level);
const KernelVariant& best_kernel();                       // first supported in priority order
int kernel_lanes(FeatureKernel kernel);                   // its variant's lanes, 1 if unknown

inline constexpr const char* kKernelEnv = "TETRISBENCH_KERNEL";

// The one override: `forced` (from --kernel) if non-empty, else $TETRISBENCH_KERNEL if set,
// else the best.  nullptr for an unknown name or a level this CPU lacks, with the reason in
// `why` (the engine turns it into InputError: engine/search/isa.h choose_isa).
const KernelVariant* select_kernel(std::string_view forced, std::string& why);

}  // namespace tb
