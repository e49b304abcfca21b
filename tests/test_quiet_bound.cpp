// 2-ply pruning (engine/search/quiet_bound.h, Searcher's pruned 2-ply): the bound holds for
// every quiet second ply, the rare-only pass rates the rare candidates exactly, a pass's board
// values are the reference kernel's, the bound from a block of reachable first placements holds
// too, and pruned 2-ply (drop and reachable placements) chooses what rating every pair chooses.
// Random ratings include positive weights and every supported feature; boards come from random
// fills (holes, overhangs, deep wells) and from play.
#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <memory>
#include <vector>

#include "drop_scorer.h"
#include "evaluator.h"
#include "kernel_variants.h"
#include "piece_stream.h"
#include "placement.h"
#include "materialize.h"
#include "quiet_bound.h"
#include "reachable.h"
#include "random_ratings.h"
#include "rule_sets.h"
#include "search.h"

namespace tb {
namespace {

using namespace test_util;  // random ratings and boards

const char* const kPassNames[] = {"avx512", "avx2", "sse4.2"};

Rules drop_rules(Geometry g, Overflow overflow, int lookahead) {
  Rules rules = rule_set(RuleSet::research);
  rules.geometry = g;
  rules.overflow = overflow;
  rules.lookahead = lookahead;
  return rules;
}

struct Scorer {
  std::unique_ptr<LinearEvaluator> eval;
  std::unique_ptr<DropScorer> drops;
};

Scorer make_scorer(const Policy& policy, const Rules& rules, const KernelVariant& v) {
  Scorer s;
  s.eval = std::make_unique<LinearEvaluator>(policy, rules.geometry, v.kernel);
  s.drops = DropScorer::make(s.eval->terms().data(), static_cast<int>(s.eval->terms().size()), s.eval->groups(),
                             rules, v.kernel);
  return s;
}

int lowest_top(const Board& b, Geometry g) {
  int low = g.height;
  for (int c = 0; c < g.width; ++c) low = std::min(low, column_height(b.cols[c]));
  return low;
}

// Checks one (board, current, next): the with_values pass's values against the reference
// kernel on each quiet first candidate's board, every quiet second ply against its bound, and
// the rare-only pass against the full one.  Returns the quiet second plies checked.
long check_bounds(const Scorer& first_scorer, const Scorer& second_scorer, const Board& board, Piece current,
                  Piece next, Geometry g, Overflow overflow) {
  const DropScores& first = first_scorer.drops->rate(board, current, {}, true);
  std::vector<double> bound(first.count);
  quiet_bounds(first_scorer.drops->rating(), first, lowest_top(board, g), next, bound.data());
  const std::uint32_t groups = first_scorer.drops->rating().groups;
  long checked = 0;
  for (int k = 0; k < first.count; ++k) {
    if ((first.rare >> k) & 1) {
      EXPECT_EQ(bound[k], HUGE_VAL) << k;
      continue;
    }
    Board after = board;
    const Placement pl = first_scorer.drops->placement(current, k);
    const Move m = drop(after, pl, g, overflow);
    EXPECT_FALSE(m.game_over);
    EXPECT_EQ(m.lines, 0);
    // The pass's values of the board after k are the reference kernel's.
    std::int32_t ref[SLOT_NB];
    BoardBlock block{after.cols.data(), 1, 1, g.width, g.height};
    features_reference(block, G_ALL, ref);
    for (int slot = 0; slot < DropScores::kValueSlots; ++slot)
      if (groups & (1u << slot)) {
        EXPECT_EQ(first.values[slot][k], ref[slot]) << "slot " << slot << " candidate " << k;
      }

    const DropScores& second = second_scorer.drops->rate(after, next, {});
    const std::uint64_t rare = second.rare;
    std::vector<double> scores(second.score.begin(), second.score.begin() + second.count);
    for (int j = 0; j < second.count; ++j) {
      if ((rare >> j) & 1) continue;
      EXPECT_LE(scores[j], bound[k]) << "quiet second ply " << j << " of first placement " << k << "\n"
                                     << to_text(after, g);
      ++checked;
    }
    // The rare-only pass: the same rare candidates and ratings, the quiet ones -infinity.
    const DropScores& only = second_scorer.drops->rate_rare(after, next, {});
    EXPECT_EQ(only.rare, rare);
    for (int j = 0; j < only.count; ++j) {
      if ((rare >> j) & 1) {
        EXPECT_EQ(std::bit_cast<std::uint64_t>(only.score[j]), std::bit_cast<std::uint64_t>(scores[j])) << j;
      } else {
        EXPECT_EQ(only.score[j], -HUGE_VAL) << j;
      }
    }
    if (::testing::Test::HasFailure()) return checked;
  }
  return checked;
}

TEST(QuietBound, BoundsEveryQuietSecondPlyOnRandomBoards) {
  const Geometry sizes[] = {{10, 20}, {4, 6}, {6, 9}, {12, 8}, {16, 28}, {13, 14}};
  long checked = 0;
  for (int vi = 0; vi < 3; ++vi) {
    const KernelVariant* v = find_kernel(kPassNames[vi]);
    if (!v || !v->supported()) continue;
    CounterRng rng{stream_key(41, static_cast<std::uint64_t>(vi)), 0};
    for (Geometry g : sizes)
      for (int trial = 0; trial < 60; ++trial) {
        const std::vector<Feature> all(std::begin(kSupported), std::end(kSupported));
        const Rating r = random_rating(rng, trial % 2 ? random_features(rng) : all, g);
        const Overflow overflow = trial % 3 ? Overflow::strict : Overflow::clear_first;
        const Rules rules = drop_rules(g, overflow, 0);
        const Scorer a = make_scorer(r.policy, rules, *v), b = make_scorer(r.policy, rules, *v);
        ASSERT_NE(a.drops, nullptr);
        const Board board = random_board(rng, g, wall_limit(overflow, g) - 2);
        const Piece current = static_cast<Piece>(rng.below(PIECE_NB)), next = static_cast<Piece>(rng.below(PIECE_NB));
        checked += check_bounds(a, b, board, current, next, g, overflow);
        if (HasFailure()) return;
      }
  }
  EXPECT_GT(checked, 100000);
}

// Boards from BCTS play, rated by the built-in policies (all weights of the usual signs, so the
// bound is tight enough to prune: the test also counts how often it would).
TEST(QuietBound, BoundsEveryQuietSecondPlyInPlay) {
  long checked = 0, prunable = 0, firsts = 0;
  const KernelVariant& v = best_kernel();
  for (const char* name : {"bcts", "dellacherie", "dt20"}) {
    const Policy policy = load_policy(name);
    const Rules rules = drop_rules({10, 20}, Overflow::strict, 0);
    const Scorer a = make_scorer(policy, rules, v), b = make_scorer(policy, rules, v);
    if (!a.drops) GTEST_SKIP() << "no vector drop scorer on this CPU";
    Searcher player(load_policy("bcts"), rules, nullptr);
    PieceStream stream = PieceStream::make(Generator::uniform, 5, 0);
    Board board;
    Piece current = stream.next(), next = stream.next();
    for (int step = 0; step < 300; ++step) {
      checked += check_bounds(a, b, board, current, next, rules.geometry, rules.overflow);
      if (HasFailure()) return;
      // How many first placements a bound below the best follow-up rules out.
      const DropScores& first = a.drops->rate(board, current, {}, true);
      std::vector<double> bound(first.count), follow(first.count, -HUGE_VAL);
      quiet_bounds(a.drops->rating(), first, lowest_top(board, rules.geometry), next, bound.data());
      const std::uint64_t first_rare = first.rare;
      double best = -HUGE_VAL;
      for (int k = 0; k < static_cast<int>(bound.size()); ++k) {
        if ((first_rare >> k) & 1) continue;
        Board after = board;
        drop(after, a.drops->placement(current, k), rules.geometry, rules.overflow);
        const DropScores& s = b.drops->rate(after, next, {});
        follow[k] = s.score[s.best];
        best = std::max(best, follow[k]);
      }
      for (int k = 0; k < static_cast<int>(bound.size()); ++k) {
        prunable += bound[k] < best;
        firsts += 1;
      }
      const Decision d = player.decide(board, current, next);
      if (d.game_over) break;
      board = d.board;
      current = next;
      next = stream.next();
    }
  }
  EXPECT_GT(checked, 50000);
  // Measured 0.5-0.8 of first placements on played boards; far less would make pruning useless.
  EXPECT_GT(prunable, firsts / 3) << prunable << " of " << firsts;
}

// The first placement 2-ply chooses when every pair is rated: the highest best follow-up (from
// -DBL_MAX; -infinity for a move that ends the game), the first one on ties.
Placement unpruned_choice(const Scorer& s, const Board& board, Piece current, Piece next, const Rules& rules) {
  Placement pls[kMaxPlacements];
  const int count = static_cast<int>(generate_drops(current, rules.geometry.width, pls) - pls);
  int best = 0;
  double best_score = 0;
  for (int k = 0; k < count; ++k) {
    Board after = board;
    const Move m = drop(after, pls[k], rules.geometry, rules.overflow);
    double score = -HUGE_VAL;
    if (!m.game_over) {
      const DropScores& f = s.drops->rate(after, next, {m.lines, m.eroded});
      score = f.count > 0 && f.score[f.best] > -DBL_MAX ? f.score[f.best] : -DBL_MAX;
    }
    if (k == 0 || score > best_score) {
      best = k;
      best_score = score;
    }
  }
  return pls[best];
}

// Pruned 2-ply (Searcher, vector kernels) against rating every pair: the same choice on random
// boards, with random ratings, and along games; and ties (a symmetric board and rating).
TEST(QuietBound, PrunedTwoPlyChoosesAsEveryPairDoes) {
  long decisions = 0;
  for (int vi = 0; vi < 3; ++vi) {
    const KernelVariant* v = find_kernel(kPassNames[vi]);
    if (!v || !v->supported()) continue;
    CounterRng rng{stream_key(43, static_cast<std::uint64_t>(vi)), 0};
    for (Geometry g : {Geometry{10, 20}, Geometry{6, 10}, Geometry{12, 16}})
      for (int trial = 0; trial < 40; ++trial) {
        const bool builtin = trial % 2 == 0;
        const Rating r = random_rating(rng, random_features(rng), g);
        const Policy policy = builtin ? load_policy(trial % 4 ? "bcts" : "dellacherie") : r.policy;
        const Overflow overflow = trial % 3 ? Overflow::strict : Overflow::clear_first;
        const Rules rules = drop_rules(g, overflow, 1);
        Searcher searcher(policy, rules, v->kernel);
        const Scorer all = make_scorer(policy, drop_rules(g, overflow, 0), *v);
        Board board = random_board(rng, g, std::min(6, wall_limit(overflow, g) - 2));
        PieceStream stream = PieceStream::make(Generator::uniform, 11, static_cast<std::uint64_t>(trial));
        Piece current = stream.next(), next = stream.next();
        for (int step = 0; step < 25; ++step) {
          const Decision d = searcher.decide(board, current, next);
          ASSERT_EQ(d.placement, unpruned_choice(all, board, current, next, rules))
              << v->name << " trial " << trial << " step " << step << "\n"
              << to_text(board, g);
          ++decisions;
          if (d.game_over) break;
          board = d.board;
          current = next;
          next = stream.next();
        }
      }
  }
  EXPECT_GT(decisions, 2000);
}

// A random board up to row 4 with `rows` rows on top of it that each miss 1-3 random cells
// (open above, so moves that clear rows, in either ply, are common on it).
Board nearly_full_board(CounterRng& rng, Geometry g, int rows) {
  Board b = random_board(rng, g, 4);
  for (int c = 0; c < g.width; ++c) b.cols[c] = (b.cols[c] & low_mask(4)) | low_mask(rows) << 4;
  for (int r = 4; r < 4 + rows; ++r)
    for (std::uint64_t gaps = 1 + rng.below(3); gaps > 0; --gaps) b.cols[rng.below(g.width)] &= ~(Word{1} << r);
  return b;
}

// The bound from a block of reachable first placements' values (the form rate_pruned uses):
// every quiet drop second ply after each first placement that clears nothing, tucks and spins
// among them, is below its bound; first placements that clear rows are unbounded.
TEST(QuietBound, BoundsFromABlockOfReachableFirstPlacements) {
  Rules rules = rule_set(RuleSet::guideline);
  const Geometry g = rules.geometry;
  const KernelVariant* v = find_kernel("avx2");
  if (!v || !v->supported()) GTEST_SKIP() << "no avx2";
  CounterRng rng{stream_key(53, 0), 0};
  auto set = std::make_unique<ReachableSet>();
  auto block = std::make_unique<CandidateBlock>();
  long checked = 0, bounded = 0, unbounded_seen = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Rating r = random_rating(rng, random_features(rng), g);
    const Policy policy = trial % 2 == 0 ? load_policy(trial % 4 ? "bcts" : "dellacherie") : r.policy;
    const Scorer scorer = make_scorer(policy, drop_rules(g, rules.overflow, 0), *v);
    if (!scorer.drops) continue;  // a feature the drop scorer does not rate
    const Board board = trial % 4 < 2 ? nearly_full_board(rng, g, 3) : random_board(rng, g, 12);
    const Piece current = static_cast<Piece>(rng.below(PIECE_NB)), next = static_cast<Piece>(rng.below(PIECE_NB));
    const int n = find_reachable_placements(board, g, current, spawn_row(rules), rules.rotation, *set);
    for (int from = 0; from < n; from += kBlockCapacity) {
      materialize_reachable(*block, board, *set, from, g, rules.overflow, {}, nullptr, nullptr);
      scorer.eval->score(*block);
      std::uint64_t clears = 0;
      for (int k = 0; k < block->count; ++k) clears |= std::uint64_t{block->value(MOVE_LINES, k) > 0} << k;
      std::vector<double> bound(block->count);
      quiet_bounds(scorer.drops->rating(), *block, lowest_top(board, g), next, bound.data());
      for (int k = 0; k < block->count; ++k) {
        if ((clears >> k) & 1) {
          EXPECT_EQ(bound[k], HUGE_VAL) << k;
          ++unbounded_seen;
          continue;
        }
        if (block->terminal[k]) continue;
        const Board after = block->board(k);
        const DropScores& second = scorer.drops->rate(after, next, {});
        ++bounded;
        for (int j = 0; j < second.count; ++j) {
          if ((second.rare >> j) & 1) continue;
          EXPECT_LE(second.score[j], bound[k]) << "quiet second ply " << j << " after reachable first placement "
                                               << from + k << " (trial " << trial << ")\n"
                                               << to_text(after, g);
          ++checked;
        }
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
  EXPECT_GT(checked, 50000);
  EXPECT_GT(bounded, 2000);
  EXPECT_GT(unbounded_seen, 30);
}

// Pruned 2-ply under guideline rules (Searcher::rate_pruned: the first ply's block values bound
// the quiet drop second plies; tucks and spins are always rated) against the reference
// kernel's searcher, which has no drop scorer and rates every reachable pair: the same choice
// and board on random boards (holes beside open air, so tucks occur) and along games.
TEST(QuietBound, PrunedReachableTwoPlyChoosesAsEveryPairDoes) {
  Rules rules = rule_set(RuleSet::guideline);
  rules.lookahead = 1;
  const Geometry g = rules.geometry;
  long decisions = 0;
  for (int vi = 0; vi < 3; ++vi) {
    const KernelVariant* v = find_kernel(kPassNames[vi]);
    if (!v || !v->supported()) continue;
    CounterRng rng{stream_key(47, static_cast<std::uint64_t>(vi)), 0};
    for (int trial = 0; trial < 32; ++trial) {
      const Rating r = random_rating(rng, random_features(rng), g);
      const Policy policy = trial % 2 == 0 ? load_policy(trial % 4 ? "bcts" : "dellacherie") : r.policy;
      Searcher pruned(policy, rules, v->kernel);
      Searcher every_pair(policy, rules, features_reference);
      Board board = trial % 3 == 1 ? nearly_full_board(rng, g, 4) : random_board(rng, g, 12);
      PieceStream stream = PieceStream::make(Generator::bag7, 13, static_cast<std::uint64_t>(trial));
      Piece current = stream.next(), next = stream.next();
      for (int step = 0; step < 20; ++step) {
        const Decision d = pruned.decide(board, current, next);
        const Decision want = every_pair.decide(board, current, next);
        ASSERT_EQ(d.locked(), want.locked()) << v->name << " trial " << trial << " step " << step << "\n"
                                             << to_text(board, g);
        ASSERT_EQ(d.board, want.board);
        ++decisions;
        if (d.game_over) break;
        board = d.board;
        current = next;
        next = stream.next();
      }
    }
  }
  if (decisions == 0) GTEST_SKIP() << "no vector drop-scorer pass on this CPU";
  EXPECT_GT(decisions, 300) << decisions;
}

}  // namespace
}  // namespace tb
