// materialize() (the block path of every decision) against drop() (the one-board reference):
// the same boards, move features and game-over flags for every placement, on boards from
// random play at several sizes and under every overflow rule, for every instruction-set
// variant this CPU runs (search_kernels.h), both for drop placements and for placements that
// carry their row.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "kernel_variants.h"
#include "materialize.h"
#include "piece_stream.h"
#include "placement.h"
#include "reachable.h"
#include "search_kernels.h"

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
    ASSERT_EQ(block.placed(k).row, m.landing_row);
  }
  for (int k = block.count; k < block.lanes; ++k) ASSERT_EQ(block.board(k), base) << "padding lane";
}

// Plays random games under `overflow` and checks every block of `kernel`'s variant, as drops
// and (with each drop's row filled in) as row placements.
long check_variant(FeatureKernel kernel, Overflow overflow, Geometry g, std::uint64_t game) {
  auto block = std::make_unique<CandidateBlock>();
  auto rows = std::make_unique<CandidateBlock>();
  auto appended = std::make_unique<CandidateBlock>();  // append_reachable's block: several steps' rows
  auto set = std::make_unique<ReachableSet>();
  std::vector<Board> kept;  // appended's boards so far
  PieceStream stream = PieceStream::make(Generator::uniform, 99, game);
  CounterRng choice{stream_key(5, game), 0};
  Board board;
  long checked = 0;
  for (int step = 0; step < 300; ++step) {
    const Piece p = stream.next();
    const PlyCarry carry{step % 3, step % 5};
    materialize(*block, board, p, g, overflow, carry, kernel);
    expect_block_matches_drop(*block, board, g, overflow, carry);
    std::array<Placement, kBlockCapacity> placed;
    for (int k = 0; k < block->count; ++k) placed[k] = block->placed(k);
    materialize_rows(*rows, board, placed.data(), block->count, g, overflow, carry, kernel);
    for (int k = 0; k < block->count; ++k) {
      EXPECT_EQ(rows->placements[k], placed[k]);
      EXPECT_EQ(rows->board(k), block->board(k));
      EXPECT_EQ(rows->terminal[k], block->terminal[k]);
      for (int slot : {MOVE_LANDING_X2, MOVE_ERODED, MOVE_LINES, MOVE_CONSTANT})
        EXPECT_EQ(rows->value(slot, k), block->value(slot, k));
    }
    // append_reachable: the same lanes after the ones the block already holds, which it keeps;
    // the padding lanes hold the board.
    if (appended->count + block->count > kBlockCapacity) {
      appended->count = 0;
      kept.clear();
    }
    set->count = block->count;
    set->piece = p;
    for (int k = 0; k < block->count; ++k) set->placements[k] = {placed[k], static_cast<std::int8_t>(placed[k].row), 0};
    const int at = appended->count;
    append_reachable(*appended, board, *set, g, overflow, carry, &search_kernels(kernel));
    EXPECT_EQ(appended->count, at + block->count);
    for (int k = 0; k < at; ++k) EXPECT_EQ(appended->board(k), kept[k]) << "lane " << k << " before the appended ones";
    for (int k = 0; k < block->count; ++k) {
      EXPECT_EQ(appended->placements[at + k], placed[k]);
      EXPECT_EQ(appended->board(at + k), block->board(k));
      EXPECT_EQ(appended->terminal[at + k], block->terminal[k]);
      for (int slot : {MOVE_LANDING_X2, MOVE_ERODED, MOVE_LINES, MOVE_CONSTANT})
        EXPECT_EQ(appended->value(slot, at + k), block->value(slot, k));
      kept.push_back(block->board(k));
    }
    for (int k = appended->count; k < appended->lanes; ++k) EXPECT_EQ(appended->board(k), board) << "padding lane";
    if (::testing::Test::HasFailure()) return checked;
    checked += block->count;
    const Placement pl = block->placements[choice.below(block->count)];
    if (drop(board, pl, g, overflow).game_over) break;
  }
  return checked;
}

TEST(Materialize, EveryVariantMatchesDropOnRandomPlay) {
  for (const KernelVariant& v : kernel_variants()) {
    if (!v.supported()) continue;
    SCOPED_TRACE(std::string(v.name) + " (" + search_kernels(v.kernel).isa + ")");
    long checked = 0;
    for (Overflow overflow : {Overflow::strict, Overflow::clear_first})
      for (Geometry g : {Geometry{4, 4}, Geometry{6, 9}, Geometry{10, 20}, Geometry{16, 28}, Geometry{10, 6}})
        for (std::uint64_t game = 0; game < 12; ++game) {
          checked += check_variant(v.kernel, overflow, g, game);
          if (HasFailure()) return;
        }
    // Hidden-row rules: lee's (any block in the hidden rows) on a board with 2 hidden rows.
    for (std::uint64_t game = 0; game < 12; ++game) checked += check_variant(v.kernel, Overflow::hidden_rows, {10, 22, 2}, game);
    EXPECT_GT(checked, 50000);
  }
}

TEST(Materialize, EachKernelFamilyHasItsOwnVariant) {
  EXPECT_STREQ(search_kernels(features_reference).isa, "reference");
  EXPECT_STREQ(search_kernels(features_scalar).isa, "x86-64-v2");
  if (const KernelVariant* v = find_kernel("avx512"); v && v->supported()) {
    EXPECT_STREQ(search_kernels(v->kernel).isa, "x86-64-v4");
  }
  if (const KernelVariant* v = find_kernel("avx2"); v && v->supported()) {
    EXPECT_STREQ(search_kernels(v->kernel).isa, "x86-64-v3");
  }
}

}  // namespace
}  // namespace tb
