// The drop scorer (engine/search/drop_scorer.h) against the reference block path: drop() per
// candidate (materialize with features_reference), the cell-loop feature kernel and the plain
// sum.  Every rating must be bit-identical, for every vector variant this CPU runs, on boards
// from random play and on random boards full of holes, overhangs and wells, for every feature
// set it supports and random subsets of its features, random weights, every overflow rule and
// first-ply carries.  Then whole searches: decisions with each kernel equal the reference's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "drop_scorer.h"
#include "evaluator.h"
#include "kernel_variants.h"
#include "materialize.h"
#include "piece_stream.h"
#include "placement.h"
#include "random_ratings.h"
#include "rule_sets.h"
#include "search.h"

namespace tb {
namespace {

using namespace test_util;  // random ratings and boards

// Each instruction set's pass of the width and family that take any rating.
const DropPassFn kPasses[] = {kDropPassesAvx512.back().back(), kDropPassesAvx2.back().back(),
                              kDropPassesSse42.back().back()};
const char* const kPassNames[] = {"avx512", "avx2", "sse4.2"};

// Empty cells under each column's top, summed, and the highest column top.
std::pair<int, int> holes_and_height(const Board& b, Geometry g) {
  int holes = 0, height = 0;
  for (int c = 0; c < g.width; ++c) {
    const int h = column_height(b.cols[c]);
    holes += h - popcount(b.cols[c]);
    height = std::max(height, h);
  }
  return {holes, height};
}

// Checks the scorer of variant `name` against the reference block path on one board and piece.
void expect_same_ratings(const char* name, const Rating& r, const Board& board, Piece piece, Geometry g,
                         Overflow overflow, PlyCarry carry) {
  Rules rules = rule_set(RuleSet::research);
  rules.geometry = g;
  rules.overflow = overflow;
  const KernelVariant* v = find_kernel(name);
  ASSERT_NE(v, nullptr);
  const LinearEvaluator fast_eval(r.policy, g, v->kernel);
  const std::unique_ptr<DropScorer> scorer =
      DropScorer::make(fast_eval.terms().data(), static_cast<int>(fast_eval.terms().size()), fast_eval.groups(), rules,
                       v->kernel);
  ASSERT_NE(scorer, nullptr) << name;
  const DropScores& s = scorer->rate(board, piece, carry);

  auto block = std::make_unique<CandidateBlock>();
  materialize(*block, board, piece, g, overflow, carry, features_reference);
  const LinearEvaluator reference(r.policy, g, features_reference);
  reference.score(*block);
  ASSERT_EQ(s.count, block->count);
  for (int k = 0; k < s.count; ++k) {
    const bool rare = (s.rare >> k) & 1;
    ASSERT_EQ(std::bit_cast<std::uint64_t>(s.score[k]), std::bit_cast<std::uint64_t>(block->score[k]))
        << name << " candidate " << k << " of piece " << static_cast<int>(piece) << ": " << s.score[k]
        << " vs " << block->score[k] << (rare ? " (rare)" : "") << "\n"
        << to_text(board, g);
    ASSERT_EQ(s.row[k], block->placed(k).row) << k;
    const Placement pl = scorer->placement(piece, k);
    ASSERT_EQ(pl.orientation, block->placements[k].orientation);
    ASSERT_EQ(pl.column, block->placements[k].column);
    if (!rare) {  // the base board plus the piece, nothing cleared, the game goes on
      ASSERT_FALSE(block->terminal[k]);
      ASSERT_EQ(block->value(MOVE_LINES, k), carry.lines);
      Board plus = board;
      const Orientation& o = kShapes[piece].orientation[pl.orientation];
      for (int i = 0; i < o.width; ++i) plus.cols[pl.column + i] |= o.mask[i] << s.row[k];
      ASSERT_EQ(block->board(k), plus) << k;
    }
    // A rare candidate that does not end the game keeps its board, lines, holes and height.
    ASSERT_EQ(((s.kept >> k) & 1) != 0, rare && !block->terminal[k]) << name << " candidate " << k;
    if ((s.kept >> k) & 1) {
      ASSERT_EQ(s.boards[k], block->board(k)) << name << " candidate " << k << "\n" << to_text(board, g);
      ASSERT_EQ(s.lines[k] + carry.lines, block->value(MOVE_LINES, k));
      ASSERT_EQ(s.eroded[k] + carry.eroded, block->value(MOVE_ERODED, k));
      const auto [holes, height] = holes_and_height(block->board(k), g);
      ASSERT_EQ(s.holes_after[k], holes);
      ASSERT_EQ(s.height_after[k], height);
    }
  }
  // The best candidate (the first highest rating) and the game loop's counters after it.
  int best = 0;
  for (int k = 1; k < block->count; ++k)
    if (block->score[k] > block->score[best]) best = k;
  ASSERT_EQ(s.best, best) << name;
  if (block->terminal[best]) {
    ASSERT_EQ(s.best_holes, -1) << name;
  } else {
    const auto [holes, height] = holes_and_height(block->board(best), g);
    ASSERT_EQ(s.best_holes, holes) << name << "\n" << to_text(board, g);
    ASSERT_EQ(s.best_wall_height, height) << name;
  }
  // DropMode::with_values (the 2-ply bound reads them): the same ratings, and each quiet
  // candidate's values of the rating's groups.
  const DropScores& with = scorer->rate(board, piece, carry, true);
  ASSERT_EQ(with.count, block->count);
  for (int k = 0; k < with.count; ++k) {
    ASSERT_EQ(std::bit_cast<std::uint64_t>(with.score[k]), std::bit_cast<std::uint64_t>(block->score[k])) << name;
    if ((with.rare >> k) & 1) continue;
    for (int slot = 0; slot < DropScores::kValueSlots; ++slot)
      if (fast_eval.groups() & (1u << slot))
        ASSERT_EQ(with.values[slot][k], block->value(slot, k))
            << name << " candidate " << k << " slot " << slot << " of piece " << static_cast<int>(piece) << "\n"
            << to_text(board, g);
  }
}

TEST(DropScorer, MatchesTheReferenceBlockPathOnRandomBoards) {
  struct Case {
    Geometry g;
    Overflow overflow;
  };
  const Case cases[] = {{{10, 20}, Overflow::strict},     {{10, 20}, Overflow::clear_first},
                        {{4, 4}, Overflow::strict},       {{4, 4}, Overflow::clear_first},
                        {{5, 9}, Overflow::strict},       {{16, 28}, Overflow::strict},
                        {{16, 28}, Overflow::clear_first}, {{10, 10}, Overflow::strict},
                        {{13, 6}, Overflow::clear_first}, {{10, 22, 2}, Overflow::hidden_rows},
                        {{10, 22, 2}, Overflow::lock_out}, {{12, 8}, Overflow::strict}};
  long ratings = 0;
  for (int vi = 0; vi < 3; ++vi) {
    const KernelVariant* v = find_kernel(kPassNames[vi]);
    if (!v || !v->supported()) continue;
    CounterRng rng{stream_key(17, static_cast<std::uint64_t>(vi)), 0};
    for (const Case& c : cases) {
      for (int trial = 0; trial < 150; ++trial) {
        const Rating r = random_rating(rng, trial % 3 == 0 ? std::vector<Feature>(std::begin(kSupported), std::end(kSupported))
                                                              : random_features(rng),
                                       c.g);
        const int top = wall_limit(c.overflow, c.g);
        const Board board = random_board(rng, c.g, top);
        const PlyCarry carry{static_cast<int>(rng.below(3)), static_cast<int>(rng.below(12))};
        for (int p = 0; p < PIECE_NB; ++p) {
          expect_same_ratings(kPassNames[vi], r, board, static_cast<Piece>(p), c.g, c.overflow, carry);
          if (HasFailure()) return;
          ratings += 1;
        }
      }
    }
  }
  EXPECT_GT(ratings, 10000);
}

// Boards whose columns hold one run of holes at most (random_board_one_run), the usual case in
// play: there the AVX2 and SSE4.2 passes weigh the well cells in holes by each column's lowest
// run (lowest_run) rather than by run planes; with a second run in one column, by the planes
// again.  Random boards (above) nearly always have a column with two runs.
TEST(DropScorer, MatchesTheReferenceWithOneRunOfHolesPerColumn) {
  long ratings = 0;
  for (int vi = 0; vi < 3; ++vi) {
    const KernelVariant* v = find_kernel(kPassNames[vi]);
    if (!v || !v->supported()) continue;
    CounterRng rng{stream_key(29, static_cast<std::uint64_t>(vi)), 0};
    for (Geometry g : {Geometry{10, 20}, Geometry{6, 8}, Geometry{16, 28}, Geometry{12, 10}}) {
      for (int trial = 0; trial < 120; ++trial) {
        const Rating r = random_rating(rng, trial % 2 == 0 ? std::vector<Feature>{Feature::wells, Feature::holes}
                                                           : random_features(rng),
                                       g);
        const Board board = random_board_one_run(rng, g, wall_limit(Overflow::strict, g), trial % 3 == 0);
        for (int p = 0; p < PIECE_NB; ++p) {
          expect_same_ratings(kPassNames[vi], r, board, static_cast<Piece>(p), g, Overflow::strict, {});
          if (HasFailure()) return;
          ratings += 1;
        }
      }
    }
  }
  EXPECT_GT(ratings, 3000);
}

// Ratings with many ties (one coarse feature with an integer weight, or every weight 0), where
// only the candidates' order picks the best: the first highest, as the reference.  With AVX-512
// on 10 columns, T, J and L rate orientations 0 and 2 in one row (docs/performance.md "Pair
// rows") but must still see them in candidate order; a fold that kept the later of two equal
// ratings fails here.
TEST(DropScorer, TiesGoToTheFirstCandidate) {
  const Geometry g{10, 20};
  const std::vector<Feature> coarse[] = {{Feature::holes},
                                         {Feature::landing_height},
                                         {Feature::rows_with_holes},
                                         {Feature::col_transitions, Feature::holes},
                                         {Feature::wells, Feature::constant}};
  long ties = 0;
  for (int vi = 0; vi < 3; ++vi) {
    const KernelVariant* v = find_kernel(kPassNames[vi]);
    if (!v || !v->supported()) continue;
    CounterRng rng{stream_key(23, static_cast<std::uint64_t>(vi)), 0};
    for (int trial = 0; trial < 120; ++trial) {
      for (const std::vector<Feature>& f : coarse) {
        Rating r = random_rating(rng, f, g);
        for (double& w : r.policy.weights) w = trial % 4 == 0 ? 0.0 : -1.0 - static_cast<double>(rng.below(3));
        r.policy.reward_lines = false;
        const Board board = random_board(rng, g, wall_limit(Overflow::strict, g));
        for (int p = 0; p < PIECE_NB; ++p) {
          expect_same_ratings(kPassNames[vi], r, board, static_cast<Piece>(p), g, Overflow::strict, {});
          if (HasFailure()) return;
          // Count the decisions with a tie for the highest rating (the case this test is for).
          auto block = std::make_unique<CandidateBlock>();
          materialize(*block, board, static_cast<Piece>(p), g, Overflow::strict, {}, features_reference);
          LinearEvaluator(r.policy, g, features_reference).score(*block);
          const double top = *std::max_element(block->score.begin(), block->score.begin() + block->count);
          ties += std::count(block->score.begin(), block->score.begin() + block->count, top) > 1;
        }
      }
    }
  }
  EXPECT_GT(ties, 3000);  // (of 3 x 120 x 5 x 7 = 12,600 decisions on a CPU with all three)
}

// Which weights integral_weights takes: integers times 2^-s (s up to 16) whose integers sum to
// at most 2^16, with the smallest s.
TEST(DropScorer, IntegralWeightsOnlyWhereTheSumsAreExact) {
  const auto check = [](std::vector<double> weights) {
    std::vector<LinearTerm> terms;
    for (double w : weights) terms.push_back({SLOT_HOLES, w});
    DropRating r;
    r.terms = terms.data();
    r.term_count = static_cast<int>(terms.size());
    integral_weights(r);
    return r;
  };
  // Dellacherie's terms: the landing height's weight is halved (MOVE_LANDING_X2).
  const DropRating dellacherie = check({-0.5, 1, -1, -1, -4, -1});
  ASSERT_TRUE(dellacherie.integral);
  EXPECT_EQ(dellacherie.unit, 0.5);
  const std::int32_t expected[] = {-1, 2, -2, -2, -8, -2};
  for (int t = 0; t < 6; ++t) EXPECT_EQ(dellacherie.integer_weight[t], expected[t]) << t;
  const DropRating whole = check({3, -7, 0});
  EXPECT_TRUE(whole.integral);
  EXPECT_EQ(whole.unit, 1.0);
  EXPECT_EQ(whole.integer_weight[1], -7);
  EXPECT_TRUE(check({0.75, std::ldexp(3.0, -16)}).integral);  // s = 16
  EXPECT_EQ(check({0.75, std::ldexp(3.0, -16)}).unit, std::ldexp(1.0, -16));
  EXPECT_FALSE(check({std::ldexp(1.0, -17)}).integral);        // s above 16
  EXPECT_FALSE(check({-12.63, 6.60, -9.22}).integral);          // BCTS's
  EXPECT_TRUE(check({32768, -32768}).integral);                 // the sum at 2^16
  EXPECT_FALSE(check({32768, -32769}).integral);                // past it
  EXPECT_FALSE(check({0.5, 32768}).integral);                   // past it at s = 1
  EXPECT_FALSE(check(std::vector<double>(DropRating::kMaxIntegralTerms + 1, 1.0)).integral);
  EXPECT_FALSE(check({std::numeric_limits<double>::infinity()}).integral);
}

// Ratings whose weights are integers times 2^-s, which the AVX passes sum in int32
// (DropRating::integral): small random ones, and ones whose integers sum to near the bound
// 2^16, on random boards up to 16 x 28 (where the values are largest), as the reference.
TEST(DropScorer, IntegralWeightsRateAsTheReference) {
  const Geometry geometries[] = {{10, 20}, {16, 28}, {4, 4}, {13, 6}};
  long integral = 0;
  for (int vi = 0; vi < 3; ++vi) {
    const KernelVariant* v = find_kernel(kPassNames[vi]);
    if (!v || !v->supported()) continue;
    CounterRng rng{stream_key(31, static_cast<std::uint64_t>(vi)), 0};
    for (const Geometry g : geometries)
      for (int trial = 0; trial < 150; ++trial) {
        Rating r = random_rating(rng, trial % 3 == 0 ? std::vector<Feature>(std::begin(kSupported), std::end(kSupported))
                                                       : random_features(rng),
                                 g);
        const int s = static_cast<int>(rng.below(5));
        // Near the bound: each integer up to 2^15 / count (the landing height's weight is halved,
        // which may double the others' integers).
        const int large = trial % 4 == 0 ? 32768 / static_cast<int>(r.policy.weights.size() + 1) : 20;
        for (double& w : r.policy.weights)
          w = std::ldexp(static_cast<double>(static_cast<int>(rng.below(2 * large + 1)) - large), -s);
        Rules rules = rule_set(RuleSet::research);
        rules.geometry = g;
        const LinearEvaluator eval(r.policy, g, v->kernel);
        const std::unique_ptr<DropScorer> scorer =
            DropScorer::make(eval.terms().data(), static_cast<int>(eval.terms().size()), eval.groups(), rules, v->kernel);
        ASSERT_NE(scorer, nullptr);
        integral += scorer->rating().integral;
        const Board board = random_board(rng, g, wall_limit(Overflow::strict, g));
        const PlyCarry carry{static_cast<int>(rng.below(3)), static_cast<int>(rng.below(12))};
        for (int p = 0; p < PIECE_NB; ++p) {
          expect_same_ratings(kPassNames[vi], r, board, static_cast<Piece>(p), g, Overflow::strict, carry);
          if (HasFailure()) return;
        }
      }
  }
  EXPECT_GT(integral, 400) << "the ratings must take the integral path";
}

// Boards from play (flat stacks, rows about to clear), with the built-in feature sets.
TEST(DropScorer, MatchesTheReferenceBlockPathInRandomPlay) {
  const char* const sets[] = {"dellacherie", "bcts", "dt", "eltetris", "lee", "pso7"};
  long rare = 0, total = 0;
  for (int vi = 0; vi < 3; ++vi) {
    const KernelVariant* v = find_kernel(kPassNames[vi]);
    if (!v || !v->supported()) continue;
    for (const char* set : sets)
      for (Geometry g : {Geometry{10, 20}, Geometry{6, 8}, Geometry{16, 12}}) {
        CounterRng rng{stream_key(23, static_cast<std::uint64_t>(vi * 100 + g.width)), 0};
        const FeatureSet* fs = find_feature_set(set);
        ASSERT_NE(fs, nullptr) << set;
        Rating r = random_rating(rng, std::vector<Feature>(fs->features.begin(), fs->features.end()), g);
        PieceStream stream = PieceStream::make(Generator::uniform, 7, static_cast<std::uint64_t>(g.width));
        Rules rules = rule_set(RuleSet::research);
        rules.geometry = g;
        Searcher player(load_policy("bcts"), rules, features_reference);
        Board board;
        for (int step = 0; step < 400; ++step) {
          const Piece p = stream.next();
          expect_same_ratings(kPassNames[vi], r, board, p, g, Overflow::strict, {});
          if (HasFailure()) return;
          // BCTS plays the game: flat stacks and rows about to clear.
          const Decision d = player.decide(board, p, p);
          rare += d.lines > 0;
          total += 1;
          if (d.game_over) break;
          board = d.board;
        }
      }
  }
  EXPECT_GT(rare, 100) << "play must clear rows, so that the rare path is covered";
  EXPECT_GT(total, 5000);
}

// Whole decisions: each kernel's searcher (drop scorer on avx512, avx2, sse4.2; block path on
// scalar) against the reference's, greedy and 2-ply, with and without tie noise; and guideline
// 2-ply, where the drop scorer rates the second plies whose placements are the drops.
TEST(DropScorer, SearchesDecideAsTheReference) {
  for (int lookahead : {0, 1, 2})
    for (const char* policy : {"bcts", "dt20", "dellacherie", "lee"}) {
      Rules rules = rule_set(lookahead == 2 ? RuleSet::guideline : RuleSet::research);
      if (lookahead < 2) rules.geometry = {10, 12};
      rules.lookahead = lookahead == 2 ? 1 : lookahead;
      const Policy pol = load_policy(policy);
      Searcher reference(pol, rules, features_reference);
      for (const KernelVariant& v : kernel_variants()) {
        if (!v.supported() || v.kernel == features_reference) continue;
        Searcher fast(pol, rules, v.kernel);
        PieceStream stream = PieceStream::make(Generator::uniform, 3, 1);
        CounterRng noise_a{stream_key(9, 1), 0}, noise_b{stream_key(9, 1), 0};
        Board board;
        Piece current = stream.next(), next = stream.next();
        const int steps = lookahead == 2 ? 60 : lookahead ? 120 : 600;
        for (int step = 0; step < steps; ++step) {
          const double tie = step % 2 ? 0.5 : 0.0;
          const Decision a = reference.decide(board, current, next, tie, &noise_a);
          const Decision b = fast.decide(board, current, next, tie, &noise_b);
          ASSERT_EQ(a.placement, b.placement) << v.name << " " << policy << " step " << step;
          ASSERT_EQ(a.row, b.row);
          ASSERT_EQ(a.board, b.board);
          ASSERT_EQ(a.lines, b.lines);
          ASSERT_EQ(a.game_over, b.game_over);
          if (a.game_over) break;
          board = a.board;
          current = next;
          next = stream.next();
        }
      }
    }
}

// The full pass still runs DropMode::rare_only (kept for its code layout: docs/performance.md);
// it must agree with the rare-only pass DropScorer::rate_rare takes, candidate for candidate.
TEST(DropScorer, FullPassInRareOnlyModeMatchesTheRareOnlyPass) {
  long rare = 0;
  for (int vi = 0; vi < 3; ++vi) {
    const KernelVariant* v = find_kernel(kPassNames[vi]);
    if (!v || !v->supported()) continue;
    CounterRng rng{stream_key(29, static_cast<std::uint64_t>(vi)), 0};
    for (Geometry g : {Geometry{10, 20}, Geometry{6, 9}, Geometry{16, 28}}) {
      Rules rules = rule_set(RuleSet::research);
      rules.geometry = g;
      for (int trial = 0; trial < 300; ++trial) {
        const Rating r = random_rating(rng, random_features(rng), g);
        const LinearEvaluator eval(r.policy, g, v->kernel);
        const std::unique_ptr<DropScorer> scorer =
            DropScorer::make(eval.terms().data(), static_cast<int>(eval.terms().size()), eval.groups(), rules, v->kernel);
        ASSERT_NE(scorer, nullptr);
        const Board board = random_board(rng, g, g.height - 4);
        const Piece piece = static_cast<Piece>(rng.below(PIECE_NB));
        const PlyCarry carry{static_cast<int>(rng.below(3)), static_cast<int>(rng.below(12))};
        auto full = std::make_unique<DropScores>();
        kPasses[vi](scorer->rating(), board, piece, carry, DropMode::rare_only, *full);
        const DropScores& only = scorer->rate_rare(board, piece, carry);
        ASSERT_EQ(full->count, only.count);
        ASSERT_EQ(full->rare, only.rare);
        ASSERT_EQ(full->kept, only.kept);
        ASSERT_EQ(full->best, only.best) << kPassNames[vi];
        for (int k = 0; k < only.count; ++k) {
          ASSERT_EQ(std::bit_cast<std::uint64_t>(full->score[k]), std::bit_cast<std::uint64_t>(only.score[k]))
              << kPassNames[vi] << " candidate " << k;
          ASSERT_EQ(full->row[k], only.row[k]) << k;
        }
        rare += std::popcount(only.rare);
      }
    }
  }
  EXPECT_GT(rare, 100) << "the random boards must have rows to clear";
}

TEST(DropScorer, OnlyWhereItApplies) {
  Rules research = rule_set(RuleSet::research);
  const Policy bcts = load_policy("bcts");
  const LinearEvaluator eval(bcts, research.geometry, nullptr);
  const auto make = [&](const Rules& rules, FeatureKernel k) {
    return DropScorer::make(eval.terms().data(), static_cast<int>(eval.terms().size()), eval.groups(), rules, k);
  };
  EXPECT_EQ(make(research, features_reference), nullptr);
  EXPECT_EQ(make(research, features_scalar), nullptr);
  EXPECT_EQ(make(rule_set(RuleSet::guideline), nullptr), nullptr);  // reachable placements
  EXPECT_EQ(DropScorer::make(eval.terms().data(), 1, G_HEIGHTS, research, nullptr), nullptr);
  if (find_kernel("sse4.2")->supported()) {
    EXPECT_NE(make(research, features_sse42), nullptr);
  }
}

// The built-in policies take the rating families made for them (drop_family), so that their
// passes carry no other group's code, and 10-wide boards their own width's passes; every pass
// matches the reference (the tests above make their scorers through DropScorer::make, which
// picks the width and the family, on 10-wide boards and others).
TEST(DropScorer, BuiltInPoliciesTakeTheirFamilies) {
  const Geometry g{10, 20};
  const auto family_of = [&](const char* policy) {
    return drop_family(LinearEvaluator(load_policy(policy), g, nullptr).groups());
  };
  EXPECT_EQ(family_of("bcts"), 0);
  EXPECT_EQ(family_of("dellacherie"), 0);
  EXPECT_EQ(family_of("eltetris"), 0);
  EXPECT_EQ(family_of("dt20"), 1);
  EXPECT_EQ(family_of("lee"), 2);
  EXPECT_EQ(family_of("article3"), 2);
  for (int f = 0; f < kDropFamilyCount; ++f) {
    EXPECT_EQ(kDropFamilies[f] & ~kDropScorerGroups, 0u) << f;
    EXPECT_EQ(drop_family(kDropFamilies[f]), f) << "family " << f << " is covered by an earlier one";
  }
  EXPECT_EQ(drop_family(kDropScorerGroups), kDropFamilyCount - 1);
  EXPECT_EQ(drop_family(G_HOLES | G_MAX_HEIGHT), kDropFamilyCount - 1);
  // Widths: 10 has passes of its own, any other width the last ones.
  EXPECT_EQ(kDropWidths[drop_width(10)], 10);
  for (int w : {4, 6, 9, 11, 16}) EXPECT_EQ(drop_width(w), kDropWidthCount - 1) << w;
}

}  // namespace
}  // namespace tb
