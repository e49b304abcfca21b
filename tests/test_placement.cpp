// The `drop` placement model, line clears and the overflow rules (docs/rules.md "Pieces and
// orientations", "Placement model `drop`", "Line clears, score, game over").
//
// Every expected value here is worked out by hand from those rules, not read back from the
// engine.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "board.h"
#include "pieces.h"
#include "placement.h"
#include "rules.h"

namespace tb {
namespace {


std::vector<Placement> drops(Piece p, int width) {
  std::array<Placement, kMaxPlacements> buf{};
  Placement* end = generate_drops(p, width, buf.data());
  return {buf.data(), end};
}

// docs/rules.md "Pieces and orientations": the orientation widths, in the documented
// enumeration order.
const std::vector<int>& rules_widths(Piece p) {
  static const std::array<std::vector<int>, PIECE_NB> widths = {{
      {4, 1},        // I
      {2},           // O
      {3, 2, 3, 2},  // T
      {3, 2},        // S
      {3, 2},        // Z
      {3, 2, 3, 2},  // J
      {3, 2, 3, 2},  // L
  }};
  return widths[p];
}

int count_from_widths(Piece p, int width) {
  int n = 0;
  for (int w : rules_widths(p)) n += width - w + 1;
  return n;
}

constexpr Geometry k10x10{10, 10};

// ---------------------------------------------------------------------------------------
// Placement counts and enumeration order

TEST(PlacementCount, EmptyBoardWidth10MatchesRulesTable) {
  EXPECT_EQ(drops(I, 10).size(), 17u);
  EXPECT_EQ(drops(O, 10).size(), 9u);
  EXPECT_EQ(drops(S, 10).size(), 17u);
  EXPECT_EQ(drops(Z, 10).size(), 17u);
  EXPECT_EQ(drops(T, 10).size(), 34u);
  EXPECT_EQ(drops(J, 10).size(), 34u);
  EXPECT_EQ(drops(L, 10).size(), 34u);
  std::size_t total = 0;
  for (int p = 0; p < PIECE_NB; ++p) total += drops(static_cast<Piece>(p), 10).size();
  EXPECT_EQ(total, 162u);
}

TEST(PlacementCount, Width4And16) {
  // W = 4: I 1+4, O 3, S/Z 2+3, T/J/L 2+3+2+3.
  EXPECT_EQ(drops(I, 4).size(), 5u);
  EXPECT_EQ(drops(O, 4).size(), 3u);
  EXPECT_EQ(drops(S, 4).size(), 5u);
  EXPECT_EQ(drops(Z, 4).size(), 5u);
  EXPECT_EQ(drops(T, 4).size(), 10u);
  EXPECT_EQ(drops(J, 4).size(), 10u);
  EXPECT_EQ(drops(L, 4).size(), 10u);
  // W = 16: I 13+16, O 15, S/Z 14+15, T/J/L 14+15+14+15.
  EXPECT_EQ(drops(I, 16).size(), 29u);
  EXPECT_EQ(drops(O, 16).size(), 15u);
  EXPECT_EQ(drops(S, 16).size(), 29u);
  EXPECT_EQ(drops(Z, 16).size(), 29u);
  EXPECT_EQ(drops(T, 16).size(), 58u);
  EXPECT_EQ(drops(J, 16).size(), 58u);
  EXPECT_EQ(drops(L, 16).size(), 58u);
  std::size_t total4 = 0, total16 = 0;
  for (int p = 0; p < PIECE_NB; ++p) {
    total4 += drops(static_cast<Piece>(p), 4).size();
    total16 += drops(static_cast<Piece>(p), 16).size();
  }
  EXPECT_EQ(total4, 48u);
  EXPECT_EQ(total16, 276u);
}

TEST(PlacementCount, EveryWidthFollowsOrientationWidths) {
  for (int w = kMinWidth; w <= kMaxWidth; ++w)
    for (int p = 0; p < PIECE_NB; ++p) {
      const auto piece = static_cast<Piece>(p);
      const auto n = drops(piece, w).size();
      EXPECT_EQ(static_cast<int>(n), count_from_widths(piece, w)) << kPieceChar[p] << " W=" << w;
      EXPECT_LE(static_cast<int>(n), kMaxPlacements);
    }
}

TEST(PlacementOrder, OrientationWidthsMatchRulesTable) {
  for (int p = 0; p < PIECE_NB; ++p) {
    const auto& want = rules_widths(static_cast<Piece>(p));
    ASSERT_EQ(kShapes[p].count, static_cast<int>(want.size())) << kPieceChar[p];
    for (int o = 0; o < kShapes[p].count; ++o)
      EXPECT_EQ(kShapes[p].orientation[o].width, want[o]) << kPieceChar[p] << " orientation " << o;
  }
}

TEST(PlacementOrder, OrientationsInShapeOrderColumnsLeftToRight) {
  for (int w : {4, 7, 10, 16})
    for (int p = 0; p < PIECE_NB; ++p) {
      std::vector<Placement> want;
      for (int o = 0; o < kShapes[p].count; ++o)
        for (int x = 0; x + kShapes[p].orientation[o].width <= w; ++x)
          want.push_back({static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(o),
                          static_cast<std::uint8_t>(x)});
      const auto got = drops(static_cast<Piece>(p), w);
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t k = 0; k < got.size(); ++k) {
        EXPECT_EQ(got[k].piece, want[k].piece) << kPieceChar[p] << " W=" << w << " k=" << k;
        EXPECT_EQ(got[k].orientation, want[k].orientation) << kPieceChar[p] << " W=" << w << " k=" << k;
        EXPECT_EQ(got[k].column, want[k].column) << kPieceChar[p] << " W=" << w << " k=" << k;
      }
    }
}

TEST(PlacementOrder, TAtWidth10Landmarks) {
  const auto t = drops(T, 10);
  ASSERT_EQ(t.size(), 34u);
  EXPECT_EQ(t[0], (Placement{T, 0, 0}));
  EXPECT_EQ(t[7], (Placement{T, 0, 7}));
  EXPECT_EQ(t[8], (Placement{T, 1, 0}));
  EXPECT_EQ(t[16], (Placement{T, 1, 8}));
  EXPECT_EQ(t[17], (Placement{T, 2, 0}));
  EXPECT_EQ(t[24], (Placement{T, 2, 7}));
  EXPECT_EQ(t[25], (Placement{T, 3, 0}));
  EXPECT_EQ(t[33], (Placement{T, 3, 8}));
}

// pieces.h documents the orientation order as SRS spawn, R, 2, L (first of each distinct
// shape).  Dropping each orientation at column 0 of an empty board shows its cells.
TEST(PlacementOrder, OrientationShapesAreSrsSpawnRTwoL) {
  struct Case {
    Piece p;
    int o;
    std::vector<std::string_view> rows;
  };
  const std::vector<Case> cases = {
      {I, 0, {"####......"}},
      {I, 1, {"#.........", "#.........", "#.........", "#........."}},
      {O, 0, {"##........", "##........"}},
      {T, 0, {".#........", "###......."}},
      {T, 1, {"#.........", "##........", "#........."}},
      {T, 2, {"###.......", ".#........"}},
      {T, 3, {".#........", "##........", ".#........"}},
      {S, 0, {".##.......", "##........"}},
      {S, 1, {"#.........", "##........", ".#........"}},
      {Z, 0, {"##........", ".##......."}},
      {Z, 1, {".#........", "##........", "#........."}},
      {J, 0, {"#.........", "###......."}},
      {J, 1, {"##........", "#.........", "#........."}},
      {J, 2, {"###.......", "..#......."}},
      {J, 3, {".#........", ".#........", "##........"}},
      {L, 0, {"..#.......", "###......."}},
      {L, 1, {"#.........", "#.........", "##........"}},
      {L, 2, {"###.......", "#........."}},
      {L, 3, {"##........", ".#........", ".#........"}},
  };
  for (const Case& c : cases) {
    Board b;
    const Move m = drop(b, {c.p, static_cast<std::uint8_t>(c.o), 0}, k10x10, Overflow::strict);
    const Board want = board_from_rows(c.rows);
    EXPECT_EQ(to_text(b, k10x10), to_text(want, k10x10)) << kPieceChar[c.p] << " orientation " << c.o;
    EXPECT_EQ(m.landing_row, 0);
    EXPECT_EQ(m.piece_height, static_cast<int>(c.rows.size()));
    EXPECT_FALSE(m.game_over);
  }
}

// ---------------------------------------------------------------------------------------
// Where a piece lands

TEST(Drop, RestsOnTheHighestCellUnderAnyOfItsColumns) {
  // Heights 3, 1, 0: the flat T (.#. / ###) rests on column 0 at row 3.
  Board b = board_from_rows({
      "#.........",
      "#.........",
      "##........",
  });
  const Move m = drop(b, {T, 0, 0}, k10x10, Overflow::strict);
  EXPECT_EQ(m.landing_row, 3);
  EXPECT_EQ(m.piece_height, 2);
  EXPECT_EQ(m.landing_height_x2(), 7);  // 3 + (2 - 1) / 2 = 3.5
  EXPECT_EQ(m.lines, 0);
  EXPECT_EQ(m.eroded, 0);
  EXPECT_FALSE(m.game_over);
  const Board want = board_from_rows({
      ".#........",
      "###.......",
      "#.........",
      "#.........",
      "##........",
  });
  EXPECT_EQ(to_text(b, k10x10), to_text(want, k10x10));
  EXPECT_EQ(b, want);
}

TEST(Drop, PieceWhoseLowestCellIsNotInEveryColumn) {
  // T pointing down (### / .#.): its side cells hang one row above its stem.  Column 0 has
  // height 5, so the arm over column 0 rests on row 5 and the stem ends at row 4.
  Board b = board_from_rows({"#.........", "#.........", "#.........", "#.........", "#........."});
  const Move m = drop(b, {T, 2, 0}, k10x10, Overflow::strict);
  EXPECT_EQ(m.landing_row, 4);
  EXPECT_EQ(m.landing_height_x2(), 9);  // 4 + 0.5
  const Board want = board_from_rows({
      "###.......",
      "##........",
      "#.........",
      "#.........",
      "#.........",
      "#.........",
  });
  EXPECT_EQ(to_text(b, k10x10), to_text(want, k10x10));

  // The same piece one column to the right falls to the floor: the stem lands on row 0.
  Board e;
  const Move m2 = drop(e, {T, 2, 1}, k10x10, Overflow::strict);
  EXPECT_EQ(m2.landing_row, 0);
  EXPECT_EQ(to_text(e, k10x10), to_text(board_from_rows({".###......", "..#......."}), k10x10));
}

TEST(Drop, StopsOnOverhangNoSlidingUnder) {
  const Geometry g{10, 12};
  // Column 3 is filled at rows 0 and 6 only (holes 1..5); columns 2 and 4 are empty.
  const Board start = board_from_rows({
      "...#......",
      "..........",
      "..........",
      "..........",
      "..........",
      "..........",
      "...#......",
  });
  {
    // Flat S (.## / ##.) at column 2: its middle column rests on the cell at row 6, so the
    // piece locks at row 7 although columns 2 and 4 are empty to the floor.
    Board b = start;
    const Move m = drop(b, {S, 0, 2}, g, Overflow::strict);
    EXPECT_EQ(m.landing_row, 7);
    EXPECT_EQ(m.landing_height_x2(), 15);
    EXPECT_TRUE(b.filled(2, 7));
    EXPECT_TRUE(b.filled(3, 7));
    EXPECT_TRUE(b.filled(3, 8));
    EXPECT_TRUE(b.filled(4, 8));
    for (int r = 1; r <= 5; ++r) EXPECT_FALSE(b.filled(3, r)) << "row " << r;
    for (int r = 0; r < 7; ++r) {
      EXPECT_FALSE(b.filled(2, r)) << "row " << r;
      EXPECT_FALSE(b.filled(4, r)) << "row " << r;
    }
  }
  {
    // O at column 3 (columns 3, 4) also sits on row 6's cell.
    Board b = start;
    const Move m = drop(b, {O, 0, 3}, g, Overflow::strict);
    EXPECT_EQ(m.landing_row, 7);
    const Board want = board_from_rows({
        "...##.....",
        "...##.....",
        "...#......",
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
        "...#......",
    });
    EXPECT_EQ(to_text(b, g), to_text(want, g));
  }
  {
    // Vertical I in column 3: rows 7..10.
    Board b = start;
    const Move m = drop(b, {I, 1, 3}, g, Overflow::strict);
    EXPECT_EQ(m.landing_row, 7);
    EXPECT_EQ(m.piece_height, 4);
    EXPECT_EQ(m.landing_height_x2(), 17);  // 7 + 1.5
    EXPECT_EQ(b.cols[3], Word{0b11111000001});
  }
  {
    // L (## / .# / .#) at column 2: its right column (column 3) reaches lowest, so it rests
    // on row 6's cell; the top-left cell hangs over empty column 2.
    Board b = start;
    const Move m = drop(b, {L, 3, 2}, g, Overflow::strict);
    EXPECT_EQ(m.landing_row, 7);
    EXPECT_EQ(b.cols[2], Word{1} << 9);
    EXPECT_EQ(b.cols[3], Word{0b1111000001});
  }
}

TEST(Drop, LandingHeightX2) {
  // landing_height = lowest cell row + (piece height - 1) / 2, kept in half cells.
  Board b;
  EXPECT_EQ(drop(b, {O, 0, 0}, k10x10, Overflow::strict).landing_height_x2(), 1);  // 0 + 0.5
  EXPECT_EQ(drop(b, {O, 0, 0}, k10x10, Overflow::strict).landing_height_x2(), 5);  // 2 + 0.5
  EXPECT_EQ(drop(b, {I, 0, 0}, k10x10, Overflow::strict).landing_height_x2(), 8);  // 4 + 0
  EXPECT_EQ(drop(b, {J, 1, 0}, k10x10, Overflow::strict).landing_height_x2(), 12);  // 5 + 1
  Move m;
  m.landing_row = 3;
  m.piece_height = 4;
  EXPECT_EQ(m.landing_height_x2(), 9);
}

// ---------------------------------------------------------------------------------------
// Line clears

TEST(LineClear, SingleWithVerticalI) {
  Board b = board_from_rows({"#########."});
  const Move m = drop(b, {I, 1, 9}, k10x10, Overflow::strict);
  EXPECT_EQ(m.lines, 1);
  EXPECT_EQ(m.eroded, 1);  // 1 line x 1 piece cell in it
  EXPECT_EQ(m.landing_row, 0);
  EXPECT_EQ(m.landing_height_x2(), 3);  // measured before the clear
  EXPECT_FALSE(m.game_over);
  const Board want = board_from_rows({".........#", ".........#", ".........#"});
  EXPECT_EQ(to_text(b, k10x10), to_text(want, k10x10));
  EXPECT_EQ(b, want);
}

TEST(LineClear, SingleWithFlatTErodesThreeCells) {
  Board b = board_from_rows({"###...####"});
  const Move m = drop(b, {T, 0, 3}, k10x10, Overflow::strict);
  EXPECT_EQ(m.lines, 1);
  EXPECT_EQ(m.eroded, 3);
  EXPECT_EQ(b, board_from_rows({"....#....."}));
}

TEST(LineClear, DoubleWithORowsAboveMoveDown) {
  Board b = board_from_rows({
      "...#......",
      "#.........",
      "########..",
      "########..",
  });
  const Move m = drop(b, {O, 0, 8}, k10x10, Overflow::strict);
  EXPECT_EQ(m.lines, 2);
  EXPECT_EQ(m.eroded, 8);  // 2 lines x 4 cells
  const Board want = board_from_rows({"...#......", "#........."});
  EXPECT_EQ(to_text(b, k10x10), to_text(want, k10x10));
  EXPECT_EQ(b, want);
}

TEST(LineClear, TetrisWithI) {
  Board b = board_from_rows({
      ".......#..",
      "..........",
      "..#.......",
      "####.#####",
      "####.#####",
      "####.#####",
      "####.#####",
  });
  const Move m = drop(b, {I, 1, 4}, k10x10, Overflow::strict);
  EXPECT_EQ(m.lines, 4);
  EXPECT_EQ(m.eroded, 16);
  EXPECT_EQ(m.landing_row, 0);
  EXPECT_FALSE(m.game_over);
  const Board want = board_from_rows({".......#..", "..........", "..#......."});
  EXPECT_EQ(to_text(b, k10x10), to_text(want, k10x10));
  EXPECT_EQ(b, want);
}

TEST(LineClear, NonAdjacentRows) {
  // Vertical I in column 0 completes rows 0 and 2 but not 1 and 3.
  Board b = board_from_rows({
      "...#.....#",  // row 4
      ".######..#",  // row 3
      ".#########",  // row 2
      ".####.####",  // row 1
      ".#########",  // row 0
  });
  const Move m = drop(b, {I, 1, 0}, k10x10, Overflow::strict);
  EXPECT_EQ(m.lines, 2);
  EXPECT_EQ(m.eroded, 4);  // 2 lines x 2 piece cells
  const Board want = board_from_rows({
      "...#.....#",  // old row 4
      "#######..#",  // old row 3
      "#####.####",  // old row 1
  });
  EXPECT_EQ(to_text(b, k10x10), to_text(want, k10x10));
  EXPECT_EQ(b, want);
}

TEST(LineClear, OtherWidths) {
  {
    const Geometry g{4, 6};
    Board b = board_from_rows({"###.", "###.", "###.", "###."});
    const Move m = drop(b, {I, 1, 3}, g, Overflow::strict);
    EXPECT_EQ(m.lines, 4);
    EXPECT_EQ(m.eroded, 16);
    EXPECT_EQ(b, Board{});
  }
  {
    const Geometry g{16, 8};
    Board b = board_from_rows({"##########.#....", "############...."});
    const Move m = drop(b, {I, 0, 12}, g, Overflow::strict);
    EXPECT_EQ(m.lines, 1);
    EXPECT_EQ(m.eroded, 4);
    EXPECT_EQ(to_text(b, g), to_text(board_from_rows({"##########.#...."}), g));
  }
}

// ---------------------------------------------------------------------------------------
// strict vs clear-first

// Column 9 is filled to row 6; rows 7 and 8 are full except column 9; rows 0..6 have a hole
// in column 0.  The vertical I in column 9 locks on rows 7..10: it completes rows 7 and 8 and
// sticks out at row 10 = H.
Board overflow_board() {
  return board_from_rows({
      "..........",  // row 9
      "#########.",  // row 8
      "#########.",  // row 7
      ".#########",  // row 6
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",  // row 0
  });
}

TEST(Overflow, StrictEndsWithoutClearingAndKeepsThePiece) {
  Board b = overflow_board();
  const Move m = drop(b, {I, 1, 9}, k10x10, Overflow::strict);
  EXPECT_TRUE(m.game_over);
  EXPECT_EQ(m.lines, 0);
  EXPECT_EQ(m.eroded, 0);
  EXPECT_EQ(m.landing_row, 7);
  Board want = overflow_board();
  want.cols[9] |= Word{0b1111} << 7;
  EXPECT_EQ(b, want);
  EXPECT_TRUE(b.filled(9, 10));
  EXPECT_EQ(b.wall_height(10), 11);
}

TEST(Overflow, ClearFirstClearsAndContinues) {
  Board b = overflow_board();
  const Move m = drop(b, {I, 1, 9}, k10x10, Overflow::clear_first);
  EXPECT_FALSE(m.game_over);
  EXPECT_EQ(m.lines, 2);
  EXPECT_EQ(m.eroded, 4);
  EXPECT_EQ(m.landing_row, 7);
  const Board want = board_from_rows({
      ".........#",  // row 8 (the piece's old row 10)
      ".........#",  // row 7 (the piece's old row 9)
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",  // row 0
  });
  EXPECT_EQ(to_text(b, k10x10), to_text(want, k10x10));
  EXPECT_EQ(b, want);
  EXPECT_EQ(b.wall_height(10), 9);
}

TEST(Overflow, ClearFirstContinuesWhenWallHeightIsExactlyH) {
  // Only row 8 is completed (row 7 misses column 0): after the clear the piece spans rows
  // 7..9, the wall height is 10 = H and the game goes on.
  const Board start = board_from_rows({
      "..........",  // row 9
      "#########.",  // row 8
      ".########.",  // row 7
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",  // row 0
  });
  Board b = start;
  const Move m = drop(b, {I, 1, 9}, k10x10, Overflow::clear_first);
  EXPECT_FALSE(m.game_over);
  EXPECT_EQ(m.lines, 1);
  EXPECT_EQ(m.eroded, 1);
  EXPECT_EQ(b.wall_height(10), 10);
  EXPECT_EQ(b.cols[9], low_mask(10));
  EXPECT_EQ(b.cols[0], Word{0});

  Board s = start;
  const Move ms = drop(s, {I, 1, 9}, k10x10, Overflow::strict);
  EXPECT_TRUE(ms.game_over);
  EXPECT_EQ(ms.lines, 0);
}

TEST(Overflow, ClearFirstStillEndsWhenTheWallExceedsH) {
  // Column 9 filled to row 7, row 8 full but for column 9: the I spans rows 8..11, clears
  // row 8, and its remaining cells end at row 10 >= H.
  const Board start = board_from_rows({
      "..........",  // row 9
      "#########.",  // row 8
      ".#########",  // row 7
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",
      ".#########",  // row 0
  });
  Board b = start;
  const Move m = drop(b, {I, 1, 9}, k10x10, Overflow::clear_first);
  EXPECT_TRUE(m.game_over);
  EXPECT_EQ(m.lines, 1);
  EXPECT_EQ(b.wall_height(10), 11);

  Board s = start;
  const Move ms = drop(s, {I, 1, 9}, k10x10, Overflow::strict);
  EXPECT_TRUE(ms.game_over);
  EXPECT_EQ(ms.lines, 0);
  EXPECT_EQ(s.wall_height(10), 12);
}

TEST(Overflow, ReachingRowHMinus1IsNotGameOver) {
  // The I spans rows 6..9 exactly: nothing above row H-1, so both rules go on.
  for (Overflow o : {Overflow::strict, Overflow::clear_first}) {
    Board b = board_from_rows({"#", "#", "#", "#", "#", "#"});
    const Move m = drop(b, {I, 1, 0}, k10x10, o);
    EXPECT_FALSE(m.game_over) << to_string(o);
    EXPECT_EQ(m.landing_row, 6);
    EXPECT_EQ(b.wall_height(10), 10);
  }
  // One more cell under it and the piece reaches row 10: game over under both.
  for (Overflow o : {Overflow::strict, Overflow::clear_first}) {
    Board b = board_from_rows({"#", "#", "#", "#", "#", "#", "#"});
    const Move m = drop(b, {I, 1, 0}, k10x10, o);
    EXPECT_TRUE(m.game_over) << to_string(o);
    EXPECT_EQ(m.lines, 0);
  }
}

// ---------------------------------------------------------------------------------------
// remove_rows

TEST(RemoveRows, SingleRow) {
  // rows (0..6): 1 1 0 1 1 0 1; removing row 1 leaves 1 0 1 1 0 1.
  EXPECT_EQ(remove_rows(0b1011011u, 0b10u), 0b101101u);
}

TEST(RemoveRows, NonAdjacentRows) {
  // rows (0..7): 1 0 1 0 1 1 1 1; removing rows 0 and 2 leaves 0 0 1 1 1 1.
  EXPECT_EQ(remove_rows(0b11110101u, 0b101u), 0b111100u);
}

TEST(RemoveRows, EdgeCases) {
  EXPECT_EQ(remove_rows(0b1011u, 0u), 0b1011u);
  EXPECT_EQ(remove_rows(0xFFFFFFFFu, 0xFFFFFFFFu), 0u);
  EXPECT_EQ(remove_rows(0xFFFFFFFFu, 0b110u), 0x3FFFFFFFu);
  EXPECT_EQ(remove_rows(0x80000001u, 0x1u), 0x40000000u);
  EXPECT_EQ(remove_rows(0x80000001u, 0x80000000u), 0x1u);
  // Removing rows the column does not fill still moves the cells above down.
  EXPECT_EQ(remove_rows(0b10100u, 0b01010u), 0b110u);
  static_assert(remove_rows(0b111u, 0b010u) == 0b11u);
}

}  // namespace
}  // namespace tb
