// Linear evaluation of a block of candidate placements (DESIGN "Decision", steps 2-4).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "feature_kernels.h"
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

// Candidate boards after their placement and line clears, struct-of-arrays.
struct CandidateBlock {
  alignas(64) std::array<Word, kMaxWidth * kBlockCapacity> cols;  // (kMaxWidth, kBlockCapacity)
  alignas(64) std::array<std::int32_t, VALUE_SLOT_NB * kBlockCapacity> values;  // (VALUE_SLOT_NB, kBlockCapacity)
  std::array<double, kBlockCapacity> score;                      // (kBlockCapacity)
  std::array<Placement, kBlockCapacity> placements;              // (kBlockCapacity)
  std::array<bool, kBlockCapacity> terminal;                     // (kBlockCapacity) move ends the game
  int count = 0;

  Board board(int k) const;
  std::int32_t value(int slot, int k) const { return values[slot * kBlockCapacity + k]; }
};

// What a first ply adds to each second-ply candidate's move features.
struct PlyCarry {
  int lines = 0;
  int eroded = 0;
};

// Fills `block` with every drop placement of `piece` on `board`.
void materialize(CandidateBlock& block, const Board& board, Piece piece, Geometry g,
                 Overflow overflow, PlyCarry carry = {});

class LinearEvaluator {
 public:
  LinearEvaluator(const Policy& policy, Geometry g, FeatureKernel kernel);
  // Computes the features and sets block.score; a terminal candidate scores -infinity.
  void score(CandidateBlock& block) const;

 private:
  struct Term {
    int slot;       // row of CandidateBlock::values
    double weight;  // policy weight, times 1/2 for MOVE_LANDING_X2 (exact)
  };
  std::vector<Term> terms_;  // in the policy's weight order: the sum order is fixed
  std::uint32_t groups_ = 0;
  Geometry geometry_;
  FeatureKernel kernel_;
};

}  // namespace tb
