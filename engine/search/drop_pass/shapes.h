// The drop pass's shape tables (drop_pass/pass.h): the padded board's layout and, per piece
// orientation, its columns' cells, sides and runs, as the rows (quiet_rows.h), the AVX2 tails
// (tails.h) and the AVX-512 pair rows (pair_rows.h) read them.  Built at compile time.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstdint>

#include "drop_scorer.h"
#include "features_simd.h"
#include "pieces.h"

namespace tb {
namespace {

// Column c sits at padded index c + kPad; the indices around the board are walls (all ones).
constexpr int kPad = 2;
// Two walls, 16 columns, a 4-wide piece's neighbours and the overrun of a 16-lane chunk.
constexpr int kPadded = 64;

// Wells weigh each well cell by its run length: the empty cells from it down to the first
// filled cell or the floor (at most 28), kept bit-sliced as kRunPlanes planes per column:
// bit r of plane p is bit p of row r's run length.
constexpr int kRunPlanes = 5;
// Plane p of the run lengths of an empty column, r + 1 at row r.
constexpr Word open_run_plane(int p) {
  Word m = 0;
  for (int r = 0; r < 32; ++r) m |= static_cast<Word>(((r + 1) >> p) & 1) << r;
  return m;
}

// Column i of a piece orientation: its cells, which of their sides face a non-piece cell on the
// left / right (row transitions), its bottom, top and cell count.
struct PieceColumn {
  Word mask, side_left, side_right;
  int bottom, top, cells;
  constexpr int open_sides() const { return std::popcount(side_left) + std::popcount(side_right); }
};
constexpr PieceColumn piece_column(const Orientation& o, int i) {
  const Word left = i > 0 ? o.mask[i - 1] : 0u, right = i + 1 < o.width ? o.mask[i + 1] : 0u;
  const int cells = std::popcount(o.mask[i]);
  return {o.mask[i], o.mask[i] & ~left, o.mask[i] & ~right, o.bottom[i], o.bottom[i] + cells, cells};
}

// The piece cells' sides that face a non-piece cell, left or right, over all of o's columns.
constexpr int open_sides(const Orientation& o) {
  int sides = 0;
  for (int i = 0; i < o.width; ++i) sides += piece_column(o, i).open_sides();
  return sides;
}

// Every orientation's piece columns (piece_column) and open sides, computed once: a row's
// RowShape reads them rather than counting cells and sides for every row.
struct OrientationColumns {
  PieceColumn column[4];
  int sides = 0;
};
constexpr std::array<std::array<OrientationColumns, kMaxOrientations>, PIECE_NB> kOrientationColumns = [] {
  std::array<std::array<OrientationColumns, kMaxOrientations>, PIECE_NB> a{};
  for (int p = 0; p < PIECE_NB; ++p)
    for (int oi = 0; oi < kShapes[p].count; ++oi) {
      const Orientation& o = kShapes[p].orientation[oi];
      for (int i = 0; i < o.width; ++i) a[p][oi].column[i] = piece_column(o, i);
      a[p][oi].sides = open_sides(o);
    }
  return a;
}();

// The constants of a tail candidate (DropPass::tail) of a 1- or 2-wide orientation, by lane c
// = 0 .. 3: padded column base - 1 + c of the candidate at base (its left neighbour, its piece
// columns, its right neighbour, and for width 1 one lane outside).  Piece lanes hold the piece
// column's values; the others 0, or 64 where a shift by y plus it must give 0.
struct TailShape {
  alignas(16) std::int32_t piece[4];        // the piece cells (row 0) of the lane's column
  alignas(16) std::int32_t piece_left[4];   // ... of its left neighbour
  alignas(16) std::int32_t piece_right[4];  // ... of its right neighbour
  alignas(16) std::int32_t bottom[4], top[4], cells[4], side_left[4], side_right[4];
  alignas(16) std::int32_t interior[4];     // all ones on the piece lanes
  alignas(16) std::int32_t valid[4];        // all ones on the changed lanes (piece and neighbours)
  int top_most = 0;                         // the highest top of the piece's columns
};
constexpr std::array<std::array<TailShape, kMaxOrientations>, PIECE_NB> kTailShapes = [] {
  std::array<std::array<TailShape, kMaxOrientations>, PIECE_NB> a{};
  for (int p = 0; p < PIECE_NB; ++p)
    for (int oi = 0; oi < kShapes[p].count; ++oi) {
      const Orientation& o = kShapes[p].orientation[oi];
      if (o.width > 2) continue;
      TailShape& t = a[p][oi];
      const auto mask = [&](int i) { return i >= 0 && i < o.width ? static_cast<std::int32_t>(o.mask[i]) : 0; };
      for (int c = 0; c < 4; ++c) {
        const int i = c - 1;  // the piece column of lane c, if 0 <= i < width
        const bool in = i >= 0 && i < o.width;
        const PieceColumn pc = in ? piece_column(o, i) : PieceColumn{0u, 0u, 0u, 64, 64, 0};
        t.piece[c] = mask(i);
        t.piece_left[c] = mask(i - 1);
        t.piece_right[c] = mask(i + 1);
        t.bottom[c] = pc.bottom;
        t.top[c] = pc.top;
        t.cells[c] = pc.cells;
        t.side_left[c] = static_cast<std::int32_t>(pc.side_left);
        t.side_right[c] = static_cast<std::int32_t>(pc.side_right);
        t.interior[c] = in ? -1 : 0;
        t.valid[c] = c <= o.width + 1 ? -1 : 0;
        if (in) t.top_most = std::max(t.top_most, pc.top);
      }
    }
  return a;
}();

// Pair rows (DropPass::kPairs): whether orientations 0 and 2 of piece p are both Wd wide (on 10
// columns, Wd = 3: T, J and L), and their shape values side by side, orientation 0's in lanes
// 0-7 and orientation 2's in lanes 8-15.
template <int Wd>
constexpr bool paired(int p) {
  return kShapes[p].count == 4 && kShapes[p].orientation[0].width == Wd && kShapes[p].orientation[2].width == Wd;
}
template <int Wd>
struct PairShape {
  alignas(64) std::int32_t bottom[Wd][16], top[Wd][16], cells[Wd][16];
  alignas(64) Word mask[Wd][16], side_left[Wd][16], side_right[Wd][16];
  alignas(64) std::int32_t height[16], sides[16];
  alignas(64) Word height_mask[16];
};
template <int Wd>
constexpr std::array<PairShape<Wd>, PIECE_NB> kPairShapes = [] {
  std::array<PairShape<Wd>, PIECE_NB> a{};
  for (int p = 0; p < PIECE_NB; ++p) {
    if (!paired<Wd>(p)) continue;
    for (int l = 0; l < 16; ++l) {
      const Orientation& o = kShapes[p].orientation[l < 8 ? 0 : 2];
      PairShape<Wd>& t = a[p];
      for (int i = 0; i < Wd; ++i) {
        const PieceColumn c = piece_column(o, i);
        t.bottom[i][l] = c.bottom;
        t.top[i][l] = c.top;
        t.cells[i][l] = c.cells;
        t.mask[i][l] = c.mask;
        t.side_left[i][l] = c.side_left;
        t.side_right[i][l] = c.side_right;
      }
      t.height[l] = o.height;
      t.sides[l] = open_sides(o);
      t.height_mask[l] = low_mask(o.height);
    }
  }
  return a;
}();

// The piece's shape values in a row's lanes, for DropPass::orientation (quiet_rows.h):
// orientation o's in every lane (broadcast where they are used), or with Pair kPairShapes'
// (orientation 0 and 2 of piece p).
template <class V, int Wd, bool Pair>
class RowShape {
  using U = typename V::U;
  using I = typename V::I;

 public:
  // o: orientation oi of piece p.
  RowShape(const Orientation& o, Piece p, int oi)
      : c_(kOrientationColumns[p][oi].column), sides_(kOrientationColumns[p][oi].sides), height_(o.height) {
    assert(&o == &kShapes[p].orientation[oi]);
    for (int i = 0; i < Wd; ++i)
      assert((c_[i].mask >> c_[i].bottom) == low_mask(c_[i].cells));  // one run per column
    if constexpr (Pair) pair_ = &kPairShapes<Wd>[p];
  }
  I bottom(int i) const { return Pair ? I::load_aligned(pair_->bottom[i]) : I(c_[i].bottom); }
  I top(int i) const { return Pair ? I::load_aligned(pair_->top[i]) : I(c_[i].top); }
  I cells(int i) const { return Pair ? I::load_aligned(pair_->cells[i]) : I(c_[i].cells); }
  U mask(int i) const { return Pair ? U::load_aligned(pair_->mask[i]) : U(c_[i].mask); }
  U side_left(int i) const { return Pair ? U::load_aligned(pair_->side_left[i]) : U(c_[i].side_left); }
  U side_right(int i) const { return Pair ? U::load_aligned(pair_->side_right[i]) : U(c_[i].side_right); }
  // The piece's height plus v, and its sides facing a non-piece cell plus v.
  I height_plus(int v) const { return Pair ? I::load_aligned(pair_->height) + I(v) : I(height_ + v); }
  I sides_plus(int v) const { return Pair ? I::load_aligned(pair_->sides) + I(v) : I(sides_ + v); }
  U height_mask() const { return Pair ? U::load_aligned(pair_->height_mask) : U(low_mask(height_)); }
  // Orientation o's alone (DropPass::tail, tails.h).
  int scalar_sides() const { return sides_; }

 private:
  const PieceColumn* c_;  // kOrientationColumns' (Wd of them)
  int sides_, height_;
  const PairShape<Wd>* pair_ = nullptr;
};

}  // namespace
}  // namespace tb
