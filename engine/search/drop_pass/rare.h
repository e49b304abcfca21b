// The drop pass's rare candidates (drop_pass/pass.h): those that clear rows or whose top is
// above quiet_top, which the rows' incremental features cannot rate.  Each is dropped as drop()
// (engine/core/placement.h) drops it and its board rated by a column pass (base_pass.h); in
// registers where the board fits them (registers.h).  The rare-only pass (RareOnly) locates
// its rows' candidates here and rates only these.
#pragma once

#include "base_pass.h"
#include "pass.h"
#include "registers.h"

namespace tb {
namespace {

// A candidate the vector pass cannot rate (it clears rows, or its top is above quiet_top):
// the move as drop() (engine/core/placement.h) makes it, then its features from scratch; the
// board after it is kept for the game loop.  `full`: the rows the move fills (the vector pass
// found them); k: its candidate index.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
double DropPass<A, Narrow, RareOnly, Family, Width>::rare_score(Placement pl, int k, Word full, PlyCarry carry) {
  Move m;
  Totals t;
  bool alive = false;
  if (one_register()) {
    if constexpr (kOneRegister) alive = rare_in_registers(pl, k, full, m, t);
  } else if (two_registers()) {
    if constexpr (kTwoRegisters) alive = rare_in_two_registers(pl, k, full, m, t);
  } else {
    alive = rare_in_memory(pl, k, full, m, t);
  }
  return alive ? rare_sum(m, t, carry) : -std::numeric_limits<double>::infinity();
}

// drop()'s lock of a rare candidate at row y, with the rows it fills: false if the move ends
// the game at lock (`strict`, lock-out), else its lines and eroded cells.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
bool DropPass<A, Narrow, RareOnly, Family, Width>::lock(const Orientation& o, int y, Word full, Move& m) const {
  m.landing_row = y;
  m.piece_height = o.height;
  if (ends_at_lock(r_.overflow, r_.geometry, y, y + o.height)) return false;
  m.lines = popcount(full);
  int piece_cells = 0;
  for (int i = 0; i < o.width; ++i) piece_cells += popcount((o.mask[i] << y) & full);
  m.eroded = m.lines * piece_cells;
  return true;
}

// Where the board after rare candidate k goes (the caller writes it), with its lines, holes
// and wall height.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
Board& DropPass<A, Narrow, RareOnly, Family, Width>::keep(int k, const Move& m, const Totals& t) {
  out_->lines[k] = static_cast<std::uint8_t>(m.lines);
  out_->eroded[k] = static_cast<std::uint8_t>(m.eroded);
  out_->holes_after[k] = static_cast<std::uint16_t>(t.holes);
  out_->height_after[k] = static_cast<std::uint8_t>(t.max);
  out_->kept |= std::uint64_t{1} << k;
  return out_->boards[k];
}

// Removes the rows of `full` from each lane's column word, as remove_rows
// (engine/core/placement.h) does one word at a time: the walls lose their top bit.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
auto DropPass<A, Narrow, RareOnly, Family, Width>::remove_rows_lanes(U v, Word full) -> U {
  for (Word rows = full; rows;) {  // highest first keeps the lower indices valid
    const int r = 31 - std::countl_zero(rows);
    rows &= ~(Word{1} << r);
    const U below(low_mask(r));
    v = (v & below) | ((v >> 1) & ~below);
  }
  return v;
}

// rare_score on a padded copy of the board: the same lock, line clears and game-over rule
// as drop(), with the rows removed a vector of columns at a time.  False if the move ends
// the game.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
bool DropPass<A, Narrow, RareOnly, Family, Width>::rare_in_memory(Placement pl, int k, Word full, Move& m, Totals& t) {
  const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
  const int y = pl.row;
  if (!lock(o, y, full, m)) return false;
  const int first = pl.column + kPad;  // padded index of the piece's first column
  alignas(64) Word col[kPadded];
  for (int j = 0; j < kPadded; j += N) U::load_aligned(col_ + j).store_aligned(col + j);
  for (int i = 0; i < o.width; ++i) col[first + i] |= o.mask[i] << y;
  if (full) {
    alignas(64) std::int32_t lane[N];
    for (int l = 0; l < N; ++l) lane[l] = l;
    for (int j = kPad; j < kPad + W(); j += N) {
      U v = remove_rows_lanes(loadu(col + j), full);
      const U in_board = L::as_uint(ones_where(I::load_aligned(lane) + I(j) < I(kPad + W())));
      v = (v & in_board) | ~in_board;  // the walls past the board stay all ones
      v.store_unaligned(col + j);
    }
  }
  column_pass<false>(t, col);
  if (t.max > wall_limit(r_.overflow, r_.geometry)) return false;  // t.max: the wall height
  Board& kept = keep(k, m, t);
  kept = Board{};
  for (int c = 0; c < W(); ++c) kept.cols[c] = col[c + kPad];
  return true;
}


// The rating of a rare candidate from its move and features.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
double DropPass<A, Narrow, RareOnly, Family, Width>::rare_sum(const Move& m, const Totals& t, PlyCarry carry) const {
  double s = 0.0;
  for (int i = 0; i < r_.term_count; ++i) {
    std::int32_t v = 0;
    switch (r_.terms[i].slot) {
      case MOVE_LANDING_X2: v = m.landing_height_x2(); break;
      case MOVE_ERODED: v = m.eroded + carry.eroded; break;
      case MOVE_LINES: v = m.lines + carry.lines; break;
      case MOVE_CONSTANT: v = 1; break;
      case SLOT_ROW_TRANSITIONS: v = t.rt; break;
      case SLOT_COL_TRANSITIONS: v = t.ct; break;
      case SLOT_HOLES: v = t.holes; break;
      case SLOT_WELLS: v = t.wells; break;
      case SLOT_WELLS_FAST: v = t.fast; break;
      case SLOT_HOLE_DEPTH: v = t.depth; break;
      case SLOT_ROWS_WITH_HOLES: v = popcount(t.hole_rows); break;
      case SLOT_DIVERSITY: v = popcount(t.pair_bits & 0x1Fu); break;
      case SLOT_MAX_HEIGHT: v = t.max; break;
      case SLOT_AGG_HEIGHT: v = t.agg; break;
      case SLOT_BUMPINESS: v = t.bump; break;
      default: assert(false && "a slot outside kDropScorerGroups"); break;
    }
    s += r_.terms[i].weight * v;
  }
  return s;
}

// RareOnly: one orientation's candidates located (orientation()'s rows y, filled rows and rare
// bits), the rare ones rated, the quiet ones -infinity.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <class V, int Wd>
int DropPass<A, Narrow, RareOnly, Family, Width>::rare_row(const Orientation& o, int k, int quiet, PlyCarry carry,
                                                         DropScores& out) {
  using U = typename V::U;
  using I = typename V::I;
  const int n = W() - Wd + 1;
  std::uint64_t rare = 0;
  for (int x0 = 0; x0 < n; x0 += V::N) {
    const int base = kPad + x0;
    I y(0);
    for (int i = 0; i < Wd; ++i) y = xsimd::max(y, loadi<V>(h_ + base + i) - I(o.bottom[i]));
    const U yu = V::as_uint(y);
    U full = V::shl(U(low_mask(o.height)), yu) & loadu<V>(left_and_ + base) & loadu<V>(right_and_ + base + Wd);
    for (int i = 0; i < Wd; ++i) full = full & (loadu<V>(col_ + base + i) | V::shl(U(o.mask[i]), yu));
    y.store_unaligned(out.row.data() + k + x0);
    full.store_aligned(full_ + x0);
    const int lanes = std::min(V::N, n - x0);
    rare |= (lane_bits((V::as_int(full) != I(0)) | (y + I(o.height) > I(quiet))) &
             ((std::uint64_t{1} << lanes) - 1))
            << x0;
  }
  std::fill_n(out.score.data() + k, n, -std::numeric_limits<double>::infinity());
  rate_rare(k, rare, carry, out);
  return k + n;
}

// The rare candidates of one orientation (bits of `rare`, from candidate k0) through rare_score.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
void DropPass<A, Narrow, RareOnly, Family, Width>::rate_rare(int k0, std::uint64_t rare, PlyCarry carry,
                                                           DropScores& out) {
  double* s = out.score.data() + k0;
  out.rare |= rare << k0;
  for (; rare; rare &= rare - 1) {
    const int x = std::countr_zero(rare);
    const Placement pl{static_cast<std::uint8_t>(piece_), static_cast<std::uint8_t>(orientation_),
                       static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(out.row[k0 + x])};
    s[x] = rare_score(pl, k0 + x, full_[x], carry);
  }
}

}  // namespace
}  // namespace tb
