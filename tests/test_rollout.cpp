// Rollout batches (rollout_batch.h) against the reference play_rollout: bit-identical results
// on start states from real games, with and without forced first moves, for 1 and 2 threads
// and several block sizes, on 10x20 and 10x10, under research and guideline rules.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernel_variants.h"
#include "parallel_play.h"
#include "rule_sets.h"
#include "state_sample.h"

namespace tb {
namespace {

struct Case {
  Rules rules;
  Policy policy;
  std::int64_t length;
  std::int64_t games, cap, every;  // where the start states come from
};

Rules research(int w, int h, Generator gen = Generator::uniform, Overflow over = Overflow::strict) {
  Rules r;
  r.geometry = {w, h};
  r.generator = gen;
  r.overflow = over;
  return r;
}

// A policy that piles pieces up: bcts with every weight negated, so that its rollouts end the
// game within a few pieces (the game-over paths of the batch).
Policy piler() {
  Policy p = load_policy("bcts");
  for (double& w : p.weights) w = -w;
  return p;
}

// Per state: one rollout without a forced move, then `forced` rollouts with random placements
// of its piece (a random action may end the game at once on a tall board); stream ids are
// distinct and random, keyed by `key`.
std::vector<Rollout> random_rollouts(const Rules& rules, const std::vector<RolloutState>& states, int forced,
                                     std::uint64_t key) {
  CounterRng rng{key};
  std::vector<Rollout> out;
  for (std::uint32_t s = 0; s < states.size(); ++s) {
    out.push_back({s, rng.next(), false, {}});
    const std::vector<Placement> actions = rollout_actions(rules, states[s].board, states[s].current);
    if (actions.empty()) continue;
    for (int a = 0; a < forced; ++a)
      out.push_back({s, rng.next(), true, actions[rng.below(static_cast<std::uint32_t>(actions.size()))]});
  }
  return out;
}

struct Counts {
  int game_over = 0, full = 0;
};

// Every result equals the reference's, for 1 and 2 threads and several block sizes.
Counts expect_batch_is_reference(const Case& c, std::uint64_t seed, int forced) {
  const FeatureKernel kernel = best_kernel().kernel;
  Searcher searcher(c.policy, c.rules, kernel);
  GameConfig game;
  game.rules = c.rules;
  game.seed = seed;
  game.max_pieces = c.cap;
  const std::vector<RolloutState> states = sample_states(searcher, game, c.games, c.every);
  EXPECT_GT(states.size(), 10u);
  const RolloutConfig config{c.rules, seed + 1, c.length};
  const std::vector<Rollout> rollouts = random_rollouts(c.rules, states, forced, seed + 2);

  std::vector<RolloutResult> want;
  Counts counts;
  for (const Rollout& r : rollouts) {
    want.push_back(play_rollout(searcher, config, states[r.state], r));
    const std::int64_t pieces = c.length + (r.forced ? 1 : 0);
    if (want.back().game_over) ++counts.game_over;
    else EXPECT_EQ(want.back().pieces, pieces);
    counts.full += want.back().pieces == pieces;
  }
  for (const auto& [threads, block] : std::vector<std::pair<int, std::int64_t>>{{1, 1}, {1, 7}, {1, 0}, {2, 3}, {2, 64}, {2, 0}}) {
    const auto got = play_rollouts(c.policy, config, states, rollouts, threads, kernel, block);
    EXPECT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size() && i < got.size(); ++i)
      if (!(got[i] == want[i])) {
        ADD_FAILURE() << "rollout " << i << " differs from the reference, " << threads << " thread(s), blocks of "
                      << block << ": " << got[i].lines << " vs " << want[i].lines << " lines, " << got[i].pieces
                      << " vs " << want[i].pieces << " pieces";
        break;
      }
  }
  return counts;
}

TEST(Rollout, BatchIsTheReferenceOn10x20) {
  const Counts n = expect_batch_is_reference({research(10, 20), load_policy("bcts"), 10, 4, 600, 5}, 11, 3);
  EXPECT_GT(n.full, 0);
}

TEST(Rollout, BatchIsTheReferenceOn10x10) {
  const Counts n = expect_batch_is_reference(
      {research(10, 10, Generator::bag7, Overflow::clear_first), load_policy("dellacherie"), 6, 4, 400, 4}, 12, 3);
  EXPECT_GT(n.full, 0);
}

TEST(Rollout, GamesThatEndMatchTheReference) {
  const Counts n = expect_batch_is_reference({research(10, 10), piler(), 10, 40, 0, 2}, 13, 4);
  EXPECT_GT(n.game_over, 0);
  EXPECT_GT(n.full, 0);
}

TEST(Rollout, ReachablePlacementsMatchTheReference) {
  Rules guideline = rule_set(RuleSet::guideline);
  expect_batch_is_reference({guideline, load_policy("bcts"), 5, 2, 100, 4}, 14, 2);
  expect_batch_is_reference({guideline, piler(), 5, 20, 0, 2}, 15, 2);
}

TEST(Rollout, LengthZeroPlaysOnlyTheForcedMove) {
  const Rules rules = research(10, 10);
  const std::vector<RolloutState> states = {{board_from_rows({"#########."}), I}};
  const Placement upright{I, 1, 9};  // the vertical I in the last column clears the row
  const std::vector<Rollout> rollouts = {{0, 5, true, upright}, {0, 6, false, {}}};
  const auto got = play_rollouts(load_policy("bcts"), {rules, 1, 0}, states, rollouts, 1, best_kernel().kernel);
  EXPECT_EQ(got[0].lines, 1);
  EXPECT_EQ(got[0].pieces, 1);
  EXPECT_FALSE(got[0].game_over);
  EXPECT_EQ(got[0].final_board, board_from_rows({".........#", ".........#", ".........#"}));
  EXPECT_EQ(got[1].pieces, 0);
  EXPECT_EQ(got[1].final_board, states[0].board);
}

// A game started with GameBatch::start from the empty board and its stream's first piece is
// the game the population constructor makes.
TEST(Rollout, StartedGameIsTheSameGame) {
  GameConfig c;
  c.rules = research(10, 10);
  c.seed = 9;
  c.max_pieces = 300;
  Searcher searcher(load_policy("dellacherie"), c.rules, best_kernel().kernel);
  GameBatch made(0, 1, 1, 77, c), started(1, c);
  PieceStream s = PieceStream::make(c.rules.generator, c.seed, 77);
  const Piece first = s.next();
  started.start(0, Board{}, first, 77, s);
  while (made.alive(0)) step_game(made, 0, searcher);
  while (started.alive(0)) step_game(started, 0, searcher);
  const GameResult a = made.result(0), b = started.result(0);
  EXPECT_EQ(a.lines, b.lines);
  EXPECT_EQ(a.pieces, b.pieces);
  EXPECT_EQ(a.holes_created, b.holes_created);
  EXPECT_EQ(a.height_sum, b.height_sum);
  EXPECT_EQ(a.final_board, b.final_board);
}

// sample_states counts the pieces its games placed: the same as play_games, capped or not.
TEST(Rollout, SampledGamesCountTheirPieces) {
  const Rules rules = research(10, 10);
  const Policy policy = load_policy("bcts");
  Searcher searcher(policy, rules, best_kernel().kernel);
  for (const std::int64_t cap : {0, 40}) {
    GameConfig game;
    game.rules = rules;
    game.seed = 5;
    game.max_pieces = cap;
    std::int64_t pieces = -1;
    sample_states(searcher, game, 3, 7, 2, &pieces);
    std::int64_t want = 0;
    for (const GameResult& r : play_games(policy, game, 3, 1, best_kernel().kernel, nullptr, 2)) want += r.pieces;
    EXPECT_EQ(pieces, want) << "cap " << cap;
  }
}

TEST(Rollout, RejectsABadRollout) {
  const Rules rules = research(10, 10);
  const std::vector<RolloutState> states = {{Board{}, T}};
  const auto run = [&](const Rollout& r) {
    play_rollouts(load_policy("bcts"), {rules, 1, 3}, states, std::vector<Rollout>{r}, 1, best_kernel().kernel);
  };
  EXPECT_THROW(run({1, 0, false, {}}), InputError);               // no state 1
  EXPECT_THROW(run({0, 0, true, {O, 0, 0, kDropRow}}), InputError);  // not the state's piece
  EXPECT_THROW(run({0, 0, true, {T, 4, 0, kDropRow}}), InputError);  // T has 4 orientations
  EXPECT_THROW(run({0, 0, true, {T, 0, 8, kDropRow}}), InputError);  // sticks out on the right
  EXPECT_THROW(run({0, 0, true, {T, 0, 0, 3}}), InputError);         // a row under drop rules
  EXPECT_THROW(play_rollouts(load_policy("bcts"), {rules, 1, -1}, states, {}, 1, best_kernel().kernel), InputError);
}

}  // namespace
}  // namespace tb
