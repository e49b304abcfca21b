// The named rule sets (docs/rules.md "Rule sets"): names and their round trips, the choice of
// a preset and its refinements, game-over rules on hand-made boards
// (block-out, lock-out, article 4's hidden rows), article 4's pair rated without clears
// between the plies, reachable placements in the game loop, and blocks of more than
// kBlockCapacity reachable placements.
#include <gtest/gtest.h>

#include <cfloat>
#include <memory>
#include <vector>

#include "evaluator.h"
#include "game.h"
#include "materialize.h"
#include "policy.h"
#include "reachable.h"
#include "rule_sets.h"
#include "error.h"
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

void expect_same(const Rules& got, const Rules& want) {
  const std::string name = rule_set_name(want);
  EXPECT_EQ(rule_set_name(got), name);
  EXPECT_EQ(got.base, want.base) << name;
  EXPECT_EQ(got.geometry.width, want.geometry.width) << name;
  EXPECT_EQ(got.geometry.height, want.geometry.height) << name;
  EXPECT_EQ(got.geometry.hidden, want.geometry.hidden) << name;
  EXPECT_EQ(got.overflow, want.overflow) << name;
  EXPECT_EQ(got.generator, want.generator) << name;
  EXPECT_EQ(got.lookahead, want.lookahead) << name;
  EXPECT_EQ(got.placement, want.placement) << name;
  EXPECT_EQ(got.rotation, want.rotation) << name;
  EXPECT_EQ(got.clear_between_plies, want.clear_between_plies) << name;
}

// The field a refusal names (rules.h RulesError), or "accepted".
template <class F>
std::string refused_field(F&& f) {
  try {
    f();
  } catch (const RulesError& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line: " << e.what();
    return e.field;
  }
  return "accepted";
}

constexpr RuleSet kPresets[] = {RuleSet::research, RuleSet::guideline, RuleSet::lee};

TEST(RuleSets, NamesRoundTrip) {
  EXPECT_EQ(rule_set_name(rule_set(RuleSet::research)), "research");
  EXPECT_EQ(rule_set_name(rule_set(RuleSet::guideline)), "guideline");
  EXPECT_EQ(rule_set_name(rule_set(RuleSet::lee)), "lee");
  Rules r = rule_set(RuleSet::research);
  r.generator = Generator::bag7;
  r.overflow = Overflow::clear_first;
  r.lookahead = 1;
  EXPECT_EQ(rule_set_name(r), "research+bag7+clear-first+lookahead1");  // unchanged by issue 6
  Rules g = rule_set(RuleSet::guideline);
  g.lookahead = 1;
  g.rotation = RotationSystem::simple;
  EXPECT_EQ(rule_set_name(g), "guideline+lookahead1+simple-kicks");
  for (const Rules& want : {r, g, rule_set(RuleSet::lee), rule_set(RuleSet::guideline)})
    expect_same(parse_rule_set_name(rule_set_name(want), want.geometry), want);
  EXPECT_EQ(refused_field([] { parse_rule_set_name("tetris99", {10, 20}); }), "rules");
  EXPECT_EQ(refused_field([] { parse_rule_set_name("lee+turbo", {10, 20}); }), "rules");
  EXPECT_EQ(refused_field([] { parse_rule_set_name("research+lock-out", {10, 20}); }), "overflow");  // no hidden rows
  EXPECT_EQ(refused_field([] { parse_rule_set_name("research+hidden05", {10, 20}); }), "rules");  // not as written
  EXPECT_EQ(refused_field([] { parse_rule_set_name("research", {3, 20}); }), "board");
}

// Every value of every field: parse(to_string(v)) == v, and unknown names are refused.
TEST(RuleSets, EveryValueNameRoundTrips) {
  for (Overflow v : {Overflow::strict, Overflow::clear_first, Overflow::lock_out, Overflow::hidden_rows})
    EXPECT_EQ(parse_overflow(to_string(v)), v);
  for (Generator v : {Generator::uniform, Generator::bag7}) EXPECT_EQ(parse_generator(to_string(v)), v);
  for (PlacementModel v : {PlacementModel::drop, PlacementModel::reachable}) EXPECT_EQ(parse_placement(to_string(v)), v);
  for (RotationSystem v : {RotationSystem::srs, RotationSystem::simple}) EXPECT_EQ(parse_rotation(rotation_token(v)), v);
  for (RuleSet v : kPresets) EXPECT_EQ(parse_rule_set(to_string(v)), v);
  EXPECT_EQ(refused_field([] { parse_overflow("maybe"); }), "overflow");
  EXPECT_EQ(refused_field([] { parse_generator("tetris99"); }), "generator");
  EXPECT_EQ(refused_field([] { parse_placement("slide"); }), "placement");
  EXPECT_EQ(refused_field([] { parse_rotation("ars"); }), "rotation");
  EXPECT_EQ(refused_field([] { parse_rule_set("Lee"); }), "rules");
  EXPECT_EQ(refused_field([] { parse_rule_set(""); }), "rules");
  try {
    parse_generator("tetris99");
    ADD_FAILURE() << "accepted";
  } catch (const RulesError& e) {
    EXPECT_STREQ(e.what(), "unknown generator 'tetris99' (uniform or bag7)");
  }
}

// Every preset with every variant token (one field changed at a time, and all at once): the
// name reads back to the same rules, or, when check_rules refuses the combination, the name is
// refused too.
TEST(RuleSets, EveryPresetAndVariantTokenRoundTrips) {
  std::vector<Rules> variants;
  for (RuleSet s : kPresets) {
    const Rules p = rule_set(s);
    variants.push_back(p);
    for (Overflow v : {Overflow::strict, Overflow::clear_first, Overflow::lock_out, Overflow::hidden_rows})
      variants.push_back(p), variants.back().overflow = v;
    for (Generator v : {Generator::uniform, Generator::bag7}) variants.push_back(p), variants.back().generator = v;
    for (int v : {0, 1}) variants.push_back(p), variants.back().lookahead = v;
    for (PlacementModel v : {PlacementModel::drop, PlacementModel::reachable})
      variants.push_back(p), variants.back().placement = v;
    for (RotationSystem v : {RotationSystem::srs, RotationSystem::simple})
      variants.push_back(p), variants.back().rotation = v;
    for (bool v : {false, true}) variants.push_back(p), variants.back().clear_between_plies = v;
    for (int v : {0, 1, 2, 6, 8, 12}) variants.push_back(p), variants.back().geometry.hidden = v;
    Rules all = p;
    all.generator = s == RuleSet::research ? Generator::bag7 : Generator::uniform;
    all.lookahead = 1 - p.lookahead;
    all.rotation = RotationSystem::simple;
    all.clear_between_plies = !p.clear_between_plies;
    all.geometry.hidden = 4;
    variants.push_back(all);
  }
  int read_back = 0;
  for (const Rules& want : variants) {
    const std::string name = rule_set_name(want);
    SCOPED_TRACE(name);
    if (refused_field([&] { check_rules(want); }) != "accepted") {
      EXPECT_THROW(parse_rule_set_name(name, want.geometry), RulesError);
      continue;
    }
    expect_same(parse_rule_set_name(name, want.geometry), want);
    ++read_back;
  }
  EXPECT_GT(read_back, 40);
}

TEST(RuleSets, BoardSizesRoundTrip) {
  for (int w = kMinWidth; w <= kMaxWidth; ++w)
    for (int h = kMinHeight; h <= kMaxHeight; ++h) {
      const Geometry g = parse_board_size(size_name({w, h, 0}));
      EXPECT_EQ(g.width, w);
      EXPECT_EQ(g.height, h);
      EXPECT_EQ(g.hidden, 0);
    }
  EXPECT_EQ(size_name(rule_set(RuleSet::lee).geometry), "10x22");  // hidden rows are not in the name
  for (const char* bad : {"10by10", "3x10", "17x10", "10x29", "x10", "10x", "", "10x10x", "1000x10", "-4x10", " 6x8"})
    EXPECT_THROW(parse_board_size(bad), InputError) << bad;
}

// A preset and its refinements, the rest left to the preset.
RuleChoices choices(std::string rules, std::string board = "", std::string generator = "", std::string overflow = "",
                    int lookahead = -1) {
  return {std::move(rules), std::move(board), std::move(generator), std::move(overflow), lookahead};
}

// choose_rules: the one way a preset and a user's refinements become Rules (the `play` flags
// and a config's [rules] table), enforcing docs/rules.md "Choosing a rule set".
TEST(RuleSets, ChooseRulesRefinesResearchOnly) {
  const Rules research = choose_rules(RuleChoices{});
  expect_same(research, rule_set(RuleSet::research));
  EXPECT_EQ(size_name(research.geometry), "10x10");
  const Rules r = choose_rules(choices("research", "8x12", "bag7", "clear-first", 1));
  EXPECT_EQ(rule_set_name(r), "research+bag7+clear-first+lookahead1");
  EXPECT_EQ(size_name(r.geometry), "8x12");
  expect_same(choose_rules(choices("lee")), rule_set(RuleSet::lee));
  expect_same(choose_rules(choices("lee", "10x22", "bag7", "hidden-rows", 1)), rule_set(RuleSet::lee));
  expect_same(choose_rules(choices("guideline", "10x22", "bag7", "lock-out", 0)), rule_set(RuleSet::guideline));
  EXPECT_EQ(rule_set_name(choose_rules(choices("guideline", "", "", "", 1))), "guideline+lookahead1");

  auto field = [](const RuleChoices& c) { return refused_field([&] { choose_rules(c); }); };
  EXPECT_EQ(field(choices("tetris99")), "rules");
  EXPECT_EQ(field(choices("research", "10by10")), "board");
  EXPECT_EQ(field(choices("research", "3x10")), "board");
  EXPECT_EQ(field(choices("lee", "10x20")), "board");
  EXPECT_EQ(field(choices("guideline", "10x10")), "board");
  EXPECT_EQ(field(choices("research", "", "tetris99")), "generator");
  EXPECT_EQ(field(choices("guideline", "", "uniform")), "generator");
  EXPECT_EQ(field(choices("lee", "", "uniform")), "generator");
  EXPECT_EQ(field(choices("research", "", "", "maybe")), "overflow");
  EXPECT_EQ(field(choices("research", "", "", "lock-out")), "overflow");
  EXPECT_EQ(field(choices("research", "", "", "hidden-rows")), "overflow");
  EXPECT_EQ(field(choices("guideline", "", "", "strict")), "overflow");
  EXPECT_EQ(field(choices("lee", "", "", "lock-out")), "overflow");
  EXPECT_EQ(field(choices("research", "", "", "", 2)), "lookahead");
  EXPECT_EQ(field(choices("lee", "", "", "", 0)), "lookahead");
  try {
    choose_rules(choices("lee", "10x20"));
    ADD_FAILURE() << "accepted";
  } catch (const RulesError& e) {
    EXPECT_STREQ(e.what(), "rule set lee fixes the board at 10x22 (20 visible and 2 hidden rows); leave it out");
  }
  try {
    choose_rules(choices("research", "", "", "lock-out"));
    ADD_FAILURE() << "accepted";
  } catch (const RulesError& e) {
    EXPECT_STREQ(e.what(), "lock-out belongs to rule set guideline (research: strict or clear-first)");
  }
}

TEST(RuleSets, PresetsAreWhatDocsRulesSays) {
  const Rules g = rule_set(RuleSet::guideline), l = rule_set(RuleSet::lee);
  for (const Rules& r : {g, l}) {
    EXPECT_EQ(r.geometry.width, 10);
    EXPECT_EQ(r.geometry.height, 22);
    EXPECT_EQ(r.geometry.hidden, 2);
    EXPECT_EQ(r.generator, Generator::bag7);
    EXPECT_EQ(refused_field([&] { check_rules(r); }), "accepted");
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
  for (Piece p : {I, O, T, S, Z, J, L}) EXPECT_TRUE(s.decide(b, p, O).blocked_out) << kPieceChar[p];
  Board free_spawn;
  fill(free_spawn, 0, 0, 21);  // a hidden cell away from the spawn: still playable
  EXPECT_FALSE(s.decide(free_spawn, T, O).blocked_out);
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

  // The default (docs/rules.md): the first ply's row is cleared before the second ply.
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
    const Placement pa = a.decide(board, p, next).locked();
    EXPECT_EQ(pa, moves[i]);  // the game loop's choice
    differ += !(pa == b.decide(board, p, next).locked());
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
    const Decision d = s.decide(b, T, I);
    ASSERT_FALSE(d.blocked_out);
    const Placement chosen = d.locked();
    Board after = b;
    drop(after, chosen, rules.geometry, rules.overflow);
    EXPECT_EQ(d.board, after);
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
