// Determinism of whole runs (docs/rules.md "Piece generators", docs/decisions.md "Threads live
// in one place": thread count or batch size must not change any game), and a differential test of the scalar feature kernel against the
// reference kernel on boards produced by real play.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "board.h"
#include "feature_kernels.h"
#include "game.h"
#include "parallel_play.h"
#include "piece_stream.h"
#include "placement.h"
#include "policy.h"
#include "rng.h"
#include "search.h"

namespace tb {
namespace {

const FeatureKernel kKernel = &features_scalar;

void expect_same_results(const std::vector<GameResult>& a, const std::vector<GameResult>& b,
                         Geometry g, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) {
    SCOPED_TRACE(std::string(what) + ", game " + std::to_string(i));
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].lines, b[i].lines);
    EXPECT_EQ(a[i].pieces, b[i].pieces);
    EXPECT_EQ(a[i].points, b[i].points);
    EXPECT_EQ(a[i].tetrises, b[i].tetrises);
    EXPECT_EQ(a[i].holes_created, b[i].holes_created);
    EXPECT_EQ(a[i].height_sum, b[i].height_sum);
    EXPECT_EQ(a[i].capped, b[i].capped);
    EXPECT_EQ(a[i].final_board, b[i].final_board);
    if (!(a[i].final_board == b[i].final_board)) {
      Geometry tall = g;
      tall.height = g.height + 4;  // show what sticks out
      EXPECT_EQ(to_text(a[i].final_board, tall), to_text(b[i].final_board, tall));
    }
  }
}

// Results that make the comparison meaningful: indices in order, real games, not all alike.
void expect_plausible(const std::vector<GameResult>& r, std::int64_t max_pieces) {
  std::set<std::int64_t> distinct_lines;
  std::int64_t total_lines = 0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    EXPECT_EQ(r[i].index, i);
    EXPECT_GT(r[i].pieces, 0);
    EXPECT_LE(r[i].pieces, max_pieces);
    if (r[i].capped) {
      EXPECT_EQ(r[i].pieces, max_pieces);
    }
    distinct_lines.insert(r[i].lines);
    total_lines += r[i].lines;
  }
  EXPECT_GT(total_lines, 0);
  EXPECT_GT(distinct_lines.size(), 1u);
}

void check_run(const Policy& policy, const GameConfig& config, std::int64_t games, const char* what) {
  const auto one = play_games(policy, config, games, 1, kKernel, nullptr);
  const auto two = play_games(policy, config, games, 2, kKernel, nullptr);
  const auto again = play_games(policy, config, games, 2, kKernel, nullptr);
  expect_plausible(one, config.max_pieces);
  expect_same_results(one, two, config.rules.geometry, what);
  expect_same_results(two, again, config.rules.geometry, what);
}

TEST(Determinism, BctsOn10x10) {
  GameConfig config;
  config.rules.geometry = {10, 10};
  config.seed = 7;
  config.max_pieces = 3000;
  check_run(load_policy("bcts"), config, 40, "bcts 10x10");
}

TEST(Determinism, BctsOn10x10Lookahead1) {
  GameConfig config;
  config.rules.geometry = {10, 10};
  config.rules.lookahead = 1;
  config.seed = 7;
  config.max_pieces = 300;
  check_run(load_policy("bcts"), config, 12, "bcts 10x10 lookahead 1");
}

TEST(Determinism, BctsOn10x10Bag7ClearFirst) {
  GameConfig config;
  config.rules.geometry = {10, 10};
  config.rules.generator = Generator::bag7;
  config.rules.overflow = Overflow::clear_first;
  config.seed = 7;
  config.max_pieces = 3000;
  check_run(load_policy("bcts"), config, 40, "bcts 10x10 bag7 clear-first");
}

TEST(Determinism, BatchingDoesNotChangeAnyGame) {
  // Games 0..39 in one call, or in batches [0, 13), [13, 27), [27, 40) with first_game: the
  // same games, each a pure function of (seed, game index).
  GameConfig config;
  config.rules.geometry = {10, 10};
  config.seed = 7;
  config.max_pieces = 1000;
  const Policy bcts = load_policy("bcts");
  const auto whole = play_games(bcts, config, 40, 2, kKernel, nullptr);
  std::vector<GameResult> batched;
  for (auto [first, n] : {std::pair<std::int64_t, std::int64_t>{0, 13}, {13, 14}, {27, 13}}) {
    const auto part = play_games(bcts, config, n, first % 2 + 1, kKernel, nullptr, first);
    ASSERT_EQ(static_cast<std::int64_t>(part.size()), n);
    for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(part[i].index, static_cast<std::uint64_t>(first + i));
    batched.insert(batched.end(), part.begin(), part.end());
  }
  expect_same_results(whole, batched, config.rules.geometry, "batched");
}

TEST(Determinism, ProgressCountsEveryGameAndPiece) {
  GameConfig config;
  config.rules.geometry = {10, 10};
  config.seed = 3;
  config.max_pieces = 500;
  for (int threads : {1, 2}) {  // one thread plays without oneTBB (parallel_play.cpp)
    PlayProgress progress;
    const auto r = play_games(load_policy("dellacherie"), config, 10, threads, kKernel, &progress);
    std::int64_t pieces = 0;
    for (const auto& g : r) pieces += g.pieces;
    EXPECT_EQ(progress.games_done.load(), 10) << threads;
    EXPECT_EQ(progress.pieces_done.load(), pieces) << threads;
  }
}

TEST(Determinism, SeedChangesTheRun) {
  GameConfig config;
  config.rules.geometry = {10, 10};
  config.max_pieces = 300;
  config.seed = 7;
  const auto a = play_games(load_policy("bcts"), config, 8, 2, kKernel, nullptr);
  config.seed = 8;
  const auto b = play_games(load_policy("bcts"), config, 8, 2, kKernel, nullptr);
  int differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) differ += !(a[i].final_board == b[i].final_board);
  EXPECT_GT(differ, 0);
}

// ---------------------------------------------------------------------------------------
// Scalar kernel vs reference kernel on played boards

// The slots a board of width W uses.
std::vector<std::pair<int, std::string>> used_slots(int width) {
  static const char* kScalar[] = {"row_transitions", "col_transitions", "holes",
                                  "wells",           "wells_fast",      "hole_depth",
                                  "rows_with_holes", "diversity",       "max_height",
                                  "agg_height",      "bumpiness"};
  std::vector<std::pair<int, std::string>> s;
  for (int i = 0; i <= SLOT_BUMPINESS; ++i) s.push_back({i, kScalar[i]});
  for (int c = 0; c < width; ++c) s.push_back({SLOT_HEIGHT + c, "height[" + std::to_string(c) + "]"});
  for (int c = 0; c + 1 < width; ++c) s.push_back({SLOT_DIFF + c, "diff[" + std::to_string(c) + "]"});
  for (int c = 0; c < width; ++c)
    s.push_back({SLOT_COL_HOLES + c, "col_holes[" + std::to_string(c) + "]"});
  for (int c = 0; c < width; ++c)
    s.push_back({SLOT_COL_WELLS + c, "col_wells[" + std::to_string(c) + "]"});
  for (int i = 0; i < kRowFillBuckets; ++i)
    s.push_back({SLOT_ROW_FILL + i, "row_fill[" + std::to_string(i) + "]"});
  return s;
}

// Collects boards into a block and compares the two kernels on it, block by block.
class Differential {
 public:
  static constexpr int kStride = 64;
  static constexpr int kFlushAt = 61;  // not a multiple of any lane count

  Differential(Geometry g) : g_(g), slots_(used_slots(g.width)), cols_(kMaxWidth * kStride, 0) {}
  ~Differential() { flush(); }

  void add(const Board& b) {
    for (int c = 0; c < kMaxWidth; ++c) cols_[c * kStride + count_] = b.cols[c];
    ++count_;
    ++boards_;
    if (count_ == kFlushAt) flush();
  }

  void flush() {
    if (count_ == 0) return;
    std::vector<std::int32_t> ref(SLOT_NB * kStride, -7777), scal(SLOT_NB * kStride, -8888);
    const BoardBlock block{cols_.data(), kStride, count_, g_.width, g_.height};
    features_reference(block, G_ALL, ref.data());
    features_scalar(block, G_ALL, scal.data());
    for (int k = 0; k < count_; ++k) {
      bool bad = false;
      std::string detail;
      for (const auto& [slot, name] : slots_) {
        const std::int32_t r = ref[slot * kStride + k], s = scal[slot * kStride + k];
        if (r != s) {
          bad = true;
          detail += "  " + name + ": reference " + std::to_string(r) + ", scalar " + std::to_string(s) + "\n";
        }
      }
      if (bad) {
        ++mismatches_;
        if (mismatches_ <= 5) {
          Board b;
          for (int c = 0; c < kMaxWidth; ++c) b.cols[c] = cols_[c * kStride + k];
          ADD_FAILURE() << "W=" << g_.width << " H=" << g_.height << " board:\n"
                        << to_text(b, g_) << detail;
        }
      }
    }
    count_ = 0;
  }

  std::int64_t boards() const { return boards_; }
  std::int64_t mismatches() const { return mismatches_; }

 private:
  Geometry g_;
  std::vector<std::pair<int, std::string>> slots_;
  std::vector<Word> cols_;
  int count_ = 0;
  std::int64_t boards_ = 0;
  std::int64_t mismatches_ = 0;
};

// Random play: each piece goes to a uniformly random drop placement.  Games alternate the
// two overflow rules (clear-first leaves boards that were cleared from above the top).
void random_play(Differential& diff, Geometry g, std::int64_t quota, std::uint64_t seed) {
  std::array<Placement, kMaxPlacements> buf{};
  const std::int64_t target = diff.boards() + quota;
  for (std::uint64_t game = 0; diff.boards() < target; ++game) {
    PieceStream stream = PieceStream::make(Generator::uniform, seed, game);
    CounterRng pick{stream_key(seed ^ 0x5eed, game), 0};
    const Overflow overflow = game % 2 ? Overflow::clear_first : Overflow::strict;
    Board board;
    while (diff.boards() < target) {
      const int n = static_cast<int>(generate_drops(stream.next(), g.width, buf.data()) - buf.data());
      const Move m = drop(board, buf[pick.below(static_cast<std::uint32_t>(n))], g, overflow);
      if (m.game_over) break;  // skip the final board: the game is over
      diff.add(board);
    }
  }
}

// Dellacherie play, capped so that every size gives several games.
void dellacherie_play(Differential& diff, Geometry g, std::int64_t quota, std::uint64_t seed) {
  Rules rules;
  rules.geometry = g;
  Searcher searcher(load_policy("dellacherie"), rules, kKernel);
  const std::int64_t target = diff.boards() + quota;
  for (std::uint64_t game = 0; diff.boards() < target; ++game) {
    PieceStream stream = PieceStream::make(Generator::uniform, seed, game);
    Board board;
    Piece current = stream.next(), next = stream.next();
    for (int pieces = 0; pieces < 600 && diff.boards() < target; ++pieces) {
      const Placement pl = searcher.choose(board, current, next, 0.0, nullptr);
      if (drop(board, pl, g, Overflow::strict).game_over) break;
      diff.add(board);
      current = next;
      next = stream.next();
    }
  }
}

TEST(KernelDifferential, ScalarMatchesReferenceOnPlayedBoards) {
  std::int64_t total = 0, mismatches = 0;
  for (int w : {4, 6, 10, 16})
    for (int h : {4, 7, 12, 20, 28}) {
      SCOPED_TRACE("W=" + std::to_string(w) + " H=" + std::to_string(h));
      const Geometry g{w, h};
      ASSERT_EQ(check_geometry(g), "");
      Differential diff(g);
      random_play(diff, g, 3'500, 1000 + 100 * w + h);
      dellacherie_play(diff, g, 1'700, 2000 + 100 * w + h);
      diff.flush();
      total += diff.boards();
      mismatches += diff.mismatches();
    }
  EXPECT_GE(total, 100'000);
  EXPECT_EQ(mismatches, 0) << "of " << total << " boards";
}

}  // namespace
}  // namespace tb
