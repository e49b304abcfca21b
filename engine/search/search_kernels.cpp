#include "search_kernels.h"

#include <limits>
#include <string_view>

#include "kernel_variants.h"

namespace tb {

// The materialize entry points of each level (materialize.cpp).
#define TB_DECLARE_MATERIALIZE(NS)                                                                      \
  namespace isa_##NS {                                                                                   \
  void materialize(CandidateBlock& block, const Board& board, Piece piece, Geometry g, Overflow overflow, \
                   PlyCarry carry);                                                                      \
  void materialize_rows(CandidateBlock& block, const Board& board, const Placement* placements, int n,   \
                        Geometry g, Overflow overflow, PlyCarry carry, int at);                          \
  }
TB_DECLARE_MATERIALIZE(v4)
TB_DECLARE_MATERIALIZE(v3)
TB_DECLARE_MATERIALIZE(v2)
TB_DECLARE_MATERIALIZE(reference)
#undef TB_DECLARE_MATERIALIZE

namespace {

// Term-major, so each term's loop over the candidates vectorizes; per candidate the sum order
// is the term order in every variant.
[[gnu::always_inline]] inline void sum_terms_body(CandidateBlock& block, const LinearTerm* terms, int term_count) {
  const int n = block.count;
  for (int k = 0; k < n; ++k) block.score[k] = 0.0;
  for (int t = 0; t < term_count; ++t) {
    const std::int32_t* v = &block.values[terms[t].slot * kBlockCapacity];
    for (int k = 0; k < n; ++k) block.score[k] += terms[t].weight * v[k];
  }
  for (int k = 0; k < n; ++k)
    if (block.terminal[k]) block.score[k] = -std::numeric_limits<double>::infinity();
}

__attribute__((target("arch=x86-64-v4"))) void sum_terms_v4(CandidateBlock& b, const LinearTerm* t, int n) {
  sum_terms_body(b, t, n);
}
__attribute__((target("arch=x86-64-v3"))) void sum_terms_v3(CandidateBlock& b, const LinearTerm* t, int n) {
  sum_terms_body(b, t, n);
}
void sum_terms_v2(CandidateBlock& b, const LinearTerm* t, int n) { sum_terms_body(b, t, n); }

constexpr SearchKernels kV4{"x86-64-v4", isa_v4::materialize, isa_v4::materialize_rows, sum_terms_v4};
constexpr SearchKernels kV3{"x86-64-v3", isa_v3::materialize, isa_v3::materialize_rows, sum_terms_v3};
constexpr SearchKernels kV2{"x86-64-v2", isa_v2::materialize, isa_v2::materialize_rows, sum_terms_v2};
constexpr SearchKernels kReference{"reference", isa_reference::materialize, isa_reference::materialize_rows,
                                   sum_terms_v2};

const SearchKernels& for_variant(std::string_view name) {
  // A feature-kernel family implies its level except for the parts of x86-64-v3 and -v4 that
  // the kernel's own CPU check does not cover (BMI2, LZCNT, FMA, ...): checked here.
  if (name == "avx512" && cpu_runs_x86_64_v4()) return kV4;
  if ((name == "avx512" || name == "avx2") && cpu_runs_x86_64_v3()) return kV3;
  if (name == "reference") return kReference;
  return kV2;
}

}  // namespace

bool cpu_runs_x86_64_v3() {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
         __builtin_cpu_supports("fma");
}

bool cpu_runs_x86_64_v4() {
  return cpu_runs_x86_64_v3() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vl");
}

const SearchKernels& search_kernels(FeatureKernel kernel) {
  if (!kernel) {
    static const SearchKernels& best = for_variant(best_kernel().name);
    return best;
  }
  for (const KernelVariant& v : kernel_variants())
    if (v.kernel == kernel) return for_variant(v.name);
  return kV2;
}

}  // namespace tb
