// The instruction-set table (docs/architecture.md "One instruction-set table"): one record per
// level of kernels/kernel_variants.h, holding everything a decision runs at that level, after
// simdjson's implementation registry.  A level is chosen once (the CPU check and the override
// are kernels/kernel_variants.h's); a Searcher, an evaluator, a DropScorer or a value model
// keeps its level's pointers from construction on, so nothing is chosen per piece.
#pragma once

#include <string_view>

#include "drop_scorer.h"
#include "kernel_variants.h"
#include "ntuple.h"
#include "search_kernels.h"

namespace tb {

struct IsaRecord {
  IsaLevel level;
  FeatureKernel features;     // the level's feature kernel (kernel_variant(level).kernel)
  SearchKernels search;       // materialize, materialize_rows, sum_terms
  const DropPasses* drop;     // the drop scorer's passes; null: none (scalar, reference)
  const DropRarePasses* drop_rare;
  NTupleKernel ntuple;        // NTupleNetwork::block_values

  const KernelVariant& variant() const { return kernel_variant(level); }
};

const IsaRecord& isa_record(IsaLevel level);
// The record of a feature kernel's level; nullptr (or a kernel of no level): the best level
// this CPU runs.
const IsaRecord& isa_record(FeatureKernel kernel);
// The one override (kernels/kernel_variants.h select_kernel): --kernel NAME (`forced`), else
// $TETRISBENCH_KERNEL, else the best.  Throws InputError for an unknown name or a level this
// CPU lacks.
const IsaRecord& choose_isa(std::string_view forced);

}  // namespace tb
