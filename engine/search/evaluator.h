// Evaluation of a block of candidate placements (DESIGN "Decision", steps 2-4): linear over a
// feature set, or an n-tuple network; make_evaluator() picks the one a policy needs.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "feature_kernels.h"
#include "kernel_variants.h"
#include "placement.h"
#include "policy.h"

namespace tb {

// Rows of CandidateBlock::values after the kernel slots: the move features.
enum MoveSlot : int {
  MOVE_LANDING_X2 = SLOT_NB,  // 2 x landing height (exact in half cells)
  MOVE_ERODED,                // eroded cells, summed over the plies of a 2-ply pair
  MOVE_LINES,                 // rows cleared, summed over the plies of a 2-ply pair
  MOVE_CONSTANT,              // 1
  VALUE_SLOT_NB
};

inline constexpr int kBlockCapacity = kMaxPlacements;
// Blocks are padded to a multiple of the widest SIMD kernel (16 u32 lanes), so kernels never
// take their (slower) tail path; the padding lanes hold copies of the base board.
inline constexpr int kLaneMultiple = 16;
static_assert(kBlockCapacity % kLaneMultiple == 0);

// Candidate boards after their placement and line clears, struct-of-arrays.
struct CandidateBlock {
  alignas(64) std::array<Word, kMaxWidth * kBlockCapacity> cols;  // (kMaxWidth, kBlockCapacity)
  alignas(64) std::array<std::int32_t, VALUE_SLOT_NB * kBlockCapacity> values;  // (VALUE_SLOT_NB, kBlockCapacity)
  std::array<double, kBlockCapacity> score;                      // (kBlockCapacity)
  std::array<Placement, kBlockCapacity> placements;              // (kBlockCapacity)
  std::array<bool, kBlockCapacity> terminal;                     // (kBlockCapacity) move ends the game
  int count = 0;  // placements
  int lanes = 0;  // count rounded up to kLaneMultiple
  int width = 0;  // W: columns >= W of `cols` are not kept

  Board board(int k) const;
  // placements[k] with its row: where a drop placement came to rest (from MOVE_LANDING_X2).
  Placement placed(int k) const;
  std::int32_t value(int slot, int k) const { return values[slot * kBlockCapacity + k]; }
};

// Where a feature's values live: its row of CandidateBlock::values (a vector feature's values
// follow from there, one per column) and the kernel group that fills it (0 for the move
// features and the constant, which materialize() fills).
struct FeatureSource {
  int slot;
  std::uint32_t group;
};
FeatureSource feature_source(Feature f);
inline bool is_move_feature(Feature f) {
  return f == Feature::landing_height || f == Feature::eroded_cells || f == Feature::lines;
}

// What a first ply adds to each second-ply candidate's move features.
struct PlyCarry {
  int lines = 0;
  int eroded = 0;
};

// Runs the feature kernel over the block's candidates, padded to the kernel's lane count
// (`kernel_lanes`; block.lanes is a multiple of it), filling the slots of `groups`.
inline void compute_features(CandidateBlock& block, FeatureKernel kernel, int kernel_lanes, std::uint32_t groups,
                             Geometry g) {
  if (!groups) return;
  const int lanes = (block.count + kernel_lanes - 1) / kernel_lanes * kernel_lanes;  // <= block.lanes
  const BoardBlock view{block.cols.data(), kBlockCapacity, lanes, g.width, g.height};
  kernel(view, groups, block.values.data());
}

// Fills `block` with every drop placement of `piece` on `board`: the same boards and moves as
// drop() (placement.h), which stays the one-board reference (tests/test_materialize.cpp).
// Placements that carry their row (reachable ones): engine/search/materialize_rows.h.
void materialize(CandidateBlock& block, const Board& board, Piece piece, Geometry g,
                 Overflow overflow, PlyCarry carry = {});

// Sets block.score for block.count candidates; a terminal candidate scores -infinity.  One
// virtual call per block, never per candidate.
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual void score(CandidateBlock& block) const = 0;
};

// Throws PolicyError if the policy does not fit the board.
std::unique_ptr<Evaluator> make_evaluator(const Policy& policy, Geometry g, FeatureKernel kernel);

struct LinearTerm {
  int slot;       // row of CandidateBlock::values
  double weight;  // policy weight, times 1/2 for MOVE_LANDING_X2 (exact)
};

// w . features, plus the move's lines when the policy has `reward lines`.
class LinearEvaluator final : public Evaluator {
 public:
  LinearEvaluator(const Policy& policy, Geometry g, FeatureKernel kernel);
  // Computes the features and sets block.score.
  void score(CandidateBlock& block) const override;

 private:
  std::vector<LinearTerm> terms_;  // in the policy's weight order: the sum order is fixed
  std::uint32_t groups_ = 0;
  Geometry geometry_;
  FeatureKernel kernel_;
  int lanes_;  // the kernel's vector width: it sees the block padded to a multiple of it
};

// The network's value of each candidate board, plus the move's lines with `reward lines`.
class NTupleEvaluator final : public Evaluator {
 public:
  explicit NTupleEvaluator(const Policy& policy);
  void score(CandidateBlock& block) const override;

 private:
  std::shared_ptr<const NTupleNetwork> network_;
  bool reward_lines_;
};

}  // namespace tb
