#include "candidate_block.h"

namespace tb {

Placement CandidateBlock::placed(int k) const {
  Placement pl = placements[k];
  if (pl.row == kDropRow)
    pl.row = static_cast<std::uint8_t>(
        (value(MOVE_LANDING_X2, k) - kShapes[pl.piece].orientation[pl.orientation].height + 1) / 2);
  return pl;
}

Board CandidateBlock::board(int k) const {
  Board b;
  for (int c = 0; c < width; ++c) b.cols[c] = cols[c * kBlockCapacity + k];
  return b;
}

}  // namespace tb
