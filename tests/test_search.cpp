// Choosing a move (docs/rules.md "Choosing a move"): greedy argmax with ties to the first
// placement, game-ending moves last, 2-ply with the first ply's lines counted, tie noise off
// by default.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <memory>
#include <string_view>
#include <vector>

#include "evaluator.h"
#include "feature_set.h"
#include "game.h"
#include "piece_stream.h"
#include "placement.h"
#include "policy.h"
#include "rng.h"
#include "search.h"

namespace tb {
namespace {


Policy make_policy(std::string_view set, std::vector<double> weights) {
  Policy p;
  p.name = "test";
  p.features = find_feature_set(set);
  EXPECT_NE(p.features, nullptr) << set;
  p.weights = std::move(weights);
  return p;
}

Rules rules_of(Geometry g, int lookahead, Overflow o = Overflow::strict) {
  Rules r;
  r.geometry = g;
  r.lookahead = lookahead;
  r.overflow = o;
  return r;
}

constexpr Geometry k10x10{10, 10};
constexpr Geometry k10x20{10, 20};
const FeatureKernel kKernel = &features_scalar;

// ---------------------------------------------------------------------------------------
// Ties go to the first placement in enumeration order

TEST(Greedy, AllZeroWeightsPickTheFirstPlacement) {
  // Every non-terminal placement rates 0: the first placement, (orientation 0, column 0).
  const Policy zero = make_policy("lee", {0, 0, 0, 0});
  for (int lookahead : {0, 1}) {
    Searcher s(zero, rules_of(k10x20, lookahead), kKernel);
    for (int p = 0; p < PIECE_NB; ++p) {
      const Placement got = s.choose(Board{}, static_cast<Piece>(p), T, 0.0, nullptr);
      EXPECT_EQ(got, (Placement{static_cast<std::uint8_t>(p), 0, 0}))
          << kPieceChar[p] << " lookahead " << lookahead;
    }
    // Also on a bumpy board (ratings all 0, nothing ends the game).
    const Board bumpy = board_from_rows({"#...#.....", "##.###..#.", "####.####."});
    for (int p = 0; p < PIECE_NB; ++p) {
      const Placement got = s.choose(bumpy, static_cast<Piece>(p), S, 0.0, nullptr);
      EXPECT_EQ(got, (Placement{static_cast<std::uint8_t>(p), 0, 0}))
          << kPieceChar[p] << " lookahead " << lookahead;
    }
  }
}

TEST(Greedy, TiesSkipATerminalFirstPlacement) {
  // Column 0 is full to the top (height 10 = H, the game is still on).  A flat I over
  // column 0 would lock at row 10 and end the game; the flat I at column 1 is the first
  // non-terminal placement.
  Board b;
  b.cols[0] = low_mask(10);
  const Policy zero = make_policy("lee", {0, 0, 0, 0});
  for (int lookahead : {0, 1}) {
    Searcher s(zero, rules_of(k10x10, lookahead), kKernel);
    EXPECT_EQ(s.choose(b, I, I, 0.0, nullptr), (Placement{I, 0, 1})) << "lookahead " << lookahead;
    // O (one orientation): column 0 ends the game, column 1 is first.
    EXPECT_EQ(s.choose(b, O, I, 0.0, nullptr), (Placement{O, 0, 1})) << "lookahead " << lookahead;
  }
}

TEST(Greedy, PicksTheUniqueArgmaxWhereverItIs) {
  // Row 0 is full but for column 9.  With a lines-only policy the only placement that rates
  // 1 is the one completing row 0, all others rate 0.  Worked out by hand:
  //   I: vertical in column 9                         -> (1, 9), index 16
  //   T: stem-left T (.# / ## / .#) at column 8       -> (3, 8), index 33, the last one
  //   L: (## / .# / .#) at column 8                   -> (3, 8), index 33, the last one
  const Board b = board_from_rows({"#########."});
  const Policy lines_only = make_policy("lee", {0, 1, 0, 0});
  Searcher s(lines_only, rules_of(k10x10, 0), kKernel);
  EXPECT_EQ(s.choose(b, I, O, 0.0, nullptr), (Placement{I, 1, 9}));
  EXPECT_EQ(s.choose(b, T, O, 0.0, nullptr), (Placement{T, 3, 8}));
  EXPECT_EQ(s.choose(b, L, O, 0.0, nullptr), (Placement{L, 3, 8}));
  // O cannot complete the row: every placement rates 0, the first one wins.
  EXPECT_EQ(s.choose(b, O, O, 0.0, nullptr), (Placement{O, 0, 0}));
}

TEST(Greedy, ArgmaxOfAggregateHeight) {
  // Minimising the aggregate height on row 0 = "######....": the flat I at column 6 clears
  // the row and leaves an empty board (0); every other placement leaves >= 10 cells' worth.
  const Board b = board_from_rows({"######...."});
  const Policy low = make_policy("lee", {-1, 0, 0, 0});
  Searcher s(low, rules_of(k10x10, 0), kKernel);
  EXPECT_EQ(s.choose(b, I, O, 0.0, nullptr), (Placement{I, 0, 6}));
}

// ---------------------------------------------------------------------------------------
// Game-ending placements

// W = 10, H = 10.  Column 0 is empty but for row 9 (holes below: no row 0..8 is ever full),
// column 4 has height 6, column 9 height 9, every other column is full to the top.  For I
// the only placement that does not end the game is the vertical I in column 4 (rows 6..9,
// no line: rows 6..8 miss column 0 and row 9 misses column 9).  Afterwards every I and O
// placement ends the game.
Board nearly_full() {
  Board b;
  for (int c = 1; c < 10; ++c) b.cols[c] = low_mask(10);
  b.cols[0] = Word{1} << 9;
  b.cols[4] = low_mask(6);
  b.cols[9] = low_mask(9);
  return b;
}

TEST(Terminal, NeverChosenWhenANonTerminalPlacementExists) {
  const Board b = nearly_full();
  // Sanity of the construction, checked through the engine's own drop.
  {
    std::array<Placement, kMaxPlacements> buf{};
    const int n = static_cast<int>(generate_drops(I, 10, buf.data()) - buf.data());
    int alive = 0;
    for (int k = 0; k < n; ++k) {
      Board copy = b;
      const Move m = drop(copy, buf[k], k10x10, Overflow::strict);
      if (!m.game_over) {
        ++alive;
        EXPECT_EQ(buf[k], (Placement{I, 1, 4}));
        EXPECT_EQ(m.lines, 0);
      }
    }
    ASSERT_EQ(alive, 1);
  }
  // Policies that would love the game-ending boards (tall, holey, bumpy) and the all-zero
  // policy (whose tie would go to the first, game-ending, placement).
  const std::vector<Policy> policies = {
      make_policy("lee", {0, 0, 0, 0}),
      make_policy("lee", {10, 0, 10, 10}),
      make_policy("bcts", {12.6, -6.6, 9.2, 19.8, 13.1, 10.5, 1.6, 24.0}),
  };
  for (const Policy& p : policies)
    for (int lookahead : {0, 1})
      for (Piece next : {I, O}) {
        // With lookahead every follow-up of (I, 1, 4) ends the game: it is still preferred
        // to ending the game now (search.h: -DBL_MAX above -infinity).
        Searcher s(p, rules_of(k10x10, lookahead), kKernel);
        EXPECT_EQ(s.choose(b, I, next, 0.0, nullptr), (Placement{I, 1, 4}))
            << "weights[0] " << p.weights[0] << " lookahead " << lookahead;
      }
}

TEST(Terminal, WhenEveryPlacementEndsTheGameTheFirstIsChosen) {
  // Every O placement covers a column of height 10.
  const Board b = nearly_full();
  const Policy p = make_policy("lee", {10, 0, 10, 10});
  for (int lookahead : {0, 1}) {
    Searcher s(p, rules_of(k10x10, lookahead), kKernel);
    EXPECT_EQ(s.choose(b, O, I, 0.0, nullptr), (Placement{O, 0, 0})) << "lookahead " << lookahead;
  }
}

TEST(Terminal, EvaluatorRatesTerminalCandidatesMinusInfinity) {
  const Board b = nearly_full();
  auto block = std::make_unique<CandidateBlock>();
  materialize(*block, b, I, k10x10, Overflow::strict);
  ASSERT_EQ(block->count, 17);
  LinearEvaluator ev(make_policy("lee", {10, 0, 10, 10}), k10x10, kKernel);
  ev.score(*block);
  for (int k = 0; k < block->count; ++k) {
    if (k == 11) {  // (I, 1, 4): 7 flat placements, then vertical column 4
      EXPECT_EQ(block->placements[k], (Placement{I, 1, 4}));
      EXPECT_FALSE(block->terminal[k]);
      EXPECT_TRUE(std::isfinite(block->score[k]));
    } else {
      EXPECT_TRUE(block->terminal[k]) << k;
      EXPECT_EQ(block->score[k], -HUGE_VAL) << k;
    }
  }
}

// ---------------------------------------------------------------------------------------
// 2-ply: lines of the first ply are removed before the second and count in the pair

TEST(TwoPly, CarryAddsFirstPlyLinesAndErodedCells) {
  // Row 0 misses column 9, row 1 misses columns 8 and 9.
  //   ply 1, vertical I in column 9: clears row 0 (1 line, 1 eroded cell); the board is then
  //          row 0 = "########.#" with the rest of the I above it in column 9.
  //   ply 2, vertical I in column 8: clears that row (1 line, 1 eroded cell).
  // The pair has 2 lines and 2 eroded cells; every other second placement has the first
  // ply's 1 line and 1 eroded cell only.
  const Board b = board_from_rows({"########..", "#########."});
  auto first = std::make_unique<CandidateBlock>();
  materialize(*first, b, I, k10x10, Overflow::strict);
  ASSERT_EQ(first->count, 17);
  const int k = 16;
  ASSERT_EQ(first->placements[k], (Placement{I, 1, 9}));
  EXPECT_EQ(first->value(MOVE_LINES, k), 1);
  EXPECT_EQ(first->value(MOVE_ERODED, k), 1);
  EXPECT_EQ(first->value(MOVE_LANDING_X2, k), 3);
  EXPECT_FALSE(first->terminal[k]);
  const Board after_first = first->board(k);
  EXPECT_EQ(after_first, board_from_rows({".........#", ".........#", "########.#"}));

  const PlyCarry carry{first->value(MOVE_LINES, k), first->value(MOVE_ERODED, k)};
  auto second = std::make_unique<CandidateBlock>();
  materialize(*second, after_first, I, k10x10, Overflow::strict, carry);
  ASSERT_EQ(second->count, 17);
  const int j = 15;
  ASSERT_EQ(second->placements[j], (Placement{I, 1, 8}));
  for (int i = 0; i < second->count; ++i) {
    EXPECT_FALSE(second->terminal[i]) << i;
    EXPECT_EQ(second->value(MOVE_LINES, i), i == j ? 2 : 1) << i;
    EXPECT_EQ(second->value(MOVE_ERODED, i), i == j ? 2 : 1) << i;
  }
  // After both plies: row 0 cleared twice over, column 8 keeps rows 0..2, column 9 rows 0..1.
  EXPECT_EQ(second->board(j), board_from_rows({"........#.", "........##", "........##"}));

  // A lines-only linear evaluator rates the pair 2 and every other pair 1.
  LinearEvaluator ev(make_policy("eltetris", {0, 1, 0, 0, 0, 0}), k10x10, kKernel);
  ev.score(*second);
  for (int i = 0; i < second->count; ++i) EXPECT_EQ(second->score[i], i == j ? 2.0 : 1.0) << i;

  // Eroded cells carry too (dellacherie's eroded_cells weight alone).
  LinearEvaluator er(make_policy("dellacherie", {0, 1, 0, 0, 0, 0}), k10x10, kKernel);
  er.score(*second);
  for (int i = 0; i < second->count; ++i) EXPECT_EQ(second->score[i], i == j ? 2.0 : 1.0) << i;
}

TEST(TwoPly, LinesOnlyPolicyPrefersTheFirstPlyClear) {
  // Row 0 = "######....".  Current I, next O.  Only the flat I at column 6 (index 6) clears a
  // line, and no (I, O) pair clears one otherwise: row 0 needs 4 cells that one I placement
  // other than (0, 6) and one O can fill at most 3 of, and an empty row needs 10 > 4 + 2.
  const Board b = board_from_rows({"######...."});
  const Policy lines_only = make_policy("lee", {0, 1, 0, 0});

  // What a search that ignores the first ply's lines would see: every pair rates 0, and the
  // tie goes to the first placement, (I, 0, 0).
  {
    auto first = std::make_unique<CandidateBlock>();
    auto second = std::make_unique<CandidateBlock>();
    LinearEvaluator ev(lines_only, k10x10, kKernel);
    materialize(*first, b, I, k10x10, Overflow::strict);
    int argmax = -1;
    double best = -HUGE_VAL;
    for (int k = 0; k < first->count; ++k) {
      materialize(*second, first->board(k), O, k10x10, Overflow::strict);  // no carry
      ev.score(*second);
      double follow = -DBL_MAX;
      for (int j = 0; j < second->count; ++j) follow = std::max(follow, second->score[j]);
      EXPECT_EQ(follow, 0.0) << k;
      if (follow > best) best = follow, argmax = k;
    }
    EXPECT_EQ(first->placements[argmax], (Placement{I, 0, 0}));
  }

  Searcher two_ply(lines_only, rules_of(k10x10, 1), kKernel);
  EXPECT_EQ(two_ply.choose(b, I, O, 0.0, nullptr), (Placement{I, 0, 6}));
  Searcher one_ply(lines_only, rules_of(k10x10, 0), kKernel);
  EXPECT_EQ(one_ply.choose(b, I, O, 0.0, nullptr), (Placement{I, 0, 6}));
}

TEST(TwoPly, NextPieceChangesTheChoice) {
  // Row 0 = "..########" (columns 0, 1 empty).  Lines-only policy, current I, next O.
  //   1-ply: no I placement completes row 0 (a vertical I fills one of the two cells, a flat
  //          I over them rests on row 1), so all rate 0 and (I, 0, 0) wins the tie.
  //   2-ply: (I, 0, 0) and (I, 0, 1) lock on row 1 over column 1 and roof the gap, so no O
  //          can fill it; (I, 0, 2) locks on row 1 over columns 2..5, and the O at column 0
  //          then completes row 0.  The first pair rated 1 is (I, 0, 2), (O, 0, 0).
  const Board b = board_from_rows({"..########"});
  const Policy lines_only = make_policy("lee", {0, 1, 0, 0});
  Searcher one_ply(lines_only, rules_of(k10x10, 0), kKernel);
  EXPECT_EQ(one_ply.choose(b, I, O, 0.0, nullptr), (Placement{I, 0, 0}));
  Searcher two_ply(lines_only, rules_of(k10x10, 1), kKernel);
  EXPECT_EQ(two_ply.choose(b, I, O, 0.0, nullptr), (Placement{I, 0, 2}));
}

// ---------------------------------------------------------------------------------------
// Tie noise

TEST(TieNoise, OffByDefault) {
  // A game played with the default config is the one played with tie_noise set to 0, and
  // noise that is on changes it, so the comparison can see noise.
  const Policy bcts = load_policy("bcts");
  GameConfig defaults;  // tie_noise left at its default
  defaults.rules = rules_of(k10x10, 0);
  defaults.seed = 3;
  defaults.max_pieces = 300;
  GameConfig off = defaults, on = defaults;
  off.tie_noise = 0.0;
  on.tie_noise = 0.5;
  Searcher s(bcts, defaults.rules, kKernel);
  auto first_difference = [](const std::vector<Placement>& a, const std::vector<Placement>& b) {
    return std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin();
  };
  for (std::uint64_t g = 0; g < 3; ++g) {
    std::vector<Placement> by_default, without, with;
    const GameResult d = play_game(s, defaults, g, &by_default);
    const GameResult o = play_game(s, off, g, &without);
    play_game(s, on, g, &with);
    EXPECT_TRUE(by_default == without) << "game " << g << ": the default config's game differs "
                                       << "from the noise-free one at move "
                                       << first_difference(by_default, without);
    EXPECT_EQ(d.lines, o.lines) << "game " << g;
    EXPECT_EQ(d.pieces, o.pieces) << "game " << g;
    EXPECT_FALSE(with == without) << "game " << g << ": noise 0.5 changed no move";
  }
}

TEST(TieNoise, TheStreamCountsOnlyWhenNoiseIsOn) {
  // All-zero weights rate every placement of T on the empty board 0.  Without noise the first
  // placement wins and the stream is neither read nor advanced, wherever it stands.  With
  // noise, placement k gets draw counter + k + 1 of the stream (enumeration order), so the
  // winner is the first largest of those draws: it depends on the stream's position.
  const Policy zero = make_policy("lee", {0, 0, 0, 0});
  std::array<Placement, kMaxPlacements> drops;
  const int count = static_cast<int>(generate_drops(T, k10x20.width, drops.data()) - drops.data());
  for (int lookahead : {0, 1}) {
    Searcher s(zero, rules_of(k10x20, lookahead), kKernel);
    int first_winner = -1;
    bool winners_differ = false;
    for (std::uint64_t key : {1ull, 2ull, 3ull})
      for (std::uint64_t position : {0ull, 1ull, 7ull, 34ull, 1000ull, 123456789ull}) {
        const CounterRng start{stream_key(key, 0), position};
        SCOPED_TRACE("lookahead " + std::to_string(lookahead) + " key " + std::to_string(key) +
                     " position " + std::to_string(position));

        CounterRng off = start;
        EXPECT_EQ(s.choose(Board{}, T, O, 0.0, &off), drops[0]);
        EXPECT_EQ(off.counter, position);

        CounterRng draws = start;
        int winner = 0;
        double best = -1;
        for (int k = 0; k < count; ++k) {
          const double u = draws.unit();
          if (u > best) {
            best = u;
            winner = k;
          }
        }
        CounterRng on = start;
        EXPECT_EQ(s.choose(Board{}, T, O, 1.0, &on), drops[winner]);
        EXPECT_EQ(on.counter, position + count);
        if (first_winner < 0) first_winner = winner;
        winners_differ |= winner != first_winner;
      }
    EXPECT_TRUE(winners_differ) << "every stream position chose the same placement";
  }
}

TEST(TieNoise, PlayGameDefaultIsTheNoiseFreeGame) {
  // play_game with the default config reproduces a hand-written noise-free game loop.
  const Policy bcts = load_policy("bcts");
  GameConfig config;
  config.rules = rules_of(k10x10, 0);
  config.seed = 5;
  config.max_pieces = 400;
  Searcher s(bcts, config.rules, kKernel);
  for (std::uint64_t g = 0; g < 4; ++g) {
    const GameResult r = play_game(s, config, g);

    PieceStream stream = PieceStream::make(Generator::uniform, config.seed, g);
    Board board;
    std::int64_t lines = 0, pieces = 0;
    bool over = false;
    Piece current = stream.next(), next = stream.next();
    while (pieces < config.max_pieces) {
      const Move m = drop(board, s.choose(board, current, next, 0.0, nullptr), k10x10,
                          Overflow::strict);
      ++pieces;
      lines += m.lines;
      if (m.game_over) {
        over = true;
        break;
      }
      current = next;
      next = stream.next();
    }
    EXPECT_EQ(r.lines, lines) << g;
    EXPECT_EQ(r.pieces, pieces) << g;
    EXPECT_EQ(r.capped, !over) << g;
    EXPECT_EQ(r.final_board, board) << g;
  }
}

TEST(TieNoise, WhenOnItBreaksTies) {
  // All-zero weights: without noise the first placement always wins; with noise the winner
  // is spread over the placements (20 streams all picking index 0 has odds 34^-20).
  const Policy zero = make_policy("lee", {0, 0, 0, 0});
  Searcher s(zero, rules_of(k10x20, 0), kKernel);
  int moved = 0;
  for (std::uint64_t key = 0; key < 20; ++key) {
    CounterRng noise{stream_key(key, 1), 0};
    if (!(s.choose(Board{}, T, O, 1e-6, &noise) == Placement{T, 0, 0})) ++moved;
    EXPECT_GT(noise.counter, 0u);
  }
  EXPECT_GT(moved, 0);
}

}  // namespace
}  // namespace tb
