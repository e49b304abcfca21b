// Every compiled feature kernel, and run-time selection among them.
//
// Priority order (best first): avx512, avx2, sse4.2, scalar, reference.  The portable build
// picks the best variant the CPU supports; `--kernel NAME` or the environment variable
// TETRISBENCH_KERNEL forces one.  All variants give identical feature values (tested).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "feature_kernels.h"

namespace tb {

// xsimd variants, one translation unit each (features_<isa>.cpp).
void features_sse42(const BoardBlock& block, std::uint32_t groups, std::int32_t* out);
void features_avx2(const BoardBlock& block, std::uint32_t groups, std::int32_t* out);
void features_avx512(const BoardBlock& block, std::uint32_t groups, std::int32_t* out);

struct KernelVariant {
  std::string_view name;
  FeatureKernel kernel;
  int lanes;                      // callers pad blocks to a multiple of this (no tail path)
  std::string_view requires_isa;  // what the CPU must have, for `tetrisbench info`
  bool (*supported)();
};

std::span<const KernelVariant> kernel_variants();
const KernelVariant* find_kernel(std::string_view name);  // nullptr if unknown
const KernelVariant& best_kernel();                       // first supported in priority order
int kernel_lanes(FeatureKernel kernel);                   // its variant's lanes, 1 if unknown

inline constexpr const char* kKernelEnv = "TETRISBENCH_KERNEL";

// `forced` (from --kernel) if non-empty, else $TETRISBENCH_KERNEL if set, else the best.
// Throws InputError (engine/io/error.h) for an unknown or unsupported name.
const KernelVariant& select_kernel(std::string_view forced);

}  // namespace tb
