// materialize() (the block path of every decision) against drop() (the one-board reference):
// the same boards, move features and game-over flags for every placement, on boards from
// random play at several sizes and under both overflow rules.
#include <gtest/gtest.h>

#include "evaluator.h"
#include "piece_stream.h"
#include "placement.h"

namespace tb {
namespace {

void expect_block_matches_drop(const CandidateBlock& block, const Board& base, Geometry g,
                               Overflow overflow, PlyCarry carry) {
  for (int k = 0; k < block.count; ++k) {
    Board b = base;
    const Move m = drop(b, block.placements[k], g, overflow);
    ASSERT_EQ(block.terminal[k], m.game_over) << "placement " << k << "\n" << to_text(base, g);
    ASSERT_EQ(block.board(k), b) << k;
    ASSERT_EQ(block.value(MOVE_LINES, k), m.lines + carry.lines);
    ASSERT_EQ(block.value(MOVE_ERODED, k), m.eroded + carry.eroded);
    ASSERT_EQ(block.value(MOVE_LANDING_X2, k), m.landing_height_x2());
    ASSERT_EQ(block.value(MOVE_CONSTANT, k), 1);
  }
  for (int k = block.count; k < block.lanes; ++k) ASSERT_EQ(block.board(k), base) << "padding lane";
}

TEST(Materialize, MatchesDropOnRandomPlay) {
  auto block = std::make_unique<CandidateBlock>();
  long checked = 0;
  for (Overflow overflow : {Overflow::strict, Overflow::clear_first})
    for (Geometry g : {Geometry{4, 4}, Geometry{6, 9}, Geometry{10, 20}, Geometry{16, 28}, Geometry{10, 6}})
      for (std::uint64_t game = 0; game < 30; ++game) {
        PieceStream stream = PieceStream::make(Generator::uniform, 99, game);
        CounterRng choice{stream_key(5, game), 0};
        Board board;
        for (int step = 0; step < 400; ++step) {
          const Piece p = stream.next();
          const PlyCarry carry{step % 3, step % 5};
          materialize(*block, board, p, g, overflow, carry);
          expect_block_matches_drop(*block, board, g, overflow, carry);
          if (HasFatalFailure()) return;
          checked += block->count;
          const Placement pl = block->placements[choice.below(block->count)];
          if (drop(board, pl, g, overflow).game_over) break;
        }
      }
  EXPECT_GT(checked, 100000);
}

}  // namespace
}  // namespace tb
