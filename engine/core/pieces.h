// The seven tetrominoes and their distinct orientations, as compile-time tables.
//
// Piece order (also the order of uniform draws, docs/rules.md): I O T S Z J L.
// Orientation order (the `drop` enumeration order): the SRS rotation states spawn, R, 2, L,
// keeping the first of each distinct shape.  So I and S/Z have (flat, upright), T/J/L have
// (spawn, R, 2, L), O has one.  docs/rules.md "Pieces and orientations".
//
// Orientation layout: cells relative to the piece's bounding box, row 0 at its bottom.
//   mask[i]   bits of the piece cells in box column i (bit 0 = box bottom row)
//   bottom[i] lowest filled row of box column i
#pragma once

#include <array>
#include <cstdint>

#include "board_words.h"

namespace tb {

enum Piece : std::uint8_t { I, O, T, S, Z, J, L, PIECE_NB };

inline constexpr char kPieceChar[PIECE_NB] = {'I', 'O', 'T', 'S', 'Z', 'J', 'L'};

struct Orientation {
  std::uint8_t width;
  std::uint8_t height;
  std::array<std::uint8_t, 4> bottom;
  std::array<Word, 4> mask;
};

inline constexpr int kMaxOrientations = 4;

struct PieceShapes {
  int count;
  std::array<Orientation, kMaxOrientations> orientation;
};

namespace detail {

struct Cell {
  int x, y;
};
using Shape = std::array<Cell, 4>;

// Spawn shapes (SRS), x to the right, y up.
inline constexpr std::array<Shape, PIECE_NB> kSpawn = {{
    {{{0, 0}, {1, 0}, {2, 0}, {3, 0}}},  // I  ####
    {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}},  // O
    {{{0, 0}, {1, 0}, {2, 0}, {1, 1}}},  // T  .#. / ###
    {{{0, 0}, {1, 0}, {1, 1}, {2, 1}}},  // S  .## / ##.
    {{{1, 0}, {2, 0}, {0, 1}, {1, 1}}},  // Z  ##. / .##
    {{{0, 0}, {1, 0}, {2, 0}, {0, 1}}},  // J  #.. / ###
    {{{0, 0}, {1, 0}, {2, 0}, {2, 1}}},  // L  ..# / ###
}};

constexpr Orientation to_orientation(Shape s) {
  int min_x = 99, min_y = 99;
  for (auto c : s) {
    min_x = c.x < min_x ? c.x : min_x;
    min_y = c.y < min_y ? c.y : min_y;
  }
  Orientation o{};
  for (auto c : s) {
    const int x = c.x - min_x, y = c.y - min_y;
    o.mask[x] |= Word{1} << y;
    o.width = static_cast<std::uint8_t>(x + 1 > o.width ? x + 1 : o.width);
    o.height = static_cast<std::uint8_t>(y + 1 > o.height ? y + 1 : o.height);
  }
  for (int x = 0; x < o.width; ++x)
    o.bottom[x] = static_cast<std::uint8_t>(std::countr_zero(o.mask[x]));
  return o;
}

constexpr bool same(const Orientation& a, const Orientation& b) {
  return a.width == b.width && a.mask == b.mask;
}

// Clockwise quarter turn: (x, y) -> (y, -x).
constexpr Shape rotate_cw(Shape s) {
  for (auto& c : s) c = {c.y, -c.x};
  return s;
}

}  // namespace detail

inline constexpr std::array<PieceShapes, PIECE_NB> kShapes = [] {
  std::array<PieceShapes, PIECE_NB> table{};
  for (int p = 0; p < PIECE_NB; ++p) {
    detail::Shape s = detail::kSpawn[p];
    for (int turn = 0; turn < 4; ++turn, s = detail::rotate_cw(s)) {
      const Orientation o = detail::to_orientation(s);
      bool seen = false;
      for (int i = 0; i < table[p].count; ++i) seen = seen || detail::same(table[p].orientation[i], o);
      if (!seen) table[p].orientation[table[p].count++] = o;
    }
  }
  return table;
}();

static_assert(kShapes[I].count == 2 && kShapes[O].count == 1 && kShapes[T].count == 4);
static_assert(kShapes[S].count == 2 && kShapes[Z].count == 2);
static_assert(kShapes[J].count == 4 && kShapes[L].count == 4);
static_assert(kShapes[I].orientation[0].width == 4 && kShapes[I].orientation[1].width == 1);
static_assert(kShapes[T].orientation[1].width == 2 && kShapes[T].orientation[2].width == 3);

}  // namespace tb
