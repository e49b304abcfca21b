// Raw board words shared by the engine and the feature kernels.
//
// Bit layout (column-major): a board of width W is W words, one per column.
//   bit r of word c  <=>  cell (column c, row r) is filled; row 0 is the floor.
// Rows H .. H+3 hold the part of a locked piece that sticks out above the board (the
// `clear-first` overflow rule needs it), so H + 4 <= 32.  Bits of columns >= W are zero.
// docs/decisions.md records why the columns are the words.
#pragma once

#include <bit>
#include <cassert>
#include <cstdint>

namespace tb {

inline constexpr int kMaxWidth = 16;
inline constexpr int kMinWidth = 4;
inline constexpr int kMaxHeight = 28;
inline constexpr int kMinHeight = 4;

using Word = std::uint32_t;

// Bits 0 .. n-1 set; n in [0, 32].
constexpr Word low_mask(int n) {
  assert(n >= 0 && n <= 32);
  return n >= 32 ? ~Word{0} : (Word{1} << n) - 1;
}

// Column height: 1 + index of the highest filled cell, 0 when empty.
constexpr int column_height(Word col) { return std::bit_width(col); }

constexpr int popcount(Word w) { return std::popcount(w); }

constexpr bool cell(const Word* cols, int c, int r) { return (cols[c] >> r) & 1u; }

}  // namespace tb
