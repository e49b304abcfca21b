// The drop pass's rows (drop_pass/pass.h): one orientation's candidates, a lane per column x,
// located (their rows y and the rows they fill) and, those that clear no rows ("quiet"), rated
// from the base board's totals and their changed columns (the incremental forms of pass.h's
// header comment).  Rare candidates go to rare.h; the ratings to reduce.h.
#pragma once

#include "pair_rows.h"
#include "pass.h"
#include "rare.h"
#include "reduce.h"
#include "tails.h"

namespace tb {
namespace {

// One orientation's row of candidates (row()), from candidate k: returns the next row's first.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
int DropPass<A, Narrow, RareOnly, Family, Width>::row_of(const Orientation& o, int k, int quiet, PlyCarry carry,
                                                        DropScores& out) {
  switch (o.width) {
    case 1: return row<1>(o, k, quiet, carry, out);
    case 2: return row<2>(o, k, quiet, carry, out);
    case 3: return row<3>(o, k, quiet, carry, out);
    default: return row<4>(o, k, quiet, carry, out);
  }
}

// One orientation's row of candidates, in Narrow's lanes when they fit.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <int Wd>
int DropPass<A, Narrow, RareOnly, Family, Width>::row(const Orientation& o, int k, int quiet, PlyCarry carry,
                                                     DropScores& out) {
  if constexpr (RareOnly) {
    if constexpr (LN::N < N)
      if (W() - Wd + 1 <= LN::N) return rare_row<LN, Wd>(o, k, quiet, carry, out);
    return rare_row<L, Wd>(o, k, quiet, carry, out);
  } else {  // (orientation() is not instantiated for the rare-only pass)
    if constexpr (kTails<Wd>) return orientation<LN, Wd>(o, k, quiet, carry, out);
    if constexpr (LN::N < N)
      if (W() - Wd + 1 <= LN::N) return orientation<LN, Wd>(o, k, quiet, carry, out);
    return orientation<L, Wd>(o, k, quiet, carry, out);
  }
}

// The candidates of one orientation, columns x = 0 .. W - Wd, as candidates k, k + 1, ...
// With Pair (kPairs, DropMode::all): orientations 0 (o) and 2 of the piece, 8 candidates each,
// in one 16-lane row: orientation 0's are candidates k .. k + 7 (lanes 0-7), rated here;
// orientation 2's (lanes 8-15) wait in pair_ for finish_pair, after orientation 1's row.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <class V, int Wd, bool Pair>
int DropPass<A, Narrow, RareOnly, Family, Width>::orientation(const Orientation& o, int k, int quiet, PlyCarry carry,
                                                             DropScores& out) {
  using U = typename V::U;
  using I = typename V::I;
  static_assert(!Pair || V::N == 16);

  const int n = Pair ? V::N : W() - Wd + 1;  // (Pair: both orientations' candidates)
  const std::uint32_t groups = this->groups();
  const I izero(0);
  // Piece column i: its cells, bottom, top and count; and which cell sides face a non-piece
  // cell on the left / right (row transitions).  Per lane (RowShape): o's, or with Pair
  // orientation 0's and 2's.
  const RowShape<V, Wd, Pair> sh(o, piece_, orientation_);
  std::uint64_t rare = 0;  // bit x: the candidate at column x is rare
  const int n_vec = kTails<Wd> ? LN::N : n;  // the candidates in vectors; then the tail (V is LN there)
  for (int x0 = 0; x0 < n_vec; x0 += V::N) {
    // The candidates' rows y (the lowest where every piece column clears its column's top),
    // new column words and filled rows: a candidate that fills a row or ends above quiet is rare.
    const int base = kPad + x0;  // padded index of column x0
    I y = izero;
    I h[Wd];
    for (int i = 0; i < Wd; ++i) {
      h[i] = row_load<V, Pair>(h_ + base + i);
      y = xsimd::max(y, h[i] - sh.bottom(i));
    }
    const U yu = V::as_uint(y);
    U nc[Wd];
    U full = V::shl(sh.height_mask(), yu) & row_load<V, Pair>(left_and_ + base) &
             row_load<V, Pair>(right_and_ + base + Wd);
    for (int i = 0; i < Wd; ++i) {
      nc[i] = row_load<V, Pair>(col_ + base + i) | V::shl(sh.mask(i), yu);
      full = full & nc[i];
    }
    const int lanes = std::min(V::N, n_vec - x0);
    rare |= (lane_bits((V::as_int(full) != izero) | (y + sh.height_plus(0) > I(quiet))) &
             ((std::uint64_t{1} << lanes) - 1))
            << x0;
    store_row<Pair>(out.row.data(), pair_.row, k, x0, y);
    at_ = x0;
    full.store_aligned(full_ + x0);
    if (mode_ == DropMode::rare_only) continue;  // only the rare candidates are rated
    quiet_features<V, Wd, Pair>(sh, groups, base, k, x0, h, y, nc);
  }
  if constexpr (kTails<Wd>) rare |= tail_row<Wd>(o, sh.scalar_sides(), k, quiet, out);
  if constexpr (Pair) {  // (never rare_only: run())
    score_pair(k, rare, carry, out);
    return k + n / 2;
  }
  if (mode_ == DropMode::rare_only) {
    std::fill_n(out.score.data() + k, n, -std::numeric_limits<double>::infinity());
    rate_rare(k, rare, carry, out);
  } else {
    if (mode_ == DropMode::with_values) keep_values(k, n, out);
    score(k, n, rare, carry, out);
  }
  return k + n;
}

// The feature values of a row's vector of candidates at padded index base (lane 0: column x0)
// into vals_ (put), and the game loop's holes and wall height after each: the base board's
// totals (t_) plus what each changed column adds.  h: the base heights of the piece's columns;
// y: the candidates' rows; nc: their columns' new words.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <class V, int Wd, bool Pair>
void DropPass<A, Narrow, RareOnly, Family, Width>::quiet_features(const RowShape<V, Wd, Pair>& sh,
                                                                  std::uint32_t groups, int base, int k, int x0,
                                                                  const typename V::I (&h)[Wd], typename V::I y,
                                                                  const typename V::U (&nc)[Wd]) {
  using I = typename V::I;
  const I izero(0);
  I nh[Wd], gap[Wd];
  for (int i = 0; i < Wd; ++i) {
    gap[i] = y + sh.bottom(i) - h[i];
    nh[i] = y + sh.top(i);
  }
  put(MOVE_LANDING_X2, y + y + sh.height_plus(-1));
  I holes(t_.holes), height(t_.max);  // the game loop's counters after the move
  for (int i = 0; i < Wd; ++i) {
    holes = holes + gap[i];
    height = xsimd::max(height, nh[i]);
  }
  store_row<Pair>(holes_at_, pair_.holes, k, x0, holes);
  store_row<Pair>(height_at_, pair_.height, k, x0, height);
  if (groups & G_HOLES) put(SLOT_HOLES, holes);
  if (groups & G_COL_TRANSITIONS) {
    I v(t_.ct);
    for (int i = 0; i < Wd; ++i) v = v + (ones_where(gap[i] > izero) & I(2));
    put(SLOT_COL_TRANSITIONS, v);
  }
  if (groups & G_HOLE_DEPTH) {
    I v(t_.depth);
    for (int i = 0; i < Wd; ++i) {
      const auto floats = (gap[i] > izero) | (row_load<V, Pair>(holes_ + base + i) > izero);
      v = v + (ones_where(floats) & sh.cells(i));
    }
    put(SLOT_HOLE_DEPTH, v);
  }
  if (groups & G_ROWS_WITH_HOLES) {
    typename V::U any(t_.hole_rows);
    for (int i = 0; i < Wd; ++i) {
      // The rows below the piece's run and at or above the base top.
      any = any | (V::from_row(V::as_uint(h[i])) & ~V::from_row(V::as_uint(y + sh.bottom(i))));
    }
    put(SLOT_ROWS_WITH_HOLES, V::as_int(V::popcnt(any)));
  }
  if (groups & G_ROW_TRANSITIONS) row_transitions<V, Wd, Pair>(sh, base, y);
  if (groups & (G_WELLS | G_WELLS_FAST)) wells<V, Wd, Pair>(base, nc, nh, y, sh);
  if (groups & (G_AGG_HEIGHT | G_MAX_HEIGHT)) {
    I agg(t_.agg);
    for (int i = 0; i < Wd; ++i) agg = agg + nh[i] - h[i];
    put(SLOT_AGG_HEIGHT, agg);
    put(SLOT_MAX_HEIGHT, height);
  }
  if constexpr (!Pair)  // (kPairs: no pairs in the family)
    if (groups & (G_BUMPINESS | G_DIVERSITY)) pairs<V, Wd>(base, x0, nh);
}

// Row transitions of the candidates: the base's, plus each piece cell side that faces a
// non-piece cell, less two for each such side whose neighbour cell is filled.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <class V, int Wd, bool Pair>
void DropPass<A, Narrow, RareOnly, Family, Width>::row_transitions(const RowShape<V, Wd, Pair>& sh, int base,
                                                                   typename V::I y) {
  using U = typename V::U;
  const U yu = V::as_uint(y);
  U filled_sides(0u);
  if constexpr (V::kBytes && !V::kNativePopcnt) {
    // A side's neighbour cells brought down to the low nibble: (col >> y) & side has at most 4
    // bits, all in byte 0 (the other bytes 0), so one table lookup is its count.
    const U counts = V::nibble_table([](int c) { return std::popcount(static_cast<unsigned>(c)); });
    for (int i = 0; i < Wd; ++i) {
      filled_sides = filled_sides + V::lookup(counts, V::shr(row_load<V, Pair>(col_ + base + i - 1), yu) & sh.side_left(i));
      filled_sides = filled_sides + V::lookup(counts, V::shr(row_load<V, Pair>(col_ + base + i + 1), yu) & sh.side_right(i));
    }
  } else {
    for (int i = 0; i < Wd; ++i) {  // 2 x Wd parts of at most 4 cells each: one reduction
      filled_sides = filled_sides + V::part(row_load<V, Pair>(col_ + base + i - 1) & V::shl(sh.side_left(i), yu));
      filled_sides = filled_sides + V::part(row_load<V, Pair>(col_ + base + i + 1) & V::shl(sh.side_right(i), yu));
    }
    filled_sides = V::total(filled_sides);
  }
  put(SLOT_ROW_TRANSITIONS, sh.sides_plus(t_.rt) - V::as_int(filled_sides + filled_sides));
}

// Wells and wells_fast of the candidates: the base sums, less the changed columns and their
// two neighbours, plus those columns recomputed.  Wells weigh the new well cells with run
// planes: a changed column keeps its base planes below the piece (the gap under it extends
// the base's open run) and starts a new open run at its new top.  wells_fast walks.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <class V, int Wd, bool Pair>
void DropPass<A, Narrow, RareOnly, Family, Width>::wells(int base, const typename V::U (&nc)[Wd],
                                                        const typename V::I (&nh)[Wd], typename V::I y,
                                                        const RowShape<V, Wd, Pair>& sh) {
  using U = typename V::U;
  using I = typename V::I;

  const U rows(rows_), zero(0u);
  U w[Wd + 4];  // columns x-2 .. x+Wd+1: the outer two only as neighbours
  w[0] = row_load<V, Pair>(col_ + base - 2);
  w[1] = row_load<V, Pair>(col_ + base - 1);
  for (int i = 0; i < Wd; ++i) w[i + 2] = nc[i];
  w[Wd + 2] = row_load<V, Pair>(col_ + base + Wd);
  w[Wd + 3] = row_load<V, Pair>(col_ + base + Wd + 1);
  const std::uint32_t groups = this->groups();
  if (groups & G_WELLS) {
    U sum = zero;
    if constexpr (V::kNativePopcnt) sum = wells_by_planes<V, Wd, Pair>(base, w, nh, y, sh);
    else sum = wells_by_bytes<V, Wd, Pair>(base, w, nh, y, sh);
    put(SLOT_WELLS, I(t_.wells) + V::as_int(sum));
  }
  if (groups & G_WELLS_FAST) {
    U sum = zero, unused = zero;
    for (int k = 0; k < Wd + 2; ++k) {
      sum = sum - row_load<V, Pair>(fast_ + base - 1 + k);
      wells_walk<V>(w[k], w[k + 1], w[k + 2], rows, unused, sum);
    }
    put(SLOT_WELLS_FAST, I(t_.fast) + V::as_int(sum));
  }
}

// wells' change with native popcounts: one popcount per plane is cheap, so the changed columns'
// planes are rebuilt (the base's below the piece, a new open run from the new top).  w: the
// columns x-2 .. x+Wd+1.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <class V, int Wd, bool Pair>
auto DropPass<A, Narrow, RareOnly, Family, Width>::wells_by_planes(int base, const typename V::U (&w)[Wd + 4],
                                                                   const typename V::I (&nh)[Wd], typename V::I y,
                                                                   const RowShape<V, Wd, Pair>& sh) -> typename V::U {
  using U = typename V::U;
  const U rows(rows_);
  U sum(0u);
  for (int k = 0; k < Wd + 2; ++k) {
    const int j = base - 1 + k;  // padded index of the centre column
    sum = sum - row_load<V, Pair>(wells_ + j);
    U planes[kRunPlanes];
    if (k == 0 || k == Wd + 1) {
      for (int p = 0; p < kRunPlanes; ++p) planes[p] = row_load<V, Pair>(planes_[p] + j);
    } else {
      const int i = k - 1;
      const U from_run = V::from_row(V::as_uint(y + sh.bottom(i)));  // the piece's run and up
      const U top = V::as_uint(nh[i]);
      for (int p = 0; p < kRunPlanes; ++p)
        planes[p] = (row_load<V, Pair>(planes_[p] + j) & ~from_run) | V::shl(U(open_run_plane(p)), top);
    }
    sum = sum + weigh<V>(w[k] & w[k + 2] & ~w[k + 1] & rows, planes);
  }
  return sum;
}

// wells' change with byte-table popcounts: a well cell's run ends at the column's top below it:
// above the new top at that top, in the gap under the piece at the base top h (the piece is
// above it), below h at the first row of its run of holes (most vectors have no well cell
// there; column_pass).  Above a row t the run of row r is r - t + 1: the weighted popcount of
// the cells shifted down by t (one reduction for every column), with no planes to build.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <class V, int Wd, bool Pair>
auto DropPass<A, Narrow, RareOnly, Family, Width>::wells_by_bytes(int base, const typename V::U (&w)[Wd + 4],
                                                                  const typename V::I (&nh)[Wd], typename V::I y,
                                                                  const RowShape<V, Wd, Pair>& sh) -> typename V::U {
  using U = typename V::U;
  static_assert(L::kBytes && !L::kNativePopcnt, "hole_start_ and multi_runs_ come from the byte-table column pass");
  const U rows(rows_);
  U sum(0u);
  typename V::Weighted open;  // at most 3 Wd + 4 <= 16 words: below kMaxWeighted
#pragma GCC unroll 6
  for (int k = 0; k < Wd + 2; ++k) {
    const int j = base - 1 + k;  // padded index of the centre column
    sum = sum - row_load<V, Pair>(wells_ + j);
    const U cells = w[k] & w[k + 2] & ~w[k + 1] & rows;
    const U h = V::as_uint(row_load<V, Pair>(h_ + j));  // walls: 0 (and no well cells)
    U top = h;
    if (k > 0 && k <= Wd) {
      const int i = k - 1;
      top = V::as_uint(nh[i]);
      const U from_run = V::from_row(V::as_uint(y + sh.bottom(i)));  // the piece's run and up
      V::add_weighted(open, V::shr(cells & ~from_run, h));           // (the shift drops the rows below h)
    }
    V::add_weighted(open, V::shr(cells, top));
    const U in_holes = cells & ~V::from_row(h);
    if (!V::none(in_holes)) {
      if (!multi_runs_) {
        V::add_weighted(open, V::shr(in_holes, row_load<V, Pair>(hole_start_ + j)));
      } else {
        U planes[kRunPlanes];
        for (int p = 0; p < kRunPlanes; ++p) planes[p] = row_load<V, Pair>(planes_[p] + j);
        sum = sum + weigh<V>(in_holes, planes);
      }
    }
  }
  return sum + V::weighted_total(open);
}

// Bumpiness and diversity: the pairs of neighbouring columns that include a changed column
// (pair index j = columns j-1, j; the changed pairs are base .. base + Wd).
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <class V, int Wd>
void DropPass<A, Narrow, RareOnly, Family, Width>::pairs(int base, int x0, const typename V::I (&nh)[Wd]) {
  using U = typename V::U;
  using I = typename V::I;

  const I izero(0);
  alignas(64) std::int32_t lane[V::N];
  for (int l = 0; l < V::N; ++l) lane[l] = x0 + l;
  const I x = I::load_aligned(lane);
  I hh[Wd + 2];
  hh[0] = loadi<V>(h_ + base - 1);
  for (int i = 0; i < Wd; ++i) hh[i + 1] = nh[i];
  hh[Wd + 1] = loadi<V>(h_ + base + Wd);
  const I has_left = ones_where(x > izero);
  const I has_right = ones_where(x + I(Wd) < I(W()));
  I bump(t_.bump);
  U seen = loadu<V>(div_pre_ + base) | loadu<V>(div_suf_ + base + Wd + 1);
  for (int k = 0; k <= Wd; ++k) {
    bump = bump - loadi<V>(bump_ + base + k);
    const I d = hh[k + 1] - hh[k];
    I valid = k == 0 ? has_left : k == Wd ? has_right : I(-1);
    bump = bump + (xsimd::abs(d) & valid);
    const U idx = xsimd::min(V::as_uint(d + I(2)), U(5u));
    seen = seen | (V::shl(U(1u), idx) & V::as_uint(valid));
  }
  put(SLOT_BUMPINESS, bump);
  put(SLOT_DIVERSITY, V::as_int(V::popcnt(seen & U(0x1Fu))));
}

// DropMode::with_values: the orientation's values of the slots in the rating's groups, for
// candidates k0 .. k0 + n (whole vectors: the arrays run kDropLanes past the last one).
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
void DropPass<A, Narrow, RareOnly, Family, Width>::keep_values(int k0, int n, DropScores& out) const {
  for (int slot = 0; slot < DropScores::kValueSlots; ++slot) {
    if (!(groups() & (1u << slot))) continue;  // slot s < kValueSlots is group 1 << s
    for (int x = 0; x < n; x += N) I::load_aligned(vals_[slot] + x).store_unaligned(out.values[slot].data() + k0 + x);
  }
}

}  // namespace
}  // namespace tb
