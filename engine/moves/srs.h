// The SRS playable core: rotation states, spawn, moves with wall kicks, lock (docs/srs.md).
//
// Coordinates are the board's: column x to the right, row y up, row 0 on the floor.  A piece
// is its SRS rotation state (0 spawn, 1 R, 2, 3 L: one clockwise turn each) and the
// bottom-left corner of its SRS bounding box, 4x4 for I and 3x3 for the others.  Walls, the
// floor (row -1) and every row >= geometry height are solid.
//
// Kicks follow the Tetris Guideline SRS tables (https://tetris.wiki/Super_Rotation_System),
// or the simplified x-only list of article 3 (RotationSystem::simple).  Both keep the SRS
// rotation states; only the list of tested offsets differs.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>

#include "board.h"
#include "pieces.h"
#include "placement.h"

namespace tb {

// One player input.  soft: down one row.  hard: drop to rest and lock.
enum class Input : std::uint8_t { left, right, cw, ccw, soft, hard };
inline constexpr int INPUT_NB = 6;
const char* to_string(Input in);
const char* to_string(RotationSystem rs);

// Layout: rotation 0..3 (0 spawn, 1 R, 2, 3 L); (x, y) the box's bottom-left cell, which may
// lie outside the board while every piece cell is inside.
struct PieceState {
  Piece piece;
  std::uint8_t rotation;
  std::int8_t x, y;
  bool operator==(const PieceState&) const = default;
};

struct Square {
  int column, row;
  auto operator<=>(const Square&) const = default;
};
using Squares = std::array<Square, 4>;

namespace srs {

struct Offset {
  std::int8_t dx, dy;  // y up, as on the wiki
};
using BoxShape = std::array<Offset, 4>;  // piece cells in box coordinates

constexpr int box_size(Piece p) { return p == I ? 4 : 3; }

// The four SRS states of each piece in its box.  JLSTZ and I turn about the box centre; O
// keeps its cells (its SRS offsets cancel), so its four states are one shape.
inline constexpr std::array<std::array<BoxShape, 4>, PIECE_NB> kStates = [] {
  constexpr std::array<BoxShape, PIECE_NB> spawn = {{
      {{{0, 2}, {1, 2}, {2, 2}, {3, 2}}},  // I  second row from the top of 4x4
      {{{1, 1}, {2, 1}, {1, 2}, {2, 2}}},  // O  box columns 1, 2
      {{{0, 1}, {1, 1}, {2, 1}, {1, 2}}},  // T  .#. / ###
      {{{0, 1}, {1, 1}, {1, 2}, {2, 2}}},  // S  .## / ##.
      {{{1, 1}, {2, 1}, {0, 2}, {1, 2}}},  // Z  ##. / .##
      {{{0, 1}, {1, 1}, {2, 1}, {0, 2}}},  // J  #.. / ###
      {{{0, 1}, {1, 1}, {2, 1}, {2, 2}}},  // L  ..# / ###
  }};
  std::array<std::array<BoxShape, 4>, PIECE_NB> t{};
  for (int p = 0; p < PIECE_NB; ++p) {
    const int last = box_size(static_cast<Piece>(p)) - 1;
    BoxShape s = spawn[p];
    for (int r = 0; r < 4; ++r) {
      t[p][r] = s;
      if (p == O) continue;
      for (auto& c : s) c = {c.dy, static_cast<std::int8_t>(last - c.dx)};  // clockwise
    }
  }
  return t;
}();

// Each state as a drop-model orientation: its index in kShapes[piece] and where its
// bounding box of cells starts inside the SRS box.  mask[i]: rows of box column i.
struct StateShape {
  std::uint8_t orientation;
  std::uint8_t left, bottom;
  std::array<Word, 4> mask;
};

inline constexpr std::array<std::array<StateShape, 4>, PIECE_NB> kStateShapes = [] {
  std::array<std::array<StateShape, 4>, PIECE_NB> t{};
  for (int p = 0; p < PIECE_NB; ++p)
    for (int r = 0; r < 4; ++r) {
      StateShape& st = t[p][r];
      st.left = st.bottom = 3;
      for (auto c : kStates[p][r]) {
        st.mask[c.dx] |= Word{1} << c.dy;
        st.left = c.dx < st.left ? c.dx : st.left;
        st.bottom = c.dy < st.bottom ? c.dy : st.bottom;
      }
      std::array<Word, 4> normal{};
      for (int i = st.left; i < 4; ++i) normal[i - st.left] = st.mask[i] >> st.bottom;
      st.orientation = 255;
      for (int o = 0; o < kShapes[p].count; ++o)
        if (kShapes[p].orientation[o].mask == normal) st.orientation = static_cast<std::uint8_t>(o);
    }
  return t;
}();

static_assert([] {
  for (const auto& states : kStateShapes)
    for (const StateShape& st : states)
      if (st.orientation == 255) return false;
  return true;
}(), "every SRS state is one of the kShapes orientations");
static_assert(kStateShapes[T][3].orientation == 3 && kStateShapes[I][2].orientation == 0);
static_assert(kStateShapes[S][3].orientation == 1 && kStateShapes[O][2].orientation == 0);

inline constexpr int kKickTests = 5;
using KickList = std::array<Offset, kKickTests>;

// Guideline SRS wall kicks (tetris.wiki "SRS", y up), [from][0 cw, 1 ccw].  The first test
// is the plain rotation.  O uses the JLSTZ list: its first test always fits.
inline constexpr std::array<std::array<KickList, 2>, 4> kJlstzKicks = {{
    {{{{{0, 0}, {-1, 0}, {-1, 1}, {0, -2}, {-1, -2}}},     // 0->R
      {{{0, 0}, {1, 0}, {1, 1}, {0, -2}, {1, -2}}}}},      // 0->L
    {{{{{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}}},         // R->2
      {{{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}}}}},       // R->0
    {{{{{0, 0}, {1, 0}, {1, 1}, {0, -2}, {1, -2}}},        // 2->L
      {{{0, 0}, {-1, 0}, {-1, 1}, {0, -2}, {-1, -2}}}}},   // 2->R
    {{{{{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}}},      // L->0
      {{{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}}}}},    // L->2
}};
inline constexpr std::array<std::array<KickList, 2>, 4> kIKicks = {{
    {{{{{0, 0}, {-2, 0}, {1, 0}, {-2, -1}, {1, 2}}},       // 0->R
      {{{0, 0}, {-1, 0}, {2, 0}, {-1, 2}, {2, -1}}}}},     // 0->L
    {{{{{0, 0}, {-1, 0}, {2, 0}, {-1, 2}, {2, -1}}},       // R->2
      {{{0, 0}, {2, 0}, {-1, 0}, {2, 1}, {-1, -2}}}}},     // R->0
    {{{{{0, 0}, {2, 0}, {-1, 0}, {2, 1}, {-1, -2}}},       // 2->L
      {{{0, 0}, {1, 0}, {-2, 0}, {1, -2}, {-2, 1}}}}},     // 2->R
    {{{{{0, 0}, {1, 0}, {-2, 0}, {1, -2}, {-2, 1}}},       // L->0
      {{{0, 0}, {-2, 0}, {1, 0}, {-2, -1}, {1, 2}}}}},     // L->2
}};
// Article 3: in place, then one left, one right, two left, two right; every piece.
inline constexpr KickList kSimpleKicks = {{{0, 0}, {-1, 0}, {1, 0}, {-2, 0}, {2, 0}}};

// dir 0 clockwise, 1 counter-clockwise.
constexpr const KickList& kicks(RotationSystem rs, Piece p, int from, int dir) {
  assert(from >= 0 && from < 4 && (dir == 0 || dir == 1));
  if (rs == RotationSystem::simple) return kSimpleKicks;
  return p == I ? kIKicks[from][dir] : kJlstzKicks[from][dir];
}

}  // namespace srs

// Spawn state: state 0, box centred (rounded left), lowest cell on `spawn_row`.  The
// Guideline's 10x20 spawn ("rows 21-22") is spawn_row 20 with hidden rows above the 20.
constexpr PieceState spawn_state(Piece p, int width, int spawn_row) {
  const int box = srs::box_size(p);
  return {p, 0, static_cast<std::int8_t>((width - box) / 2),
          static_cast<std::int8_t>(spawn_row - srs::kStateShapes[p][0].bottom)};
}

Squares cells(PieceState s);

// A state as a drop-model placement and the row of its lowest cell.
struct Landing {
  Placement placement;
  int row;
  bool operator==(const Landing&) const = default;
};
Landing to_landing(PieceState s);

// The cells of a placement whose lowest cell is on `row`.
Squares cells(Placement pl, int row);

// A board being played one input at a time.  Every operation returns whether it happened;
// one that did not leaves everything unchanged.  Line clears are the caller's (clear_lines).
class Playfield {
 public:
  Playfield(const Board& board, Geometry g, RotationSystem rs = RotationSystem::srs)
      : board_(board), geometry_(g), rotation_system_(rs) {}

  bool spawn(Piece p, int spawn_row);  // false on block-out: then no piece is active
  bool set_piece(PieceState s);        // any state that fits (tests, replays)
  bool move_left() { return shift(-1, 0); }
  bool move_right() { return shift(1, 0); }
  bool rotate_cw() { return rotate(0); }
  bool rotate_ccw() { return rotate(1); }
  bool soft_drop() { return shift(0, -1); }
  bool hard_drop();  // to rest, then lock
  bool lock();       // writes the active piece into the board wherever it is
  bool apply(Input in);
  int clear_lines();  // removes full rows, returns how many

  bool fits(PieceState s) const;
  bool active() const { return active_; }
  const PieceState& piece() const { return piece_; }
  const Board& board() const { return board_; }
  Geometry geometry() const { return geometry_; }

 private:
  bool shift(int dx, int dy);
  bool rotate(int dir);

  Board board_;
  Geometry geometry_;
  RotationSystem rotation_system_;
  PieceState piece_{};
  bool active_ = false;
};

}  // namespace tb
