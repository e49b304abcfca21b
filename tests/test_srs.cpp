// The SRS playable core (engine/moves/srs.h, docs/srs.md): rotation states, spawn, wall kicks, the
// simplified kicks of article 3, and operations that fail without changing anything.
//
// Every expectation is drawn by hand from the Tetris Guideline SRS tables
// (https://tetris.wiki/Super_Rotation_System) as a picture, not read back from the engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "board.h"
#include "pieces.h"
#include "srs.h"

namespace tb {
namespace {

std::vector<Square> sorted(std::vector<Square> v) {
  std::sort(v.begin(), v.end());
  return v;
}

std::vector<Square> sorted(const Squares& s) { return sorted(std::vector<Square>(s.begin(), s.end())); }

// Piece cells relative to the box corner.
std::vector<Square> box_cells(PieceState s) {
  std::vector<Square> v;
  for (Square c : cells(s)) v.push_back({c.column - s.x, c.row - s.y});
  return sorted(v);
}

// Cells drawn as '#', rows top first (the last string is box or board row 0).
std::vector<Square> drawn(const std::vector<std::string_view>& rows, char mark = '#') {
  std::vector<Square> v;
  const int h = static_cast<int>(rows.size());
  for (int i = 0; i < h; ++i)
    for (int c = 0; c < static_cast<int>(rows[i].size()); ++c)
      if (rows[i][c] == mark) v.push_back({c, h - 1 - i});
  return sorted(v);
}

// ---------------------------------------------------------------------------------------
// Rotation states and spawn

struct StatePictures {
  Piece piece;
  std::vector<std::string_view> state[4];  // spawn, R, 2, L in the box, top row first
};

const std::vector<StatePictures> kStatePictures = {
    {T, {{".#.", "###", "..."}, {".#.", ".##", ".#."}, {"...", "###", ".#."}, {".#.", "##.", ".#."}}},
    {S, {{".##", "##.", "..."}, {".#.", ".##", "..#"}, {"...", ".##", "##."}, {"#..", "##.", ".#."}}},
    {Z, {{"##.", ".##", "..."}, {"..#", ".##", ".#."}, {"...", "##.", ".##"}, {".#.", "##.", "#.."}}},
    {J, {{"#..", "###", "..."}, {".##", ".#.", ".#."}, {"...", "###", "..#"}, {".#.", ".#.", "##."}}},
    {L, {{"..#", "###", "..."}, {".#.", ".#.", ".##"}, {"...", "###", "#.."}, {"##.", ".#.", ".#."}}},
    {I,
     {{"....", "####", "....", "...."},
      {"..#.", "..#.", "..#.", "..#."},
      {"....", "....", "####", "...."},
      {".#..", ".#..", ".#..", ".#.."}}},
    {O, {{".##", ".##", "..."}, {".##", ".##", "..."}, {".##", ".##", "..."}, {".##", ".##", "..."}}},
};

TEST(SrsStates, ClockwiseTurnsInOpenSpaceGoThroughTheFourSrsStates) {
  for (const StatePictures& sp : kStatePictures) {
    Playfield pf(Board{}, {10, 22});
    ASSERT_TRUE(pf.spawn(sp.piece, 14));
    const PieceState start = pf.piece();
    for (int r = 0; r < 4; ++r) {
      SCOPED_TRACE(std::string(1, kPieceChar[sp.piece]) + " state " + std::to_string(r));
      EXPECT_EQ(pf.piece().rotation, r);
      EXPECT_EQ(pf.piece().x, start.x);  // open space: the first test, no kick
      EXPECT_EQ(pf.piece().y, start.y);
      EXPECT_EQ(box_cells(pf.piece()), drawn(sp.state[r]));
      ASSERT_TRUE(pf.rotate_cw());
    }
    EXPECT_EQ(pf.piece(), start);
    ASSERT_TRUE(pf.rotate_ccw());
    EXPECT_EQ(pf.piece().rotation, 3);
    EXPECT_EQ(box_cells(pf.piece()), drawn(sp.state[3]));
  }
}

TEST(SrsStates, EachStateMapsToTheKShapesOrientationOfTheSameCells) {
  for (int p = 0; p < PIECE_NB; ++p)
    for (int r = 0; r < 4; ++r) {
      const PieceState s{static_cast<Piece>(p), static_cast<std::uint8_t>(r), 3, 5};
      const Landing l = to_landing(s);
      EXPECT_EQ(sorted(cells(l.placement, l.row)), sorted(cells(s))) << kPieceChar[p] << r;
    }
  // S state 2 is state 0 one row lower: one orientation, two boxes.
  EXPECT_EQ(to_landing({S, 2, 3, 6}), to_landing({S, 0, 3, 5}));
  EXPECT_EQ(to_landing({I, 1, 2, 4}), to_landing({I, 3, 3, 4}));
}

TEST(SrsSpawn, GuidelineTenByTwentySpawnsCentredOnRowsTwentyAndTwentyOne) {
  // 20 visible rows + 2 hidden, spawn_row 20: "rows 21-22" counted from 1.
  Playfield pf(Board{}, {10, 22});
  ASSERT_TRUE(pf.spawn(T, 20));
  EXPECT_EQ(sorted(cells(pf.piece())), sorted(std::vector<Square>{{3, 20}, {4, 20}, {5, 20}, {4, 21}}));
  ASSERT_TRUE(pf.spawn(I, 20));
  EXPECT_EQ(sorted(cells(pf.piece())), sorted(std::vector<Square>{{3, 20}, {4, 20}, {5, 20}, {6, 20}}));
  ASSERT_TRUE(pf.spawn(O, 20));
  EXPECT_EQ(sorted(cells(pf.piece())), sorted(std::vector<Square>{{4, 20}, {5, 20}, {4, 21}, {5, 21}}));
  ASSERT_TRUE(pf.spawn(L, 20));  // 3 wide: rounded to the left
  EXPECT_EQ(sorted(cells(pf.piece())), sorted(std::vector<Square>{{3, 20}, {4, 20}, {5, 20}, {5, 21}}));
}

TEST(SrsSpawn, BlockOutWhenTheSpawnCellsAreTakenOrAboveTheBoard) {
  Playfield top(Board{}, {10, 20});
  EXPECT_FALSE(top.spawn(T, 19));  // row 20 is outside a 20-row board
  EXPECT_FALSE(top.active());
  EXPECT_TRUE(top.spawn(T, 18));

  Board b;
  b.cols[4] = Word{1} << 18;
  Playfield taken(b, {10, 20});
  EXPECT_FALSE(taken.spawn(T, 18));
  EXPECT_FALSE(taken.active());
  EXPECT_TRUE(taken.spawn(I, 17));  // rows 17 only, (4, 18) is free of it
}

// ---------------------------------------------------------------------------------------
// Kicks, drawn: '#' stack, 'o' the piece before, 'x' after, '*' both.  No 'x' or '*' cell
// after the move means the move must fail.

struct KickCase {
  const char* name;
  Piece piece;
  int rotation;  // of the piece before
  Input input;
  int expected_rotation;
  std::vector<std::string_view> rows;
};

std::vector<Square> marked(const std::vector<std::string_view>& rows, std::string_view marks) {
  std::vector<Square> v;
  for (char m : marks)
    for (Square s : drawn(rows, m)) v.push_back(s);
  return sorted(v);
}

Board stack_of(const std::vector<std::string_view>& rows) {
  Board b;
  for (Square s : drawn(rows)) b.cols[s.column] |= Word{1} << s.row;
  return b;
}

// The state of `piece` in `rotation` whose cells are exactly `want`.
PieceState locate(Piece piece, int rotation, const std::vector<Square>& want) {
  for (int x = -3; x < kMaxWidth; ++x)
    for (int y = -3; y < kMaxHeight; ++y) {
      const PieceState s{piece, static_cast<std::uint8_t>(rotation), static_cast<std::int8_t>(x),
                         static_cast<std::int8_t>(y)};
      if (sorted(cells(s)) == want) return s;
    }
  ADD_FAILURE() << "no state has the drawn cells";
  return {piece, static_cast<std::uint8_t>(rotation), 0, 0};
}

void check_kick(const KickCase& k, RotationSystem rs = RotationSystem::srs) {
  SCOPED_TRACE(std::string(k.name) + " (" + to_string(rs) + ")");
  const Geometry g{static_cast<int>(k.rows[0].size()), static_cast<int>(k.rows.size())};
  Playfield pf(stack_of(k.rows), g, rs);
  const PieceState before = locate(k.piece, k.rotation, marked(k.rows, "o*"));
  ASSERT_TRUE(pf.set_piece(before));
  const std::vector<Square> after = marked(k.rows, "x*");
  if (after.empty()) {
    EXPECT_FALSE(pf.apply(k.input));
    EXPECT_EQ(pf.piece(), before);
    return;
  }
  ASSERT_TRUE(pf.apply(k.input));
  EXPECT_EQ(pf.piece().rotation, k.expected_rotation);
  EXPECT_EQ(sorted(cells(pf.piece())), after);
}

// Left wall: R -> 0/2 sticks out, (+1, 0) kicks it right.  Right wall: L -> 0/2 sticks out,
// (-1, 0).  Floor: 0 -> R/L goes below row 0, (-+1, +1) lifts it.  Overhang: spins whose
// earlier tests hit the stack.
const std::vector<KickCase> kJlstzCases = {
    {"T left wall R->2 (+1,0)", T, 1, Input::cw, 2, {"o....", "**x..", "ox...", "....."}},
    {"T right wall L->0 (-1,0)", T, 3, Input::cw, 0, {"...xo", "..x**", "....o", "....."}},
    {"T floor 0->R (-1,+1)", T, 0, Input::cw, 1, {".....", ".x...", ".x*..", ".*oo."}},
    // The T-spin triple: tests (0,0), (-1,0), (-1,+1), (0,-2) hit the stack; (-1,-2) fits.
    {"T-spin triple 0->R (-1,-2)", T, 0, Input::cw, 1,
     {"..........", "###o......", "##ooo.....", "##x#######", "##xx######", "##x#######"}},
    {"S left wall R->0 (+1,0)", S, 1, Input::ccw, 0, {".....", "oxx..", "**...", ".o..."}},
    {"S right wall L->0 (-1,0)", S, 3, Input::cw, 0, {".....", "...*x", "..x*o", "....o"}},
    {"S floor 0->R (-1,+1)", S, 0, Input::cw, 1, {".....", ".x...", ".x*o.", ".o*.."}},
    // S spin: (0,0) hits the roof at (1,4), (+1,0) the cell (3,2), (+1,+1) the cell (2,5).
    {"S overhang 0->L (0,-2)", S, 0, Input::ccw, 3,
     {"......", "..#...", ".#oo..", "#oo...", "#x##..", "#xx###", "##x###"}},
    {"Z left wall R->2 (+1,0)", Z, 1, Input::cw, 2, {".....", ".o...", "**...", "oxx.."}},
    {"Z right wall L->2 (-1,0)", Z, 3, Input::ccw, 2, {".....", "....o", "..x*o", "...*x"}},
    {"Z floor 0->L (+1,+1)", Z, 0, Input::ccw, 3, {".....", "...x.", ".o*x.", "..*o."}},
    {"Z under a ceiling cannot turn cw", Z, 0, Input::cw, 1, {".....", "#####", ".oo..", "..oo."}},
    {"Z under a ceiling cannot turn ccw", Z, 0, Input::ccw, 3, {".....", "#####", ".oo..", "..oo."}},
    {"J left wall R->0 (+1,0)", J, 1, Input::ccw, 0, {".....", "*o...", "*xx..", "o...."}},
    {"J right wall L->0 (-1,0)", J, 3, Input::cw, 0, {".....", "..x.o", "..xx*", "...oo"}},
    {"J floor 0->R (-1,+1)", J, 0, Input::cw, 1, {".....", ".xx..", ".*...", ".*oo."}},
    // J-spin triple: (3,4) stops the first two tests, (3,5) the third, (4,2) the fourth.
    {"J overhang 0->R (-1,-2)", J, 0, Input::cw, 1,
     {"......", "...#..", "..o#..", "..ooo.", "##xx##", "##x###", "##x###"}},
    {"L floor 0->L (+1,+1)", L, 0, Input::ccw, 3, {".....", "..xx.", "...*.", ".oo*."}},
};

const std::vector<KickCase> kICases = {
    {"I left wall R->2 (+2,0)", I, 1, Input::cw, 2, {"......", "o.....", "o.....", "*xxx..", "o....."}},
    {"I left wall R->0 (+2,0)", I, 1, Input::ccw, 0, {"......", "o.....", "*xxx..", "o.....", "o....."}},
    {"I right wall L->0 (-2,0)", I, 3, Input::cw, 0, {"......", ".....o", "..xxx*", ".....o", ".....o"}},
    {"I floor 0->R (+1,+2)", I, 0, Input::cw, 1,
     {"......", "......", "....x.", "....x.", "....x.", ".ooo*."}},
    // From a well into the tunnel under the overhang on its right.
    {"I overhang R->2 (+2,0)", I, 1, Input::cw, 2,
     {".......", "##.....", "##o####", "##o####", "##*xxx#", "##o####"}},
    {"I under a ceiling cannot stand up", I, 0, Input::cw, 1, {"......", "######", ".oooo.", "######"}},
};

TEST(SrsKicks, JlstzCases) {
  for (const KickCase& k : kJlstzCases) check_kick(k);
}

TEST(SrsKicks, ICases) {
  for (const KickCase& k : kICases) check_kick(k);
}

// The JLSTZ table and states are mirror-symmetric: mirrored boards with S<->Z, J<->L and
// cw<->ccw give the mirrored result.  (The I table is not symmetric.)
TEST(SrsKicks, JlstzCasesMirrored) {
  constexpr Piece kMirrorPiece[PIECE_NB] = {I, O, T, Z, S, L, J};
  constexpr int kMirrorRotation[4] = {0, 3, 2, 1};
  for (const KickCase& k : kJlstzCases) {
    std::vector<std::string> flipped;
    for (std::string_view row : k.rows) flipped.emplace_back(row.rbegin(), row.rend());
    KickCase m{k.name, kMirrorPiece[k.piece], kMirrorRotation[k.rotation],
               k.input == Input::cw ? Input::ccw : Input::cw, kMirrorRotation[k.expected_rotation], {}};
    for (const std::string& row : flipped) m.rows.push_back(row);
    check_kick(m);
  }
}

TEST(SrsKicks, TSpinTripleLocksThreeFullRows) {
  const KickCase& tst = kJlstzCases[3];
  Playfield pf(stack_of(tst.rows), {10, 6});
  ASSERT_TRUE(pf.set_piece(locate(T, 0, marked(tst.rows, "o"))));
  ASSERT_TRUE(pf.rotate_cw());
  EXPECT_FALSE(pf.soft_drop());
  ASSERT_TRUE(pf.lock());
  EXPECT_EQ(pf.clear_lines(), 3);
  EXPECT_EQ(to_text(pf.board(), {10, 6}),
            "..........\n..........\n..........\n..........\n###.......\n##........\n");
}

TEST(SrsKicks, OTurnsInPlaceEvenWhenWedged) {
  Playfield pf(board_from_rows({"##..##", "##..##", "######"}), {6, 3});
  ASSERT_TRUE(pf.set_piece({O, 0, 1, 0}));  // cells (2..3, 1..2)
  const std::vector<Square> wedged = sorted(cells(pf.piece()));
  for (int turn = 1; turn <= 4; ++turn) {
    ASSERT_TRUE(pf.rotate_cw());
    EXPECT_EQ(pf.piece().rotation, turn % 4);
    EXPECT_EQ(sorted(cells(pf.piece())), wedged);
  }
  ASSERT_TRUE(pf.rotate_ccw());
  EXPECT_EQ(sorted(cells(pf.piece())), wedged);
}

// ---------------------------------------------------------------------------------------
// The simplified kicks: x offsets 0, -1, +1, -2, +2 only.

TEST(SimpleKicks, NoFloorKickAndNoTSpinTriple) {
  // Both need a y offset: with x offsets only the turn fails and the piece stays.
  for (const KickCase* k : {&kJlstzCases[2], &kJlstzCases[3]}) {
    const Geometry g{static_cast<int>(k->rows[0].size()), static_cast<int>(k->rows.size())};
    Playfield pf(stack_of(k->rows), g, RotationSystem::simple);
    const PieceState before = locate(k->piece, k->rotation, marked(k->rows, "o*"));
    ASSERT_TRUE(pf.set_piece(before));
    EXPECT_FALSE(pf.rotate_cw()) << k->name;
    EXPECT_EQ(pf.piece(), before);
  }
}

TEST(SimpleKicks, WallKicksShiftSideways) {
  // Left and right walls need only x offsets: the two systems agree.
  for (int i : {0, 1, 4, 5, 8, 9, 13, 14}) check_kick(kJlstzCases[i], RotationSystem::simple);
  check_kick(kICases[0], RotationSystem::simple);  // +2 is the fifth simple test
}

TEST(SimpleKicks, LandsElsewhereThanSrs) {
  // T at L turning cw.  Blocked: (0,0) by (5,2), (-1,0) by (3,3), (+1,0) by (5,2), and SRS's
  // (-1,-1) by (3,1).  Simple then fits (-2,0); SRS fits (0,+2) first.
  const std::vector<std::string_view> rows = {"......", "......", "......", "...#o.",
                                              "...oo#", "...#o.", "......"};
  const PieceState before = locate(T, 3, drawn(rows, 'o'));
  Playfield simple(stack_of(rows), {6, 7}, RotationSystem::simple);
  Playfield srs(stack_of(rows), {6, 7}, RotationSystem::srs);
  ASSERT_TRUE(simple.set_piece(before));
  ASSERT_TRUE(srs.set_piece(before));
  ASSERT_TRUE(simple.rotate_cw());
  ASSERT_TRUE(srs.rotate_cw());
  EXPECT_EQ(sorted(cells(simple.piece())), sorted(std::vector<Square>{{1, 2}, {2, 2}, {3, 2}, {2, 3}}));
  EXPECT_EQ(sorted(cells(srs.piece())), sorted(std::vector<Square>{{3, 4}, {4, 4}, {5, 4}, {4, 5}}));
}

// ---------------------------------------------------------------------------------------
// Failing operations change nothing.

TEST(SrsOps, BlockedOperationsReturnFalseAndKeepTheState) {
  // A T pointing down in a pit that fits it exactly, with a roof: nothing moves.
  const std::vector<std::string_view> rows = {"#####", "#ooo#", "##o##"};
  Playfield pf(stack_of(rows), {5, 3});
  const PieceState before = locate(T, 2, drawn(rows, 'o'));
  ASSERT_TRUE(pf.set_piece(before));
  for (Input in : {Input::left, Input::right, Input::cw, Input::ccw, Input::soft}) {
    EXPECT_FALSE(pf.apply(in)) << to_string(in);
    EXPECT_EQ(pf.piece(), before) << to_string(in);
  }
  const Board stack = pf.board();
  EXPECT_FALSE(pf.set_piece({T, 2, 0, 0}));  // overlaps: the active piece stays
  EXPECT_EQ(pf.piece(), before);
  ASSERT_TRUE(pf.hard_drop());  // never blocked: it drops zero rows and locks
  EXPECT_FALSE(pf.active());
  EXPECT_EQ(to_text(pf.board(), {5, 3}), "#####\n#####\n#####\n");
  EXPECT_NE(pf.board(), stack);
  const Board locked = pf.board();
  for (Input in : {Input::left, Input::right, Input::cw, Input::ccw, Input::soft, Input::hard})
    EXPECT_FALSE(pf.apply(in)) << "no active piece: " << to_string(in);
  EXPECT_FALSE(pf.lock());
  EXPECT_EQ(pf.board(), locked);
}

TEST(SrsOps, WallsFloorAndTopAreSolid) {
  Playfield pf(Board{}, {4, 6});
  ASSERT_TRUE(pf.set_piece({I, 0, 0, 3}));  // cells (0..3, 5): the top row
  EXPECT_FALSE(pf.move_left());
  EXPECT_FALSE(pf.move_right());
  EXPECT_FALSE(pf.set_piece({I, 0, 0, 4}));  // row 6 is above the board
  EXPECT_TRUE(pf.soft_drop());
  ASSERT_TRUE(pf.hard_drop());
  EXPECT_EQ(pf.board().cols[0], 1u);
  EXPECT_EQ(pf.clear_lines(), 1);
  EXPECT_EQ(pf.board(), Board{});
}

}  // namespace
}  // namespace tb
