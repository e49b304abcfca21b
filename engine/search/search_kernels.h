// The instruction-set variants of the loops around the feature kernels: materializing
// candidates and summing a linear rating.  Each level's record (isa.h) holds its variants, so
// `--kernel NAME` and TETRISBENCH_KERNEL force every variant of a decision and the tests cover
// each:
//   avx512  x86-64-v4 code       avx2  x86-64-v3 code       sse4.2, scalar  the baseline
//   reference  drop() per candidate (engine/core/placement.h) and the plain sum
// Every variant gives the same blocks and ratings (integer work, and sums in one fixed order
// without fused multiply-add), so the choice changes speed only.
#pragma once

#include "candidate_block.h"
#include "feature_kernels.h"

namespace tb {

struct LinearTerm {
  int slot;       // row of CandidateBlock::values
  double weight;  // policy weight, times 1/2 for MOVE_LANDING_X2 (exact)
};

struct SearchKernels {
  const char* isa;  // "x86-64-v4", "x86-64-v3", "x86-64-v2" or "reference"
  void (*materialize)(CandidateBlock& block, const Board& board, Piece piece, Geometry g,
                      Overflow overflow, PlyCarry carry);
  // Placements locked at their rows into lanes [at, at + n); the lanes before `at` are kept.
  void (*materialize_rows)(CandidateBlock& block, const Board& board, const Placement* placements,
                           int n, Geometry g, Overflow overflow, PlyCarry carry, int at);
  // score[k] = sum over terms of weight x values[slot][k], in term order; -infinity when
  // terminal[k].
  void (*sum_terms)(CandidateBlock& block, const LinearTerm* terms, int term_count);
};

// The variants of a feature kernel's level (isa_record(kernel).search, isa.h); nullptr means
// the best level this CPU runs.
const SearchKernels& search_kernels(FeatureKernel kernel);

// Each level's sum_terms (search_kernels.cpp), for the records of isa.cpp.
namespace isa_v4 {
void sum_terms(CandidateBlock& block, const LinearTerm* terms, int term_count);
}
namespace isa_v3 {
void sum_terms(CandidateBlock& block, const LinearTerm* terms, int term_count);
}
namespace isa_v2 {
void sum_terms(CandidateBlock& block, const LinearTerm* terms, int term_count);
}

}  // namespace tb
