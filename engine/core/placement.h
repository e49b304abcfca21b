// The research-standard `drop` placement model (docs/rules.md "Placement model `drop`"): generation
// into caller-provided storage, and the drop itself (lock, line clears, game over).
// Generation knows nothing about evaluation.
#pragma once

#include <algorithm>
#include <cstdint>

#include "board.h"
#include "pieces.h"
#include "rules.h"

namespace tb {

// `Placement::row` of a `drop` placement: it rests wherever it falls.
inline constexpr std::uint8_t kDropRow = 255;

// Layout (4 bytes): piece (3 bits used), orientation index into kShapes[piece], column of the
// piece's leftmost cell, and row: kDropRow for a `drop` placement (it falls straight down and
// rests on the stack), else the row of the piece's lowest cell where it locks (a move-reachable
// placement, which may rest under an overhang; engine/moves/reachable.h).  generate_drops() writes
// kDropRow, so the drop model and its enumeration order are unchanged.
struct Placement {
  std::uint8_t piece;
  std::uint8_t orientation;
  std::uint8_t column;
  std::uint8_t row = kDropRow;
  bool operator==(const Placement&) const = default;
};

// T at W = 16 gives 2 * 14 + 2 * 15 = 58.
inline constexpr int kMaxPlacements = 64;

// Writes every placement of `p` in enumeration order (orientations in kShapes order, columns
// left to right) and returns the pointer past the last one.  Every one is legal.
Placement* generate_drops(Piece p, int width, Placement* out);

// What one drop did.
struct Move {
  int landing_row = 0;   // row of the piece's lowest cell where it locked, before clears
  int piece_height = 0;  // rows spanned by the orientation
  int lines = 0;         // rows cleared by this move
  int eroded = 0;        // lines x piece cells in the cleared rows
  bool game_over = false;
  // docs/rules.md: landing_height = landing_row + (piece_height - 1) / 2, kept exact in half cells.
  int landing_height_x2() const { return 2 * landing_row + piece_height - 1; }
};

// The row the piece's lowest cell locks on: it rests on the highest cell under any of its
// columns.  `heights` are the column heights of the board.
inline int landing_row(const int* heights, const Orientation& o, int column) {
  int y = 0;
  for (int i = 0; i < o.width; ++i) y = std::max(y, heights[column + i] - o.bottom[i]);
  return y;
}

// Drops the piece (or, when pl.row is a row, locks it there: the caller has checked that the
// placement is reachable), clears full rows and applies the game-over rule (rules.h).  When the
// move ends the game at lock (`strict`, `lock-out`), the board keeps the locked piece and no
// rows are cleared.
Move drop(Board& b, Placement pl, Geometry g, Overflow overflow);

// The cells of a placement whose lowest cell is on `row`, as a board.
Board piece_board(Placement pl, int row);

// Removes the rows set in `full` from one column word; the rows above move down.
constexpr Word remove_rows(Word col, Word full) {
  while (full) {
    const int r = 31 - std::countl_zero(full);  // highest first keeps lower indices valid
    full &= ~(Word{1} << r);
    col = (col & low_mask(r)) | ((col >> 1) & ~low_mask(r));
  }
  return col;
}

}  // namespace tb
