#include "search_kernels.h"

#include <limits>

namespace tb {
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

}  // namespace

// The targets are the levels' `arch` (kernels/kernel_variants.cpp), within their CPU masks.
__attribute__((target("arch=x86-64-v4"))) void isa_v4::sum_terms(CandidateBlock& b, const LinearTerm* t, int n) {
  sum_terms_body(b, t, n);
}
__attribute__((target("arch=x86-64-v3"))) void isa_v3::sum_terms(CandidateBlock& b, const LinearTerm* t, int n) {
  sum_terms_body(b, t, n);
}
void isa_v2::sum_terms(CandidateBlock& b, const LinearTerm* t, int n) { sum_terms_body(b, t, n); }

}  // namespace tb
