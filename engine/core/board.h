// A board: W column words (kernels/board_words.h has the bit layout).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "board_words.h"

namespace tb {

struct Geometry {
  int width = 10;   // W, kMinWidth..kMaxWidth
  int height = 20;  // H, kMinHeight..kMaxHeight, hidden rows included
  int hidden = 0;   // the top `hidden` rows are hidden rows, above the visible field
  constexpr int visible() const { return height - hidden; }
};

// Empty string when the size is supported, else a one-line reason.
std::string check_geometry(Geometry g);

// "WxH" with decimal W and H (1 to 3 digits each), else nullopt; the syntax only (the range is
// check_geometry's).  parse_board_size checks both.
std::optional<Geometry> parse_size(std::string_view text);

// The one way a board size is named and read ("10x22"; hidden rows are not part of it):
// parse_board_size(size_name(g)) is g without its hidden rows.  parse_board_size throws
// InputError with one line: "'10by10' is not WxH (for example 10x20)" or check_geometry's reason.
std::string size_name(Geometry g);
Geometry parse_board_size(std::string_view text);

struct Board {
  std::array<Word, kMaxWidth> cols{};  // (kMaxWidth) column words; columns >= W stay 0

  bool filled(int c, int r) const { return cell(cols.data(), c, r); }
  int height_of(int c) const { return column_height(cols[c]); }
  int wall_height(int width) const;
  bool operator==(const Board&) const = default;
};

// Rows top first, '#' filled and '.' empty; one line per row, rows H-1 .. 0.
std::string to_text(const Board& b, Geometry g);

// The inverse, for tests and data files: rows top first, the last string is row 0, '#' is
// filled and anything else empty.  Rows above the given ones are empty.
Board board_from_rows(const std::vector<std::string_view>& rows_top_first);

}  // namespace tb
