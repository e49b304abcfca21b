// The named rule sets (docs/rules.md "Rule sets"): names, game-over rules on hand-made boards
// (block-out, lock-out, article 4's hidden rows), article 4's pair rated without clears
// between the plies, reachable placements in the game loop, and blocks of more than
// kBlockCapacity reachable placements.
#include <gtest/gtest.h>

#include <cfloat>
#include <memory>
#include <vector>

#include "evaluator.h"
#include "game.h"
#include "materialize_rows.h"
#include "policy.h"
#include "reachable.h"
#include "rule_sets.h"
#include "search.h"

namespace tb {
namespace {

const FeatureKernel kKernel = &features_scalar;

// Fills column c, rows [from, to).
void fill(Board& b, int c, int from, int to) {
  for (int r = from; r < to; ++r) b.cols[c] |= Word{1} << r;
}

bool has_overhang(const Board& b, Geometry g) {
  for (int c = 0; c < g.width; ++c)
    if (popcount(b.cols[c]) != b.height_of(c)) return true;
  return false;
}

TEST(RuleSets, NamesRoundTrip) {
  EXPECT_EQ(rule_set_name(rule_set(RuleSet::research)), "research");
  EXPECT_EQ(rule_set_name(rule_set(RuleSet::guideline)), "guideline");
  EXPECT_EQ(rule_set_name(rule_set(RuleSet::lee)), "lee");
  Rules r;
  r.generator = Generator::bag7;
  r.overflow = Overflow::clear_first;
  r.lookahead = 1;
  EXPECT_EQ(rule_set_name(r), "research+bag7+clear-first+lookahead1");  // unchanged by issue 6
  Rules g = rule_set(RuleSet::guideline);
  g.lookahead = 1;
  g.rotation = RotationSystem::simple;
  EXPECT_EQ(rule_set_name(g), "guideline+lookahead1+simple-kicks");
  for (const Rules& want : {r, g, rule_set(RuleSet::lee), rule_set(RuleSet::guideline)}) {
    Rules got;
    EXPECT_EQ(parse_rule_set_name(rule_set_name(want), want.geometry, got), "") << rule_set_name(want);
    EXPECT_EQ(rule_set_name(got), rule_set_name(want));
    EXPECT_EQ(got.geometry.height, want.geometry.height);
    EXPECT_EQ(got.geometry.hidden, want.geometry.hidden);
    EXPECT_EQ(got.clear_between_plies, want.clear_between_plies);
  }
  Rules bad;
  EXPECT_NE(parse_rule_set_name("tetris99", {10, 20}, bad), "");
  EXPECT_NE(parse_rule_set_name("lee+turbo", {10, 20}, bad), "");
  EXPECT_NE(parse_rule_set_name("research+lock-out", {10, 20}, bad), "");  // no hidden rows
}

TEST(RuleSets, PresetsAreWhatDocsRulesSays) {
  const Rules g = rule_set(RuleSet::guideline), l = rule_set(RuleSet::lee);
  for (const Rules& r : {g, l}) {
    EXPECT_EQ(r.geometry.width, 10);
    EXPECT_EQ(r.geometry.height, 22);
    EXPECT_EQ(r.geometry.hidden, 2);
    EXPECT_EQ(r.generator, Generator::bag7);
    EXPECT_EQ(check_rules(r), "");
  }
  EXPECT_EQ(g.placement, PlacementModel::reachable);
  EXPECT_EQ(g.overflow, Overflow::lock_out);
  EXPECT_EQ(spawn_row(g), 20);
  EXPECT_EQ(l.placement, PlacementModel::drop);
  EXPECT_EQ(l.overflow, Overflow::hidden_rows);
  EXPECT_EQ(l.lookahead, 1);
  EXPECT_FALSE(l.clear_between_plies);
}

// ---------------------------------------------------------------------------------------
// Game over on hand-made boards

TEST(GameOver, GuidelineBlockOutWhenTheSpawnOverlapsTheStack) {
  const Rules rules = rule_set(RuleSet::guideline);
  Searcher s(load_policy("bcts"), rules, kKernel);
  Board b;
  fill(b, 4, 0, 21);  // column 4 reaches hidden row 20, where every spawn has a cell
  for (Piece p : {I, O, T, S, Z, J, L}) EXPECT_EQ(s.choose_index(b, p, O, 0.0, nullptr), -1) << kPieceChar[p];
  Board free_spawn;
  fill(free_spawn, 0, 0, 21);  // a hidden cell away from the spawn: still playable
  EXPECT_GE(s.choose_index(free_spawn, T, O, 0.0, nullptr), 0);
}

TEST(GameOver, GuidelineLockOutOnlyWhenThePieceIsEntirelyHidden) {
  const Rules rules = rule_set(RuleSet::guideline);
  const Geometry g = rules.geometry;
  Board b;
  for (int c = 3; c <= 6; ++c) fill(b, c, 0, 20);  // a tower up to the top visible row
  Board hidden = b;
  const Move out = drop(hidden, Placement{O, 0, 4, 20}, g, rules.overflow);
  EXPECT_TRUE(out.game_over);
  EXPECT_EQ(out.lines, 0);
  Board partly = b;
  fill(partly, 9, 0, 19);
  const Move in = drop(partly, Placement{O, 0, 8, 19}, g, rules.overflow);  // rows 19 and 20
  EXPECT_FALSE(in.game_over);

  // The block path agrees: the O on the tower is terminal, the O on the floor is not.
  auto set = std::make_unique<ReachableSet>();
  auto block = std::make_unique<CandidateBlock>();
  ASSERT_GT(find_reachable(b, g, O, spawn_row(rules), rules.rotation, *set), 0);
  materialize_reachable(*block, b, *set, 0, g, rules.overflow);
  int checked = 0;
  for (int k = 0; k < block->count; ++k) {
    const Placement pl = block->placements[k];
    Board copy = b;
    const Move m = drop(copy, pl, g, rules.overflow);
    EXPECT_EQ(block->terminal[k], m.game_over) << int(pl.column) << " row " << int(pl.row);
    EXPECT_EQ(block->board(k), copy);
    checked += pl.row == 20 || pl.row == 0;
  }
  EXPECT_GE(checked, 2);
}

TEST(GameOver, LeeEndsOnAnyBlockInTheHiddenRowsAfterClears) {
  const Rules rules = rule_set(RuleSet::lee);
  const Geometry g = rules.geometry;
  Board tall;
  fill(tall, 0, 0, 20);
  Board copy = tall;
  EXPECT_TRUE(drop(copy, Placement{O, 0, 0}, g, rules.overflow).game_over);  // rows 20, 21
  copy = tall;
  EXPECT_FALSE(drop(copy, Placement{O, 0, 0}, g, Overflow::strict).game_over);  // fits in 22 rows

  // A vertical I reaching row 20 that clears rows 17..19 comes back below the hidden rows.
  Board shelf;
  for (int c = 0; c <= 8; ++c) fill(shelf, c, 17, 20);
  fill(shelf, 9, 0, 17);
  copy = shelf;
  const Move m = drop(copy, Placement{I, 1, 9}, g, rules.overflow);
  EXPECT_EQ(m.lines, 3);
  EXPECT_FALSE(m.game_over);

  // materialize() (the drop block path) applies the same rule.
  auto block = std::make_unique<CandidateBlock>();
  for (const Board* b : {&tall, &shelf}) {
    materialize(*block, *b, *b == tall ? O : I, g, rules.overflow);
    for (int k = 0; k < block->count; ++k) {
      Board c = *b;
      const Move want = drop(c, block->placements[k], g, rules.overflow);
      EXPECT_EQ(block->terminal[k], want.game_over) << k;
      if (!want.game_over) {
        EXPECT_EQ(block->board(k), c) << k;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Article 4's pair: no clears between the plies

TEST(LeePair, SecondPlySeesTheUnclearedGridAndCountsItsFullRows) {
  const Geometry g{10, 22, 2};
  Board base;
  for (int c = 0; c <= 5; ++c) fill(base, c, 0, 1);
  const Placement first{I, 0, 6, 0};  // completes row 0
  UnclearedPair pair{piece_board(first, 0)};
  Board grid = base;
  for (int c = 0; c < g.width; ++c) grid.cols[c] |= pair.first_cells.cols[c];

  auto uncleared = std::make_unique<CandidateBlock>();
  materialize_drops_uncleared(*uncleared, grid, O, g, Overflow::hidden_rows, pair);
  EXPECT_EQ(uncleared->placed(0), (Placement{O, 0, 0, 1}));  // O rests on the full row
  EXPECT_EQ(uncleared->value(MOVE_LINES, 0), 1);           // which still counts as a line
  EXPECT_EQ(uncleared->value(MOVE_ERODED, 0), 4);          // 1 row x the I's 4 cells in it
  EXPECT_EQ(uncleared->board(0).cols[0], Word{0b111});     // and is still there
  EXPECT_FALSE(uncleared->terminal[0]);

  // The default (RULES): the first ply's row is cleared before the second ply.
  auto first_block = std::make_unique<CandidateBlock>();
  materialize(*first_block, base, I, g, Overflow::hidden_rows);
  int k = 0;
  while (!(first_block->placements[k] == Placement{I, 0, 6})) ++k;
  auto cleared = std::make_unique<CandidateBlock>();
  materialize(*cleared, first_block->board(k), O, g, Overflow::hidden_rows,
              {first_block->value(MOVE_LINES, k), first_block->value(MOVE_ERODED, k)});
  EXPECT_EQ(cleared->placed(0), (Placement{O, 0, 0, 0}));
  EXPECT_EQ(cleared->value(MOVE_LINES, 0), 1);
  EXPECT_EQ(cleared->board(0).cols[0], Word{0b11});
}

// Replays a game's placements from the empty board; calls fn(board before, piece, move).
template <class Fn>
void for_each_position(const std::vector<Placement>& moves, const Rules& rules, Fn fn) {
  Board b;
  for (const Placement& pl : moves) {
    fn(b, static_cast<Piece>(pl.piece), pl);
    drop(b, pl, rules.geometry, rules.overflow);
  }
}

TEST(LeePair, TheSearchDiffersFromClearingBetweenPlies) {
  const Rules lee = rule_set(RuleSet::lee);
  Rules clearing = lee;
  clearing.clear_between_plies = true;
  const Policy policy = load_policy("lee");
  Searcher a(policy, lee, kKernel);
  GameConfig config;
  config.rules = lee;
  config.max_pieces = 300;
  std::vector<Placement> moves;
  const GameResult result = play_game(a, config, 0, &moves);
  ASSERT_EQ(result.pieces, 300);
  Searcher b(policy, clearing, kKernel);
  int differ = 0;
  for (std::size_t i = 0; i + 1 < moves.size(); ++i) {
    Board board;
    for (std::size_t j = 0; j < i; ++j) drop(board, moves[j], lee.geometry, lee.overflow);
    const Piece p = static_cast<Piece>(moves[i].piece), next = static_cast<Piece>(moves[i + 1].piece);
    const int ka = a.choose_index(board, p, next, 0.0, nullptr);
    EXPECT_EQ(a.first_ply().placed(ka), moves[i]);  // the game loop's choice
    const int kb = b.choose_index(board, p, next, 0.0, nullptr);
    differ += !(a.first_ply().placed(ka) == b.first_ply().placed(kb));
    if (i > 120) break;
  }
  EXPECT_GT(differ, 0);
}

// ---------------------------------------------------------------------------------------
// Reachable placements in the game loop

TEST(Reachable, GuidelineGamesFindMorePlacementsThanDropsUnderOverhangs) {
  const Rules rules = rule_set(RuleSet::guideline);
  Searcher s(load_policy("dellacherie"), rules, kKernel);
  GameConfig config;
  config.rules = rules;
  config.max_pieces = 400;
  std::vector<Placement> moves;
  const GameResult result = play_game(s, config, 1, &moves);
  EXPECT_EQ(result.pieces, static_cast<std::int64_t>(moves.size()));
  EXPECT_GT(result.lines, 0);
  auto set = std::make_unique<ReachableSet>();
  int overhang_boards = 0, more = 0;
  for_each_position(moves, rules, [&](const Board& b, Piece p, Placement played) {
    const int n = find_reachable(b, rules.geometry, p, spawn_row(rules), rules.rotation, *set);
    bool found = false;
    for (int i = 0; i < n; ++i)
      found = found || (set->placements[i].placement.orientation == played.orientation &&
                        set->placements[i].placement.column == played.column && set->placements[i].row == played.row);
    EXPECT_TRUE(found) << "a played placement is not reachable";
    if (!has_overhang(b, rules.geometry)) return;
    ++overhang_boards;
    Placement drops[kMaxPlacements];
    more += n > static_cast<int>(generate_drops(p, rules.geometry.width, drops) - drops);
  });
  EXPECT_GT(overhang_boards, 0);
  EXPECT_GT(more, 0);

  // A hand-made overhang: T can slide under the roof, so the block is strictly larger.
  Board roof;
  for (int c = 2; c <= 5; ++c) fill(roof, c, 2, 3);
  auto block = std::make_unique<CandidateBlock>();
  find_reachable(roof, rules.geometry, T, spawn_row(rules), rules.rotation, *set);
  materialize_reachable(*block, roof, *set, 0, rules.geometry, rules.overflow);
  auto drops = std::make_unique<CandidateBlock>();
  materialize(*drops, roof, T, rules.geometry, rules.overflow);
  EXPECT_GT(set->count, drops->count);
  EXPECT_EQ(block->count, std::min(set->count, kBlockCapacity));
}

TEST(Reachable, MoreThanOneBlockOfCandidatesIsSearchedWhole) {
  Rules rules = rule_set(RuleSet::guideline);
  Board b;  // two roofs with room under them and around them
  for (int c = 3; c <= 6; ++c) fill(b, c, 12, 13);
  for (int c = 3; c <= 6; ++c) fill(b, c, 5, 6);
  auto set = std::make_unique<ReachableSet>();
  const int n = find_reachable(b, rules.geometry, T, spawn_row(rules), rules.rotation, *set);
  ASSERT_GT(n, kBlockCapacity);
  const Policy bcts = load_policy("bcts");
  for (int lookahead : {0, 1}) {
    rules.lookahead = lookahead;
    Searcher s(bcts, rules, kKernel);
    const int k = s.choose_index(b, T, I, 0.0, nullptr);
    ASSERT_GE(k, 0);
    const Placement chosen = s.first_ply().placed(k);
    Board after = b;
    drop(after, chosen, rules.geometry, rules.overflow);
    EXPECT_EQ(s.first_ply().board(k), after);
    if (lookahead == 1) continue;
    // Brute force: every candidate's rating, block by block; the first best wins.
    auto evaluator = make_evaluator(bcts, rules.geometry, kKernel);
    auto block = std::make_unique<CandidateBlock>();
    double best = -DBL_MAX;
    Placement want{};
    for (int from = 0; from < n; from += kBlockCapacity) {
      materialize_reachable(*block, b, *set, from, rules.geometry, rules.overflow);
      evaluator->score(*block);
      for (int j = 0; j < block->count; ++j)
        if (block->score[j] > best) {
          best = block->score[j];
          want = block->placements[j];
        }
    }
    EXPECT_EQ(chosen, want);
  }
}

}  // namespace
}  // namespace tb
