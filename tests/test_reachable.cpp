// Move-reachable placements (engine/moves/reachable.h, docs/srs.md "Reachable placements").
//
// The fast search is checked against the drop model on empty boards, against hand-made
// spins, and against a naive breadth-first search over engine/moves/srs.h Playfield moves on random
// boards with overhangs; every stored input sequence is replayed through the Playfield.
// find_reachable_placements (the flood fill, no search tree) is checked against
// find_reachable on thousands of random boards of several kinds.
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


// ---------------------------------------------------------------------------------------
// find_reachable_placements against find_reachable: the same set, the same order.

// "" when `got` (find_reachable_placements) has want's (find_reachable) count, block-out,
// piece and placements with their rows, and no search-tree state; else the first difference.
std::string set_difference(const ReachableSet& want, const ReachableSet& got) {
  if (got.block_out != want.block_out)
    return std::string("block_out ") + (got.block_out ? "true" : "false") + ", want " +
           (want.block_out ? "true" : "false");
  if (got.piece != want.piece) return "piece differs";
  for (int i = 0; i < std::min(want.count, got.count); ++i) {
    const ReachablePlacement &w = want.placements[i], &h = got.placements[i];
    if (!(h.placement == w.placement) || h.row != w.row)
      return "placement " + std::to_string(i) + ": (orientation " +
             std::to_string(h.placement.orientation) + ", column " +
             std::to_string(h.placement.column) + ", row " + std::to_string(h.row) + "), want (" +
             std::to_string(w.placement.orientation) + ", " + std::to_string(w.placement.column) +
             ", " + std::to_string(w.row) + ")";
    if (h.from != 0) return "placement " + std::to_string(i) + ": from is not 0";
  }
  if (got.count != want.count)
    return "count " + std::to_string(got.count) + ", want " + std::to_string(want.count);
  return {};
}

int below(std::mt19937& rng, int n) {
  return n <= 0 ? 0 : static_cast<int>(rng() % static_cast<unsigned>(n));
}
void set_cell(Board& b, Geometry g, int c, int r, bool on) {
  if (c < 0 || c >= g.width || r < 0 || r >= g.height) return;
  if (on)
    b.cols[c] |= Word{1} << r;
  else
    b.cols[c] &= ~(Word{1} << r);
}

// Independent cells at a density, in rows [0, rows).
Board noise_board(std::mt19937& rng, Geometry g, double density, int rows) {
  std::bernoulli_distribution on(density);
  Board b;
  for (int c = 0; c < g.width; ++c)
    for (int r = 0; r < std::min(rows, g.height); ++r) set_cell(b, g, c, r, on(rng));
  return b;
}

// A played-looking stack: a random-walk surface with a few holes, then floating roofs (tucks
// under them), T-spin and S/Z-spin slots under an overhang, and I tunnels.
Board stack_board(std::mt19937& rng, Geometry g) {
  Board b;
  std::array<int, kMaxWidth> h{};
  int level = below(rng, g.height / 2 + 1);
  for (int c = 0; c < g.width; ++c) {
    level = std::clamp(level + below(rng, 7) - 3, 0, g.height - 3);
    h[c] = level;
    for (int r = 0; r < level; ++r) set_cell(b, g, c, r, below(rng, 8) != 0 || r == level - 1);
  }
  for (int n = below(rng, 4); n > 0; --n) {  // roofs a little above the surface
    const int c0 = below(rng, g.width), len = 1 + below(rng, 4);
    const int row = h[c0] + 1 + below(rng, 3);
    for (int c = c0; c < std::min(g.width, c0 + len); ++c) set_cell(b, g, c, row, true);
  }
  for (int n = below(rng, 3); n > 0; --n) {  // T slot: .#. / ... / #.# with a roof on one side
    const int c = 1 + below(rng, g.width - 2), r = below(rng, std::max(1, g.height - 5));
    for (int dc = -1; dc <= 1; ++dc) set_cell(b, g, c + dc, r + 1, false);
    set_cell(b, g, c, r, false);
    set_cell(b, g, c - 1, r, true);
    set_cell(b, g, c + 1, r, true);
    set_cell(b, g, c, r - 1, true);
    const int side = below(rng, 2) ? 1 : -1;
    set_cell(b, g, c + side, r + 2, true);
    set_cell(b, g, c - side, r + 2, false);
    set_cell(b, g, c, r + 2, false);
  }
  for (int n = below(rng, 2); n > 0; --n) {  // S/Z slot: a step under a one-cell roof
    const int c = below(rng, g.width - 2), r = below(rng, std::max(1, g.height - 4));
    set_cell(b, g, c, r, false);
    set_cell(b, g, c + 1, r, false);
    set_cell(b, g, c + 1, r + 1, false);
    set_cell(b, g, c + 2, r + 1, false);
    set_cell(b, g, c + 2, r, true);
    set_cell(b, g, c, r + 1, true);
    set_cell(b, g, c, r + 2, true);
  }
  if (below(rng, 3) == 0) {  // I tunnel: a horizontal gap of 4 under a roof, opened at one end
    const int r = below(rng, std::max(1, g.height - 3)), c0 = below(rng, std::max(1, g.width - 3));
    for (int c = c0; c < c0 + 4; ++c) {
      set_cell(b, g, c, r, false);
      set_cell(b, g, c, r + 1, true);
    }
    const int open = below(rng, 2) ? c0 - 1 : c0 + 4;
    for (int rr = r; rr < g.height; ++rr) set_cell(b, g, open, rr, false);
  }
  return b;
}

// Rows full but for one or two gaps, up to a random top: near a top-out, few placements.
Board nearly_full_board(std::mt19937& rng, Geometry g) {
  Board b;
  const int top = g.height / 2 + below(rng, g.height - g.height / 2 + 1);
  for (int r = 0; r < top; ++r) {
    for (int c = 0; c < g.width; ++c) set_cell(b, g, c, r, true);
    for (int gaps = 1 + below(rng, 2); gaps > 0; --gaps)
      set_cell(b, g, below(rng, g.width), r, false);
  }
  return b;
}

// Some cells in the spawn area (rows spawn_row .. spawn_row + 1 around the centre): some
// pieces are blocked out, some squeeze past.
Board block_out_board(std::mt19937& rng, Geometry g, int spawn_row) {
  Board b = below(rng, 2) ? stack_board(rng, g) : Board{};
  for (int n = 1 + below(rng, 2); n > 0; --n)
    set_cell(b, g, g.width / 2 - 2 + below(rng, 4), spawn_row + below(rng, 2), true);
  return b;
}

TEST(ReachablePlacements, EqualsTheBreadthFirstSearchOnRandomBoards) {
  // 10x22 with spawn row 20 is the Guideline; the rest are research boards, with spawn rows
  // from H - 2 (every piece can turn in place) down to lower ones (more hidden rows).
  const Field fields[] = {{{10, 22}, 20}, {{10, 20}, 18}, {{10, 22}, 19}, {{4, 4}, 2},
                          {{4, 8}, 6},    {{5, 9}, 7},    {{6, 12}, 10},  {{7, 14}, 11},
                          {{12, 16}, 14}, {{16, 28}, 26}, {{16, 4}, 2},   {{4, 28}, 26},
                          {{8, 28}, 20},  {{16, 20}, 17}};
  constexpr int kBoardsPerField = 300;
  std::mt19937 rng(20250117);
  auto bfs = std::make_unique<ReachableSet>(), flood = std::make_unique<ReachableSet>();
  int boards = 0, calls = 0, block_outs = 0, placements = 0, beyond_drops = 0, kicks_matter = 0;
  for (Field f : fields)
    for (int n = 0; n < kBoardsPerField; ++n) {
      const Geometry g = f.geometry;
      int spawn_row = f.spawn_row;
      if (below(rng, 10) == 0) spawn_row = below(rng, g.height + 3) - 1;  // odd spawns, -1 .. H + 1
      Board b;
      switch (n % 8) {
        case 0: b = n == 0 ? Board{} : noise_board(rng, g, 0.05, g.height); break;
        case 1: b = noise_board(rng, g, 0.1 + 0.1 * below(rng, 8), 1 + below(rng, g.height)); break;
        case 2: b = noise_board(rng, g, 0.3 + 0.2 * below(rng, 4), g.height - 2); break;
        case 3: case 4: b = stack_board(rng, g); break;
        case 5: b = random_board(rng, g, std::max(1, spawn_row - 4)); break;
        case 6: b = nearly_full_board(rng, g); break;
        case 7: b = block_out_board(rng, g, spawn_row); break;
      }
      // Cells above the field (rows H..31), as a second ply's uncleared first piece can
      // leave: both searches treat rows from H up as solid whatever the words hold.
      if (below(rng, 16) == 0)
        for (int c = 0; c < g.width; ++c)
          b.cols[c] |= static_cast<Word>(rng()) & ~low_mask(g.height);
      ++boards;
      std::array<std::vector<Key>, 2> by_system;
      for (RotationSystem rs : kSystems)
        for (int p = 0; p < PIECE_NB; ++p) {
          const Piece piece = static_cast<Piece>(p);
          find_reachable(b, g, piece, spawn_row, rs, *bfs);
          flood->count = -1;  // stale answers must not pass
          const int count = find_reachable_placements(b, g, piece, spawn_row, rs, *flood);
          ++calls;
          const std::string diff =
              count == flood->count ? set_difference(*bfs, *flood) : "return value differs";
          ASSERT_EQ(diff, "") << size_name(g) << " spawn row " << spawn_row << ", piece "
                              << kPieceChar[p] << ", " << to_string(rs) << ", board kind "
                              << n % 8 << "\n"
                              << to_text(b, g);
          block_outs += bfs->block_out;
          placements += bfs->count;
          if (!bfs->block_out)
            beyond_drops += bfs->count > static_cast<int>(drop_keys(b, g, piece).size());
          const auto k = keys(*bfs);
          auto& all = by_system[rs == RotationSystem::srs];
          all.insert(all.end(), k.begin(), k.end());
        }
      kicks_matter += by_system[0] != by_system[1];
    }
  // The kinds cover what they are meant to: blocked spawns, tucks and spins beyond the drop
  // model, and boards where the SRS kicks reach other placements than the simple ones.
  EXPECT_GE(boards, 4000);
  EXPECT_GT(block_outs, calls / 20);
  EXPECT_GT(beyond_drops, calls / 10);
  EXPECT_GT(kicks_matter, boards / 10);
  RecordProperty("calls", calls);
  RecordProperty("block_outs", block_outs);
  RecordProperty("placements", placements);
  RecordProperty("beyond_drops", beyond_drops);
  RecordProperty("kicks_matter", kicks_matter);
}

TEST(ReachablePlacements, HandMadeSpinsAndTheEmptyBoard) {
  auto bfs = std::make_unique<ReachableSet>(), flood = std::make_unique<ReachableSet>();
  const Board tst = board_from_rows({"###.......", "##........", "##.#######", "##..######", "##.#######"});
  for (RotationSystem rs : kSystems) {
    find_reachable_placements(tst, {10, 22}, T, 20, rs, *flood);
    const auto got = keys(*flood);
    const bool slot = std::find(got.begin(), got.end(), Key(1, 2, 0)) != got.end();
    EXPECT_EQ(slot, rs == RotationSystem::srs);  // only the (-1,-2) kick gets there
    find_reachable(tst, {10, 22}, T, 20, rs, *bfs);
    EXPECT_EQ(set_difference(*bfs, *flood), "");
  }
  const int want[PIECE_NB] = {17, 9, 34, 17, 17, 34, 34};  // I O T S Z J L, docs/rules.md
  for (int p = 0; p < PIECE_NB; ++p) {
    const Piece piece = static_cast<Piece>(p);
    EXPECT_EQ(find_reachable_placements(Board{}, {10, 22}, piece, 20, RotationSystem::srs, *flood),
              want[p]);
    EXPECT_EQ(keys(*flood), drop_keys(Board{}, {10, 22}, piece));
  }
  Board blocked;
  blocked.cols[4] = Word{1} << 21;  // the T's nub at spawn row 20
  EXPECT_EQ(find_reachable_placements(blocked, {10, 22}, T, 20, RotationSystem::srs, *flood), 0);
  EXPECT_TRUE(flood->block_out);
  EXPECT_EQ(find_reachable_placements(blocked, {10, 22}, T, 19, RotationSystem::srs, *flood), 34);
  EXPECT_FALSE(flood->block_out);
}

// reachable_are_drops: whenever it holds, find_reachable (the BFS, the reference) gives
// exactly the drop placements at their landing rows, for every piece and rotation system.
// Boards: low stacks with holes at every depth (the condition's edge), plus the random kinds
// above; it must hold often enough to be tested, and fail where a tuck or spin exists.
Board low_stack_board(std::mt19937& rng, Geometry g, int top) {
  Board b;
  const int base = below(rng, top + 1);
  const int hole_rows = below(rng, base + 1);  // holes only below this row (0: none)
  for (int c = 0; c < g.width; ++c) {
    const int h = std::clamp(base + below(rng, 5) - 2, 0, top);
    for (int r = 0; r < h; ++r) set_cell(b, g, c, r, r == h - 1 || r >= hole_rows || below(rng, 4) != 0);
  }
  return b;
}

TEST(ReachablePlacements, DropsWhereReachableAreDrops) {
  std::mt19937 rng(4242);
  auto set = std::make_unique<ReachableSet>();
  long held = 0, checked = 0;
  const Geometry geometries[] = {{10, 22, 2}, {10, 20}, {6, 12}, {16, 28}, {4, 10}};
  for (Geometry g : geometries) {
    const int spawn = g.height - 2;
    for (int trial = 0; trial < 1500; ++trial) {
      const int kind = trial % 5;
      const Board b = kind <= 1   ? low_stack_board(rng, g, spawn - 2)
                      : kind == 2 ? low_stack_board(rng, g, spawn / 2)
                      : kind == 3 ? stack_board(rng, g)
                                  : noise_board(rng, g, 0.4, below(rng, g.height));
      if (!reachable_are_drops(b, g, spawn)) continue;
      ++held;
      int heights[kMaxWidth];
      for (int c = 0; c < g.width; ++c) heights[c] = column_height(b.cols[c]);
      for (RotationSystem rs : {RotationSystem::srs, RotationSystem::simple})
        for (int p = 0; p < PIECE_NB; ++p) {
          const Piece piece = static_cast<Piece>(p);
          find_reachable(b, g, piece, spawn, rs, *set);
          std::array<Placement, kMaxPlacements> drops;
          const int n = static_cast<int>(generate_drops(piece, g.width, drops.data()) - drops.data());
          ASSERT_FALSE(set->block_out);
          ASSERT_EQ(set->count, n) << "piece " << p << "\n" << to_text(b, g);
          for (int i = 0; i < n; ++i) {
            const Orientation& o = kShapes[p].orientation[drops[i].orientation];
            ASSERT_EQ(set->placements[i].placement, drops[i]) << i;
            ASSERT_EQ(set->placements[i].row, landing_row(heights, o, drops[i].column)) << i << "\n" << to_text(b, g);
          }
          ++checked;
        }
    }
  }
  EXPECT_GT(held, 1500);
  EXPECT_GT(checked, 25000);
  // A tuck under a one-cell roof is a placement no drop reaches: the condition must fail.
  Board roof;
  roof.cols[3] = 0b100;  // a cell at row 2 over an empty column: holes at rows 0-1
  EXPECT_FALSE(reachable_are_drops(roof, {10, 22, 2}, 20));
  EXPECT_TRUE(reachable_are_drops(Board{}, {10, 22, 2}, 20));
}

// drops_are_reachable: whenever it holds, every drop placement is reachable (find_reachable,
// the BFS) and is its (orientation, column)'s highest placement, so keep_below_drops leaves
// exactly the reachable placements that are not drops, in order.
TEST(ReachablePlacements, DropsAreTheHighestWhereDropsAreReachable) {
  std::mt19937 rng(4343);
  auto set = std::make_unique<ReachableSet>();
  long held = 0, under = 0;
  for (Geometry g : {Geometry{10, 22, 2}, Geometry{10, 20}, Geometry{7, 12}, Geometry{16, 28}}) {
    const int spawn = g.height - 2;
    for (int trial = 0; trial < 800; ++trial) {
      const Board b = trial % 2 ? low_stack_board(rng, g, spawn - 2) : noise_board(rng, g, 0.4, below(rng, spawn - 3));
      if (!drops_are_reachable(b, g, spawn)) {
        int top = 0;
        for (int c = 0; c < g.width; ++c) top = std::max(top, column_height(b.cols[c]));
        ASSERT_GT(top, spawn - kReachSpawnMargin);
        continue;
      }
      ++held;
      int heights[kMaxWidth];
      for (int c = 0; c < g.width; ++c) heights[c] = column_height(b.cols[c]);
      for (int p = 0; p < PIECE_NB; ++p) {
        const Piece piece = static_cast<Piece>(p);
        find_reachable(b, g, piece, spawn, RotationSystem::srs, *set);
        std::vector<ReachablePlacement> all(set->placements.begin(), set->placements.begin() + set->count);
        std::array<Placement, kMaxPlacements> drops;
        const int n = static_cast<int>(generate_drops(piece, g.width, drops.data()) - drops.data());
        std::vector<ReachablePlacement> expected;  // every placement but the drops
        for (int i = 0; i < n; ++i) {
          const Orientation& o = kShapes[p].orientation[drops[i].orientation];
          const int row = landing_row(heights, o, drops[i].column);
          int highest = -1;
          for (const ReachablePlacement& r : all)
            if (r.placement == drops[i]) highest = std::max(highest, static_cast<int>(r.row));
          ASSERT_EQ(highest, row) << "piece " << p << " drop " << i << "\n" << to_text(b, g);
        }
        for (const ReachablePlacement& r : all) {
          const Orientation& o = kShapes[p].orientation[r.placement.orientation];
          if (r.row != landing_row(heights, o, r.placement.column)) expected.push_back(r);
        }
        ASSERT_EQ(keep_below_drops(*set), static_cast<int>(expected.size()));
        for (int i = 0; i < set->count; ++i) {
          ASSERT_EQ(set->placements[i].placement, expected[i].placement) << i;
          ASSERT_EQ(set->placements[i].row, expected[i].row) << i;
        }
        under += set->count;
      }
    }
  }
  EXPECT_GT(held, 1000);
  EXPECT_GT(under, 500) << "boards with tucks and spins must occur";
}


// find_reachable_bound and placements_under_drops_within: on a board b' holding b's cells and
// more (a piece added on top, cells added at random, or b itself), every placement the BFS
// reaches on b' that is not a drop is among the placements the bound of b allows on b', and
// each of those rests on b' (its cells are empty, a cell under it is not) and is not the drop.
TEST(ReachableBound, HoldsEveryPlacementUnderTheDropsOfBoardsWithMoreCells) {
  struct Case {
    Field field;
    int boards;
  };
  const Case cases[] = {{{{10, 22}, 20}, 700}, {{{10, 20}, 18}, 300}, {{{7, 14}, 11}, 200},
                        {{{16, 28}, 26}, 100}, {{{4, 8}, 6}, 200}};
  std::mt19937 rng(77031);
  auto bound = std::make_unique<ReachableBound>();
  auto bfs = std::make_unique<ReachableSet>(), got = std::make_unique<ReachableSet>();
  long calls = 0, tucks = 0, allowed = 0, not_reached = 0, block_outs = 0;
  for (const Case& cs : cases) {
    const Geometry g = cs.field.geometry;
    const int spawn_row = cs.field.spawn_row;
    for (int n = 0; n < cs.boards; ++n) {
      Board b;
      switch (n % 5) {
        case 0: case 1: b = stack_board(rng, g); break;
        case 2: b = noise_board(rng, g, 0.3 + 0.1 * below(rng, 4), 1 + below(rng, spawn_row)); break;
        case 3: b = nearly_full_board(rng, g); break;
        case 4: b = below(rng, 4) ? low_stack_board(rng, g, std::max(1, spawn_row - 6)) : block_out_board(rng, g, spawn_row); break;
      }
      // b': a piece dropped onto b (its cells only: nothing cleared), random cells, or b.
      Board more = b;
      const int kind = below(rng, 3);
      if (kind == 0) {
        std::array<Placement, kMaxPlacements> drops;
        const Piece piece = static_cast<Piece>(below(rng, PIECE_NB));
        const int count = static_cast<int>(generate_drops(piece, g.width, drops.data()) - drops.data());
        const Placement pl = drops[below(rng, count)];
        int heights[kMaxWidth];
        for (int c = 0; c < g.width; ++c) heights[c] = b.height_of(c);
        const Orientation& o = kShapes[piece].orientation[pl.orientation];
        const int row = landing_row(heights, o, pl.column);
        for (int i = 0; i < o.width; ++i) more.cols[pl.column + i] |= (o.mask[i] << row) & low_mask(g.height);
      } else if (kind == 1) {
        for (int k = 1 + below(rng, 6); k > 0; --k) set_cell(more, g, below(rng, g.width), below(rng, spawn_row + 2), true);
      }
      int heights[kMaxWidth];
      for (int c = 0; c < g.width; ++c) heights[c] = more.height_of(c);
      for (RotationSystem rs : kSystems)
        for (int p = 0; p < PIECE_NB; ++p) {
          const Piece piece = static_cast<Piece>(p);
          find_reachable_bound(b, g, piece, spawn_row, rs, *bound);
          find_reachable(more, g, piece, spawn_row, rs, *bfs);
          got->count = -1;  // stale answers must not pass
          const int count = placements_under_drops_within(*bound, more, g, *got);
          ASSERT_EQ(count, got->count);
          ++calls;
          block_outs += bound->block_out;
          const std::vector<Key> got_keys = keys(*got), bfs_keys = keys(*bfs);
          for (int i = 0; i < got->count; ++i) {
            const ReachablePlacement& r = got->placements[i];
            const Orientation& o = kShapes[p].orientation[r.placement.orientation];
            ASSERT_EQ(r.placement.piece, piece);
            ASSERT_NE(r.row, landing_row(heights, o, r.placement.column)) << "a drop";
            bool rests = r.row == 0;
            for (int c = 0; c < o.width; ++c) {
              const Word cells = static_cast<Word>(o.mask[c]) << r.row;
              ASSERT_EQ(more.cols[r.placement.column + c] & cells, 0u) << "overlaps the board";
              rests = rests || (more.cols[r.placement.column + c] & (cells >> 1) & ~cells);
            }
            ASSERT_TRUE(rests) << "does not rest on the board";
            if (i > 0) {
              ASSERT_LT(got_keys[i - 1], got_keys[i]) << "out of order";
            }
          }
          int reached_tucks = 0;
          for (int i = 0; i < bfs->count; ++i) {
            const ReachablePlacement& r = bfs->placements[i];
            const Orientation& o = kShapes[p].orientation[r.placement.orientation];
            if (r.row == landing_row(heights, o, r.placement.column)) continue;
            ++reached_tucks;
            ASSERT_TRUE(std::binary_search(got_keys.begin(), got_keys.end(), bfs_keys[i]))
                << size_name(g) << " spawn row " << spawn_row << ", piece " << kPieceChar[p] << ", "
                << to_string(rs) << ", b' kind " << kind << ": placement (" << int{r.placement.orientation}
                << ", " << int{r.placement.column} << ", " << int{r.row} << ") reached but not allowed\nb:\n"
                << to_text(b, g) << "b':\n" << to_text(more, g);
          }
          tucks += reached_tucks;
          allowed += got->count;
          not_reached += got->count - reached_tucks;
        }
    }
  }
  // Tucks and spins occur, block-outs too, and the bound allows more than is reached (it is a
  // bound: cells added after b can close a way in).
  EXPECT_GT(tucks, calls / 4);
  EXPECT_GT(block_outs, 50);
  EXPECT_GT(not_reached, 0);
  RecordProperty("calls", static_cast<int>(calls));
  RecordProperty("tucks", static_cast<int>(tucks));
  RecordProperty("allowed", static_cast<int>(allowed));
}

}  // namespace
}  // namespace tb
