// The instruction-set variants of the loops around the feature kernels: materializing
// candidates and summing a linear rating.  One table per feature-kernel family, picked with
// the feature kernel (kernels/kernel_variants.h), so `--kernel NAME` and TETRISBENCH_KERNEL
// force every variant of a decision and the tests cover each:
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

// The variants that go with a feature kernel; nullptr means the best this CPU has.
const SearchKernels& search_kernels(FeatureKernel kernel);

// Whether this CPU runs x86-64-v3 / x86-64-v4 code (GCC's `target("arch=...")`), from the
// feature names both GCC and clang know: v3 = AVX2, BMI1/2 and FMA (every such CPU also has
// LZCNT, F16C and MOVBE), v4 = v3 and AVX-512 F, BW, CD, DQ and VL.
bool cpu_runs_x86_64_v3();
bool cpu_runs_x86_64_v4();

}  // namespace tb
