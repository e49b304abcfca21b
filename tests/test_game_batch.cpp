// GameBatch and play_population: common random numbers, policy indexing, and the memory
// budget of a game in a batch.
#include <gtest/gtest.h>

#include "game_batch.h"
#include "parallel_play.h"

namespace tb {
namespace {

GameConfig config_10x10(std::int64_t cap) {
  GameConfig c;
  c.rules.geometry = {10, 10};
  c.seed = 42;
  c.max_pieces = cap;
  return c;
}

TEST(GameBatch, TenByTwentyGameFitsIn128Bytes) {
  EXPECT_LE(GameBatch::bytes_per_game(10), 128u);
  EXPECT_EQ(GameBatch::bytes_per_game(10), 128u);  // 40 board + 88 state
}

TEST(GameBatch, StartsEveryGameFromItsStream) {
  const GameConfig c = config_10x10(0);
  GameBatch batch(0, 6, 3, 100, c);
  for (std::int64_t g = 0; g < 6; ++g) {
    EXPECT_EQ(batch.policy_of(g), static_cast<std::uint32_t>(g / 3));
    EXPECT_EQ(batch.stream_id[g], 100u + static_cast<std::uint64_t>(g % 3));
    PieceStream s = PieceStream::make(c.rules.generator, c.seed, batch.stream_id[g]);
    EXPECT_EQ(batch.piece_key[g], stream_key(c.seed, batch.stream_id[g]));
    EXPECT_EQ(batch.current[g], s.next());
    EXPECT_EQ(batch.next[g], s.next());
    EXPECT_EQ(batch.draws[g], s.rng.counter);
  }
}

TEST(GameBatch, ASubRangeMapsToPopulationGames) {
  const GameConfig c = config_10x10(0);
  GameBatch part(4, 9, 3, 100, c);  // population games 4..8 with 3 games per policy
  ASSERT_EQ(part.size(), 5);
  for (std::int64_t i = 0; i < 5; ++i) {
    EXPECT_EQ(part.policy_of(i), static_cast<std::uint32_t>((4 + i) / 3));
    EXPECT_EQ(part.stream_id[i], 100u + static_cast<std::uint64_t>((4 + i) % 3));
  }
}

TEST(PlayPopulation, PoliciesShareThePieceStreams) {
  const GameConfig c = config_10x10(1500);
  const std::vector<Policy> policies = {load_policy("bcts"), load_policy("dellacherie"),
                                        load_policy("bcts")};
  const auto r = play_population(policies, c, 5, 2, features_scalar, nullptr, 7);
  ASSERT_EQ(r.size(), 15u);
  const auto alone = play_games(policies[1], c, 5, 1, features_scalar, nullptr, 7);
  for (int i = 0; i < 5; ++i) {
    // Policy 0 and policy 2 are the same weights on the same streams: identical games.
    EXPECT_EQ(r[i].lines, r[10 + i].lines);
    EXPECT_EQ(r[i].pieces, r[10 + i].pieces);
    EXPECT_EQ(r[i].final_board, r[10 + i].final_board);
    EXPECT_EQ(r[i].index, 7u + i);
    // Policy 1 inside the population plays exactly as it does alone.
    EXPECT_EQ(r[5 + i].lines, alone[i].lines);
    EXPECT_EQ(r[5 + i].pieces, alone[i].pieces);
    EXPECT_EQ(r[5 + i].final_board, alone[i].final_board);
  }
  // Different policies on the same streams play different games.
  int differ = 0;
  for (int i = 0; i < 5; ++i) differ += r[i].pieces != r[5 + i].pieces;
  EXPECT_GT(differ, 0);
}

TEST(PlayPopulation, RejectsAWeightCountThatDoesNotFit) {
  Policy p = load_policy("bcts");
  p.weights.pop_back();
  EXPECT_THROW(play_population(std::span<const Policy>(&p, 1), config_10x10(10), 1, 1,
                               features_scalar, nullptr),
               PolicyError);
}

}  // namespace
}  // namespace tb
