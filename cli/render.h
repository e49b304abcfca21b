// Pictures of boards: text frames, PNG (libpng) and looping animated GIF (own GIF89a and
// LZW encoder).  Cells are colored by the piece that put them there, which a bitboard does
// not remember, so ColorBoard keeps the piece ids in step with a game.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "board.h"
#include "placement.h"

namespace tb {

struct Frame {
  int width = 0, height = 0;  // cells; the top `hidden_rows` of the height are hidden rows
  int hidden_rows = 0;
  std::vector<std::uint8_t> cells;  // (height, width) row-major, row 0 = bottom; 0 empty, piece + 1
  std::string caption;
};

// Rows top first: piece letters, '.' empty; a line of '-' under the hidden rows (when there
// are any); then the caption line (when there is one).  Every line ends in '\n'.
std::string render_text(const Frame& f);

// RGB, guideline colors (I cyan, O yellow, T purple, S green, Z red, J blue, L orange), a
// one-pixel grid around every cell, hidden rows dimmed.  The image is
// (width * cell_pixels + 1) x (height * cell_pixels + 1).  Written atomically; throws
// RunError when the file cannot be written, InputError on a bad frame (engine/io/error.h).
void write_png(const std::string& path, const Frame& f, int cell_pixels = 16);

// GIF89a, looping forever, one global palette, the same picture as write_png per frame,
// `delay_cs` hundredths of a second per frame.  All frames must have one size.
void write_gif(const std::string& path, const std::vector<Frame>& frames, int cell_pixels = 12, int delay_cs = 8);

// The pictures' palette: index = cell value (0 background, 1..7 = piece + 1), then the grid,
// then the hidden-row (dimmed) twins of the cell values.
struct Rgb {
  std::uint8_t r, g, b;
  bool operator==(const Rgb&) const = default;
};
inline constexpr int kGridIndex = 8;
inline constexpr int kHiddenIndex = 9;  // + cell value
inline constexpr int kPaletteSize = 32;  // 17 used; GIF tables are powers of two

inline constexpr std::array<Rgb, kPaletteSize> kPalette = [] {
  constexpr Rgb background{20, 20, 28}, hidden_background{8, 8, 12}, grid{44, 44, 56};
  // The guideline colors as commonly given: I O T S Z J L.
  constexpr std::array<Rgb, PIECE_NB> piece = {
      {{0, 240, 240}, {240, 240, 0}, {160, 0, 240}, {0, 240, 0}, {240, 0, 0}, {0, 0, 240}, {240, 160, 0}}};
  std::array<Rgb, kPaletteSize> p{};
  p[0] = background;
  p[kGridIndex] = grid;
  p[kHiddenIndex] = hidden_background;
  for (int i = 0; i < PIECE_NB; ++i) {
    const Rgb c = piece[i];
    p[1 + i] = c;
    p[kHiddenIndex + 1 + i] = {static_cast<std::uint8_t>((c.r + background.r) / 2),
                               static_cast<std::uint8_t>((c.g + background.g) / 2),
                               static_cast<std::uint8_t>((c.b + background.b) / 2)};
  }
  return p;
}();

// The piece id of every cell of a game, moved like the engine moves the board words.
struct ColorBoard {
  static constexpr int kRows = 32;  // every bit of a column word, overflow rows included
  std::array<std::uint8_t, kRows * kMaxWidth> cells{};  // (kRows, kMaxWidth) row-major; 0 empty, piece + 1

  std::uint8_t at(int c, int r) const { return cells[r * kMaxWidth + c]; }
  // The piece's cells from its orientation masks, box column 0 at `pl.column`, box row 0 at `row`.
  void lock(Placement pl, int row);
  // Removes every full row of the first `width` columns (rows above move down, as drop() does);
  // returns how many.
  int clear_full_rows(int width);
  // The filled cells as a bitboard: equals the engine's board in the same game.
  Board occupancy() const;
  // The bottom `height` rows; the top `hidden_rows` of them marked hidden.
  Frame frame(int width, int height, int hidden_rows, std::string caption) const;
};

}  // namespace tb
