// Move-reachable placements (engine/moves/reachable.h, docs/srs.md "Reachable placements").
//
// The fast search is checked against the drop model on empty boards, against hand-made
// spins, and against a naive breadth-first search over engine/moves/srs.h Playfield moves on random
// boards with overhangs; every stored input sequence is replayed through the Playfield.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "board.h"
#include "pieces.h"
#include "placement.h"
#include "reachable.h"
#include "srs.h"

namespace tb {
namespace {

constexpr RotationSystem kSystems[] = {RotationSystem::srs, RotationSystem::simple};
constexpr Input kMoves[] = {Input::left, Input::right, Input::cw, Input::ccw, Input::soft};

using Cells = std::vector<Square>;

Cells sorted_cells(const Squares& s) {
  Cells v(s.begin(), s.end());
  std::sort(v.begin(), v.end());
  return v;
}

Cells cells_of(const ReachablePlacement& rp) { return sorted_cells(cells(rp.placement, rp.row)); }

// (orientation, column, row) in output order.
using Key = std::tuple<int, int, int>;
std::vector<Key> keys(const ReachableSet& set) {
  std::vector<Key> v;
  for (int i = 0; i < set.count; ++i)
    v.emplace_back(set.placements[i].placement.orientation, set.placements[i].placement.column,
                   set.placements[i].row);
  return v;
}

std::vector<Key> drop_keys(const Board& b, Geometry g, Piece p) {
  std::array<Placement, kMaxPlacements> buf{};
  Placement* end = generate_drops(p, g.width, buf.data());
  int heights[kMaxWidth];
  for (int c = 0; c < g.width; ++c) heights[c] = b.height_of(c);
  std::vector<Key> v;
  for (Placement* pl = buf.data(); pl != end; ++pl)
    v.emplace_back(pl->orientation, pl->column,
                   landing_row(heights + pl->column, kShapes[p].orientation[pl->orientation], 0));
  return v;
}

// The reference: breadth-first search over Playfield states in the documented input order,
// recording for each locked cell set the first (shortest) sequence that reaches it.
std::map<Cells, std::vector<Input>> naive_reachable(const Board& b, Geometry g, Piece p, int spawn_row,
                                                    RotationSystem rs) {
  std::map<Cells, std::vector<Input>> found;
  Playfield field(b, g, rs);
  if (!field.spawn(p, spawn_row)) return found;
  std::map<std::tuple<int, int, int>, std::vector<Input>> path;
  std::deque<PieceState> queue{field.piece()};
  path[{field.piece().rotation, field.piece().x, field.piece().y}] = {};
  while (!queue.empty()) {
    const PieceState s = queue.front();
    queue.pop_front();
    const std::vector<Input> to_s = path[{s.rotation, s.x, s.y}];
    Playfield drop = field;
    drop.set_piece(s);
    while (drop.soft_drop()) {
    }
    auto [it, fresh] = found.try_emplace(sorted_cells(cells(drop.piece())), to_s);
    if (fresh) it->second.push_back(Input::hard);
    for (Input in : kMoves) {
      Playfield moved = field;
      moved.set_piece(s);
      if (!moved.apply(in)) continue;
      const PieceState t = moved.piece();
      auto [pt, added] = path.try_emplace({t.rotation, t.x, t.y}, to_s);
      if (!added) continue;
      pt->second.push_back(in);
      queue.push_back(t);
    }
  }
  return found;
}

std::string describe(const std::vector<Input>& seq) {
  std::string s;
  for (Input in : seq) s += std::string(s.empty() ? "" : " ") + to_string(in);
  return s;
}

// Structural checks and the replay of every stored sequence through the Playfield.
void check_placements(const Board& b, Geometry g, int spawn_row, RotationSystem rs,
                      const ReachableSet& set) {
  std::set<Cells> seen;
  for (int i = 0; i < set.count; ++i) {
    const ReachablePlacement& rp = set.placements[i];
    SCOPED_TRACE("placement " + std::to_string(i));
    ASSERT_EQ(rp.placement.piece, set.piece);
    const Cells c = cells_of(rp);
    EXPECT_TRUE(seen.insert(c).second) << "duplicate cells";
    bool rests = false;
    for (Square s : c) {
      ASSERT_TRUE(s.column >= 0 && s.column < g.width && s.row >= 0 && s.row < g.height);
      EXPECT_FALSE(b.filled(s.column, s.row)) << "overlaps the stack";
      rests = rests || s.row == 0 || b.filled(s.column, s.row - 1);
    }
    EXPECT_TRUE(rests) << "can still move down";
    if (i > 0) {
      const ReachablePlacement& prev = set.placements[i - 1];
      EXPECT_LT(std::tuple(prev.placement.orientation, prev.placement.column, prev.row),
                std::tuple(rp.placement.orientation, rp.placement.column, rp.row));
    }

    const std::vector<Input> seq = input_sequence(set, i);
    ASSERT_FALSE(seq.empty());
    EXPECT_EQ(seq.back(), Input::hard);
    Playfield replay(b, g, rs);
    ASSERT_TRUE(replay.spawn(set.piece, spawn_row));
    for (Input in : seq) ASSERT_TRUE(replay.apply(in)) << describe(seq);
    Board want = b;
    for (Square s : c) want.cols[s.column] |= Word{1} << s.row;
    EXPECT_EQ(replay.board(), want) << describe(seq);
  }
}

// Random stacks with holes, plus floating roofs: overhangs everywhere.
Board random_board(std::mt19937& rng, Geometry g, int max_height) {
  Board b;
  for (int c = 0; c < g.width; ++c) {
    const int h = static_cast<int>(rng() % (max_height + 1));
    for (int r = 0; r < h; ++r)
      if (r == h - 1 || rng() % 4 != 0) b.cols[c] |= Word{1} << r;
  }
  for (int roofs = static_cast<int>(rng() % 4); roofs > 0; --roofs) {
    const int row = 1 + static_cast<int>(rng() % max_height);
    const int left = static_cast<int>(rng() % g.width);
    const int length = 1 + static_cast<int>(rng() % 4);
    for (int c = left; c < std::min(g.width, left + length); ++c) b.cols[c] |= Word{1} << row;
  }
  return b;
}

struct Field {
  Geometry geometry;
  int spawn_row;
};

// ---------------------------------------------------------------------------------------

TEST(Reachable, EmptyBoardEqualsTheDropPlacementsInTheirOrder) {
  auto set = std::make_unique<ReachableSet>();
  for (Field f : {Field{{10, 22}, 20}, Field{{10, 20}, 18}, Field{{6, 12}, 10}, Field{{4, 8}, 6},
                  Field{{16, 28}, 26}})
    for (RotationSystem rs : kSystems)
      for (int p = 0; p < PIECE_NB; ++p) {
        SCOPED_TRACE(std::to_string(f.geometry.width) + "x" + std::to_string(f.geometry.height) + " " +
                     kPieceChar[p] + " " + to_string(rs));
        find_reachable(Board{}, f.geometry, static_cast<Piece>(p), f.spawn_row, rs, *set);
        EXPECT_FALSE(set->block_out);
        EXPECT_EQ(keys(*set), drop_keys(Board{}, f.geometry, static_cast<Piece>(p)));
      }
}

TEST(Reachable, EmptyTenWideCountsMatchTheRulesTable) {
  auto set = std::make_unique<ReachableSet>();
  const int want[PIECE_NB] = {17, 9, 34, 17, 17, 34, 34};  // I O T S Z J L
  int total = 0;
  for (int p = 0; p < PIECE_NB; ++p) {
    const Piece piece = static_cast<Piece>(p);
    EXPECT_EQ(find_reachable(Board{}, {10, 22}, piece, 20, RotationSystem::srs, *set), want[p]);
    total += set->count;
  }
  EXPECT_EQ(total, 162);
}

TEST(Reachable, ShortestSequencesOnAnEmptyBoard) {
  auto set = std::make_unique<ReachableSet>();
  find_reachable(Board{}, {10, 22}, T, 20, RotationSystem::srs, *set);
  // T spawns on columns 3..5: straight down is one input, the left wall four.
  EXPECT_EQ(input_sequence(*set, 3), (std::vector<Input>{Input::hard}));
  EXPECT_EQ(keys(*set)[3], Key(0, 3, 0));
  EXPECT_EQ(input_sequence(*set, 0),
            (std::vector<Input>{Input::left, Input::left, Input::left, Input::hard}));
  // Orientation 1 (R) at column 4 is one clockwise turn in place.
  const auto k = keys(*set);
  const int r4 = static_cast<int>(std::find(k.begin(), k.end(), Key(1, 4, 0)) - k.begin());
  EXPECT_EQ(input_sequence(*set, r4), (std::vector<Input>{Input::cw, Input::hard}));
}

TEST(Reachable, TSpinTripleSlotIsReachableButNotADrop) {
  const Board b = board_from_rows({"###.......", "##........", "##.#######", "##..######", "##.#######"});
  const Geometry g{10, 22};
  for (RotationSystem rs : kSystems) {
    auto set = std::make_unique<ReachableSet>();
    find_reachable(b, g, T, 20, rs, *set);
    check_placements(b, g, 20, rs, *set);
    const std::vector<Key> got = keys(*set), drops = drop_keys(b, g, T);
    const bool slot = std::find(got.begin(), got.end(), Key(1, 2, 0)) != got.end();
    EXPECT_EQ(slot, rs == RotationSystem::srs) << to_string(rs);  // only the (-1,-2) kick gets there
    EXPECT_EQ(std::find(drops.begin(), drops.end(), Key(1, 2, 0)), drops.end());
    // Tucks under the roof: T flat at row 3 on columns 2..4 is not a drop either.
    EXPECT_NE(std::find(got.begin(), got.end(), Key(0, 2, 3)), got.end());
    EXPECT_GT(got.size(), drops.size());
  }
}

TEST(Reachable, BlockOutGivesNoPlacements) {
  Board b;
  b.cols[4] = Word{1} << 21;  // the T's nub at spawn row 20
  auto set = std::make_unique<ReachableSet>();
  EXPECT_EQ(find_reachable(b, {10, 22}, T, 20, RotationSystem::srs, *set), 0);
  EXPECT_TRUE(set->block_out);
  EXPECT_EQ(find_reachable(b, {10, 22}, T, 19, RotationSystem::srs, *set), 34);  // one row lower
  EXPECT_FALSE(set->block_out);
}

TEST(Reachable, RandomBoardsAgreeWithTheNaiveSearchAndReplay) {
  std::mt19937 rng(20240611);
  auto set = std::make_unique<ReachableSet>();
  int more_than_drops = 0, fewer_than_drops = 0, boards = 0;
  for (Field f : {Field{{10, 22}, 20}, Field{{6, 12}, 10}, Field{{16, 28}, 26}})
    for (int n = 0; n < 12; ++n) {
      const Board b = random_board(rng, f.geometry, f.spawn_row - 6);
      ++boards;
      for (RotationSystem rs : kSystems)
        for (int p = 0; p < PIECE_NB; ++p) {
          const Piece piece = static_cast<Piece>(p);
          SCOPED_TRACE(to_text(b, f.geometry) + kPieceChar[p] + " " + to_string(rs));
          find_reachable(b, f.geometry, piece, f.spawn_row, rs, *set);
          ASSERT_FALSE(set->block_out);
          check_placements(b, f.geometry, f.spawn_row, rs, *set);

          const auto naive = naive_reachable(b, f.geometry, piece, f.spawn_row, rs);
          ASSERT_EQ(static_cast<std::size_t>(set->count), naive.size());
          for (int i = 0; i < set->count; ++i) {
            const auto it = naive.find(cells_of(set->placements[i]));
            ASSERT_NE(it, naive.end()) << "placement " << i << " is not reachable";
            EXPECT_EQ(describe(input_sequence(*set, i)), describe(it->second));
          }
          const int drops = static_cast<int>(drop_keys(b, f.geometry, piece).size());
          more_than_drops += set->count > drops;
          fewer_than_drops += set->count < drops;
        }
    }
  EXPECT_GT(more_than_drops, boards);  // overhangs open placements that drops miss
  RecordProperty("more_than_drops", more_than_drops);
  RecordProperty("fewer_than_drops", fewer_than_drops);
}

TEST(Reachable, ReusedStorageGivesTheSameAnswer) {
  std::mt19937 rng(7);
  const Geometry g{10, 22};
  const Board b = random_board(rng, g, 14);
  auto first = std::make_unique<ReachableSet>(), second = std::make_unique<ReachableSet>();
  find_reachable(b, g, L, 20, RotationSystem::srs, *first);
  find_reachable(Board{}, g, I, 20, RotationSystem::simple, *second);  // dirty the storage
  find_reachable(b, g, L, 20, RotationSystem::srs, *second);
  ASSERT_EQ(keys(*first), keys(*second));
  for (int i = 0; i < first->count; ++i) EXPECT_EQ(input_sequence(*first, i), input_sequence(*second, i));
}

}  // namespace
}  // namespace tb
