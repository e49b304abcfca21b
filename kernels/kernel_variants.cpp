#include "kernel_variants.h"

#include <array>
#include <cstdlib>

#include "error.h"
#include <stdexcept>

namespace tb {
namespace {

bool always() { return true; }
bool has_sse42() { return __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("popcnt"); }
bool has_avx2() { return __builtin_cpu_supports("avx2") && has_sse42(); }
bool has_avx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vpopcntdq") &&
         has_avx2();
}

constexpr std::array<KernelVariant, 5> kVariants = {{
    {"avx512", features_avx512, 8, "AVX-512 F/BW/CD/DQ/VL + VPOPCNTDQ", has_avx512},
    {"avx2", features_avx2, 8, "AVX2", has_avx2},
    {"sse4.2", features_sse42, 4, "SSE4.2 + POPCNT", has_sse42},
    {"scalar", features_scalar, 1, "x86-64-v2 baseline", always},
    {"reference", features_reference, 1, "none", always},
}};

}  // namespace

std::span<const KernelVariant> kernel_variants() { return kVariants; }

const KernelVariant* find_kernel(std::string_view name) {
  for (const KernelVariant& v : kVariants)
    if (v.name == name) return &v;
  return nullptr;
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

const KernelVariant& select_kernel(std::string_view forced) {
  std::string_view name = forced;
  if (name.empty())
    if (const char* env = std::getenv(kKernelEnv); env && *env) name = env;
  if (name.empty()) return best_kernel();
  const KernelVariant* v = find_kernel(name);
  if (!v)
    throw InputError("unknown kernel '" + std::string(name) +
                                "' (reference, scalar, sse4.2, avx2, avx512)");
  if (!v->supported())
    throw InputError("kernel '" + std::string(name) + "' needs " +
                                std::string(v->requires_isa) + ", which this CPU lacks");
  return *v;
}

}  // namespace tb
