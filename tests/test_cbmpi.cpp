// The CBMPI learner (experiments/cbmpi/cbmpi.h): the classification loss on a hand-computed table,
// the action table against the engine's own choices, independence of the thread count, exact
// resume from a checkpoint, the piece bound of an iteration, and option and checkpoint errors.
#include <gtest/gtest.h>

#include "cbmpi.h"
#include "cbmpi_classifier.h"
#include "kernel_variants.h"
#include "research_rules.h"
#include "parallel_play.h"
#include "rng.h"
#include "state_sample.h"

namespace tb::cbmpi {
namespace {

using Json = nlohmann::json;

// Small enough for a few seconds: 6x8, N = 20, M = 1, m = 5.
CbmpiConfig small(std::uint64_t seed = 7) {
  return make_cbmpi_config({{"states", 20}, {"rollout_length", 5}, {"cmaes_generations", 8}}, research_rules(6, 8),
                           seed);
}

// Three states of two weights each (phi in the comments; * marks a game-ending action):
//   state 0: (1,0) q 3   (0,1) q 5   (1,1)* q 9
//   state 1: (2,0) q 2   (1,0) q 4
//   state 2: (0,0)* q 0  (0,0)* q 1       every action ends the game: the first is chosen
// w = (1, 0): picks 0, 0, 0 -> regrets 9 - 3, 4 - 2, 1 - 0 = 6, 2, 1 -> loss 9 / 3 = 3
// w = (0, 1): picks 1, 0 (a tie: the first), 0 -> regrets 4, 2, 1 -> loss 7 / 3
TEST(CbmpiLoss, HandComputed) {
  ActionTable t;
  t.dim = 2;
  t.first = {0, 3, 5, 7};
  t.features = {1, 0, 0, 1, 1, 1, 2, 0, 1, 0, 0, 0, 0, 0};
  t.terminal = {0, 0, 1, 0, 0, 1, 1};
  t.q = {3, 5, 9, 2, 4, 0, 1};
  set_best_q(t);
  EXPECT_EQ(t.best_q, (std::vector<double>{9, 4, 1}));
  const double a[] = {1, 0}, b[] = {0, 1};
  EXPECT_EQ(greedy_action(t, 0, a), 0);
  EXPECT_EQ(greedy_action(t, 0, b), 1);
  EXPECT_EQ(greedy_action(t, 1, b), 3);
  EXPECT_EQ(greedy_action(t, 2, a), 5);
  EXPECT_EQ(classification_loss(t, a), 3.0);
  EXPECT_EQ(classification_loss(t, b), 7.0 / 3.0);
}

// States of DT-20 on 10x10: `games` games capped at `max_pieces`, one state every `every` pieces.
std::vector<RolloutState> dt20_states(const Policy& dt20, std::int64_t max_pieces, std::int64_t games,
                                      std::int64_t every) {
  Searcher searcher(dt20, research_rules(10, 10), best_kernel().kernel);
  GameConfig game;
  game.rules = research_rules(10, 10);
  game.max_pieces = max_pieces;
  return sample_states(searcher, game, games, every);
}

// The table's features rate the placements as the engine does: its greedy action is the
// searcher's move on every sampled state of DT-20 on 10x10.
TEST(CbmpiLoss, TableAgreesWithTheSearcher) {
  const Rules rules = research_rules(10, 10);
  const Policy dt20 = load_policy("dt20");
  const FeatureKernel kernel = best_kernel().kernel;
  Searcher searcher(dt20, rules, kernel);
  GameConfig game;
  game.rules = rules;
  game.max_pieces = 300;
  const auto states = sample_states(searcher, game, 3, 3);
  ASSERT_GT(states.size(), 100u);
  const ActionTable t = action_table(*dt20.features, rules, states, kernel);
  ASSERT_EQ(t.dim, static_cast<int>(dt20.weights.size()));
  for (std::int64_t s = 0; s < t.states(); ++s) {
    const auto actions = rollout_actions(rules, states[s].board, states[s].current);
    ASSERT_EQ(t.first[s + 1] - t.first[s], static_cast<std::int64_t>(actions.size()));
    const Placement want = searcher.choose(states[s].board, states[s].current, states[s].current);
    const Placement got = actions[greedy_action(t, s, dt20.weights.data()) - t.first[s]];
    EXPECT_EQ(got.orientation, want.orientation) << "state " << s;
    EXPECT_EQ(got.column, want.column) << "state " << s;
  }
}

// More states than one part of the parallel build (512): the same table on 1 and 2 threads.
TEST(CbmpiLoss, TableIsTheSameOnOneAndTwoThreads) {
  const Rules rules = research_rules(10, 10);
  const Policy dt20 = load_policy("dt20");
  const FeatureKernel kernel = best_kernel().kernel;
  const auto states = dt20_states(dt20, 400, 4, 1);
  ASSERT_GT(states.size(), 1100u);
  const ActionTable a = action_table(*dt20.features, rules, states, kernel, 1);
  const ActionTable b = action_table(*dt20.features, rules, states, kernel, 2);
  EXPECT_EQ(a.first, b.first);
  EXPECT_EQ(a.features, b.features);
  EXPECT_EQ(a.terminal, b.terminal);
  EXPECT_EQ(a.states(), static_cast<std::int64_t>(states.size()));
}

TEST(Cbmpi, SameWeightsOnOneAndTwoThreads) {
  const FeatureKernel kernel = best_kernel().kernel;
  Cbmpi one(small(), kernel), two(small(), kernel);
  for (int k = 0; k < 2; ++k) {
    const Iteration a = one.iterate(1), b = two.iterate(2);
    EXPECT_EQ(a.pieces, b.pieces);
    EXPECT_EQ(a.loss_after, b.loss_after);
  }
  EXPECT_EQ(one.policy_weights(), two.policy_weights());
  EXPECT_EQ(one.value_weights(), two.value_weights());
  EXPECT_EQ(one.pieces(), two.pieces());
  EXPECT_NE(one.policy_weights(), std::vector<double>(one.policy_weights().size(), 0.0));
}

TEST(Cbmpi, ResumesExactly) {
  const FeatureKernel kernel = best_kernel().kernel;
  Cbmpi straight(small(), kernel);
  for (int k = 0; k < 3; ++k) straight.iterate(2);
  Cbmpi first(small(), kernel);
  for (int k = 0; k < 2; ++k) first.iterate(1);
  const std::string checkpoint = first.to_json().dump();
  Cbmpi resumed(small(), kernel);
  resumed.restore(Json::parse(checkpoint));
  EXPECT_EQ(resumed.to_json(), first.to_json());
  resumed.iterate(1);
  EXPECT_EQ(resumed.iterations(), 3);
  EXPECT_EQ(resumed.policy_weights(), straight.policy_weights());
  EXPECT_EQ(resumed.value_weights(), straight.value_weights());
  EXPECT_EQ(resumed.pieces(), straight.pieces());
}

// With selection, policy() is the iterate whose selection games scored highest (the earliest of
// equals), the iteration goes on from the last one, and a checkpoint keeps the selected iterate.
TEST(Cbmpi, SelectionReturnsTheBestIterate) {
  const FeatureKernel kernel = best_kernel().kernel;
  const CbmpiConfig config = make_cbmpi_config({{"states", 20}, {"rollout_length", 5}, {"cmaes_generations", 8},
                                                {"select_games", 3}, {"select_max_pieces", 500}},
                                               research_rules(6, 8), 7);
  Cbmpi l(config, kernel);
  double best = -1;
  std::vector<double> best_w;
  std::int64_t best_k = 0;
  for (int k = 0; k < 4; ++k) {
    const Iteration it = l.iterate(2);
    ASSERT_GE(it.selection_lines, 0);
    if (it.selection_lines > best) {
      best = it.selection_lines;
      best_w = l.policy_weights();
      best_k = k + 1;
    }
  }
  EXPECT_EQ(l.selected_iteration(), best_k);
  EXPECT_EQ(l.policy().weights, best_w);
  // The selection games, replayed here: the selected weights' mean is the best one recorded.
  GameConfig game;
  game.rules = config.rules;
  game.seed = stream_key(config.seed ^ kSelectStream, 0);
  game.max_pieces = 500;
  double lines = 0;
  for (const GameResult& g : play_games(l.policy(), game, 3, 1, kernel, nullptr)) lines += static_cast<double>(g.lines);
  EXPECT_EQ(lines / 3, best);
  Cbmpi resumed(config, kernel);
  resumed.restore(Json::parse(l.to_json().dump()));
  EXPECT_EQ(resumed.policy().weights, best_w);
  EXPECT_EQ(resumed.to_json(), l.to_json());
  // Without selection the last iterate is returned.
  Cbmpi last(small(), kernel);
  last.iterate(1);
  EXPECT_EQ(last.policy().weights, last.policy_weights());
  EXPECT_EQ(last.selected_iteration(), 0);
}

// Each iteration stays within its bound, so a driver that starts an iteration only when the
// bound fits never passes its budget.
TEST(Cbmpi, IterationsStayWithinTheirBound) {
  for (const std::int64_t every : {1, 3}) {
    const std::int64_t select = every == 3 ? 2 : 0;  // selection games on the second pass
    Cbmpi l(make_cbmpi_config({{"states", 30}, {"rollout_length", 4}, {"rollouts_per_action", 2},
                               {"sample_every", every}, {"cmaes_generations", 4}, {"select_games", select},
                               {"select_max_pieces", 400}},
                              research_rules(6, 8), 3),
            best_kernel().kernel);
    // 30 x every sampled pieces + 30 states x 18 placements (T, J, L on 6 columns: 4 + 5 + 4 + 5)
    // x 2 x 5 + the selection games' caps.
    EXPECT_EQ(l.iteration_bound(), 30 * every + 30 * 18 * 2 * 5 + select * 400);
    const std::int64_t budget = 3 * l.iteration_bound() / 2;
    while (l.pieces() + l.iteration_bound() <= budget) {
      const std::int64_t before = l.pieces();
      const Iteration it = l.iterate(2);
      EXPECT_EQ(it.states, 30);
      EXPECT_GT(it.pieces, 0);
      EXPECT_LE(it.pieces, l.iteration_bound());
      EXPECT_EQ(l.pieces(), before + it.pieces);
    }
    EXPECT_LE(l.pieces(), budget);
    EXPECT_GE(l.iterations(), 1);
  }
}

void expect_option_error(const Json& options, const std::string& needle, Rules rules = research_rules(10, 10)) {
  try {
    make_cbmpi_config(options, rules, 1);
    ADD_FAILURE() << "accepted " << options.dump();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(needle), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

TEST(CbmpiConfig, OptionErrors) {
  expect_option_error({{"gamma", 0.9}}, "unknown cbmpi option 'gamma'");
  expect_option_error({{"states", 0}}, "cbmpi option 'states' must be an integer in [1, ");
  expect_option_error({{"states", 2.5}}, "cbmpi option 'states' must be an integer");
  expect_option_error({{"rollout_length", -1}}, "cbmpi option 'rollout_length' must be an integer in [0, ");
  expect_option_error({{"rollouts_per_action", 0}}, "cbmpi option 'rollouts_per_action'");
  expect_option_error({{"sample_every", 0}}, "cbmpi option 'sample_every'");
  expect_option_error({{"ridge", -1.0}}, "cbmpi option 'ridge' must be a finite number in [0, ");
  expect_option_error({{"cmaes_sigma0", 0.0}}, "cbmpi option 'cmaes_sigma0'");
  expect_option_error({{"cmaes_lambda", 1}}, "must be 0 (the default) or at least 2");
  expect_option_error({{"cmaes_generations", 0}}, "cbmpi option 'cmaes_generations'");
  expect_option_error({{"policy_features", "nope"}}, "unknown feature set 'nope'");
  expect_option_error({{"policy_features", 3}}, "cbmpi option 'policy_features' must be a feature set name");
  expect_option_error({{"value_features", "dt"}}, "has the move feature 'landing_height'");
  expect_option_error({{"select_games", 3}}, "'select_max_pieces' must be set");
  expect_option_error({{"select_games", -1}}, "cbmpi option 'select_games'");
  expect_option_error({{"select_games", 10'000}, {"select_max_pieces", 1'000'000'000'000'000}},
                      "select_games x select_max_pieces must be at most");
  Rules two_ply = research_rules(10, 10);
  two_ply.lookahead = 1;
  expect_option_error(Json::object(), "cbmpi needs drop placements and one-piece decisions", two_ply);
  EXPECT_THROW(make_cbmpi_config(Json::array(), research_rules(10, 10), 1), InputError);
  const CbmpiConfig d = make_cbmpi_config(Json::object(), research_rules(10, 20), 1);
  EXPECT_EQ(d.states, 84'000);
  EXPECT_EQ(d.rollout_length, 5);
  EXPECT_EQ(d.rollouts_per_action, 1);
  EXPECT_EQ(d.policy_features, "dt");
}

TEST(CbmpiCheckpoint, RefusesForeignOrBrokenOnes) {
  const FeatureKernel kernel = best_kernel().kernel;
  Cbmpi l(small(), kernel);
  const Json good = l.to_json();
  const auto refused = [&](Json j, const std::string& needle) {
    Cbmpi target(small(), kernel);
    try {
      target.restore(j);
      ADD_FAILURE() << "accepted " << j.dump();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
    EXPECT_EQ(target.to_json(), good);  // unchanged
  };
  refused(Cbmpi(small(8), kernel).to_json(), "another configuration");
  Json j = good;
  j["version"] = 9;
  refused(j, "unknown version");
  j = good;
  j["policy_weights"] = {1, 2};
  refused(j, "policy_weights must be an array of 9");
  j = good;
  j["pieces"] = -1;
  refused(j, "pieces must be an integer");
  j = good;
  j.erase("value_weights");
  refused(j, "value_weights: missing");
}

}  // namespace
}  // namespace tb::cbmpi
