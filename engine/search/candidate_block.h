// The candidate block: every placement of one piece on one board, each as the board after its
// lock and clears plus its move features, struct-of-arrays (docs/architecture.md "One decision path").
// materialize.h fills it, the feature kernels and evaluators read it; it is the searcher's
// private scratch, and callers get a Decision (search.h) instead.
#pragma once

#include <array>
#include <cstdint>

#include "feature_kernels.h"
#include "placement.h"

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

// What a first ply adds to each second-ply candidate's move features.
struct PlyCarry {
  int lines = 0;
  int eroded = 0;
};

}  // namespace tb
