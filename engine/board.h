// A board: W column words (kernels/board_words.h has the bit layout).
#pragma once

#include <array>
#include <string>

#include "board_words.h"

namespace tb {

struct Geometry {
  int width = 10;   // W, kMinWidth..kMaxWidth
  int height = 20;  // H, kMinHeight..kMaxHeight
};

// Empty string when the size is supported, else a one-line reason.
std::string check_geometry(Geometry g);

struct Board {
  std::array<Word, kMaxWidth> cols{};  // (kMaxWidth) column words; columns >= W stay 0

  bool filled(int c, int r) const { return cell(cols.data(), c, r); }
  int height_of(int c) const { return column_height(cols[c]); }
  int wall_height(int width) const;
  bool operator==(const Board&) const = default;
};

// Rows top first, '#' filled and '.' empty; one line per row, rows H-1 .. 0.
std::string to_text(const Board& b, Geometry g);

}  // namespace tb
