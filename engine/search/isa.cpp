#include "isa.h"

#include <array>
#include <string>

#include "error.h"

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

// Indexed by IsaLevel.  A level's code runs only on a CPU with its mask, which covers every
// flag and target its files are compiled with (kernels/kernel_variants.cpp).
constexpr std::array<IsaRecord, ISA_LEVEL_NB> kRecords = {{
    {ISA_REFERENCE, features_reference,
     {"reference", isa_reference::materialize, isa_reference::materialize_rows, isa_v2::sum_terms}, nullptr,
     nullptr, NTupleKernel::scalar},
    {ISA_SCALAR, features_scalar, {"x86-64-v2", isa_v2::materialize, isa_v2::materialize_rows, isa_v2::sum_terms},
     nullptr, nullptr, NTupleKernel::scalar},
    {ISA_SSE42, features_sse42, {"x86-64-v2", isa_v2::materialize, isa_v2::materialize_rows, isa_v2::sum_terms},
     &kDropPassesSse42, &kDropRarePassesSse42, NTupleKernel::scalar},
    {ISA_AVX2, features_avx2, {"x86-64-v3", isa_v3::materialize, isa_v3::materialize_rows, isa_v3::sum_terms},
     &kDropPassesAvx2, &kDropRarePassesAvx2, NTupleKernel::scalar},
    {ISA_AVX512, features_avx512, {"x86-64-v4", isa_v4::materialize, isa_v4::materialize_rows, isa_v4::sum_terms},
     &kDropPassesAvx512, &kDropRarePassesAvx512, NTupleKernel::avx512},
}};
static_assert([] {
  for (int l = 0; l < ISA_LEVEL_NB; ++l)
    if (kRecords[l].level != l) return false;
  return true;
}(), "kRecords is indexed by IsaLevel");

}  // namespace

const IsaRecord& isa_record(IsaLevel level) { return kRecords[level]; }

const IsaRecord& isa_record(FeatureKernel kernel) {
  for (const IsaRecord& r : kRecords)
    if (kernel && r.features == kernel) return r;
  static const IsaRecord& best = kRecords[best_kernel().level];
  return best;
}

const IsaRecord& choose_isa(std::string_view forced) {
  std::string why;
  const KernelVariant* v = select_kernel(forced, why);
  if (!v) throw InputError(why);
  return kRecords[v->level];
}

const SearchKernels& search_kernels(FeatureKernel kernel) { return isa_record(kernel).search; }

}  // namespace tb
