// The drop pass's base board (drop_pass/pass.h): one vector pass over its columns for its
// feature totals and the per-column values the candidates start from, and the full-row masks
// around every span of columns.  The same column pass rates a rare candidate's board (rare.h).
#pragma once

#include "pass.h"

namespace tb {
namespace {

// The column pass's unroll hint (column_pass).  In a profile-guided build (CMakeLists.txt
// TETRISBENCH_PGO_PROFILE defines TB_PROFILE_GUIDED) the rare-only passes' files
// (drop_scorer_rare_*.cpp define TB_RARE_ONLY_FILE) go without it: with their profile clang
// declines it there, and warns in each such file and at every ThinLTO link.  The full passes
// keep it (AVX2's two column vectors a board, unrolled).
#if defined(TB_PROFILE_GUIDED) && defined(TB_RARE_ONLY_FILE)
#define TB_COLUMN_PASS_UNROLL
#else
#define TB_COLUMN_PASS_UNROLL _Pragma("GCC unroll 4")
#endif

// One vector pass over the columns (lanes = padded indices [1, W + 2]: every column, its
// walls, and each index's row-transition pair with the one before it; walls add 0 to every
// sum).  With Keep, the per-column values of the base board are kept for the candidates.
// lcr: the columns already in registers (registers.h), three vectors a step (padded indices
// j - 1.., j.., j + 1..).
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <bool Keep>
void DropPass<A, Narrow, RareOnly, Family, Width>::column_pass(Totals& t, const Word* col, const U* lcr) {
  const int W = this->W();
  alignas(64) std::int32_t local_h[kPadded];
  std::int32_t* hs = Keep ? h_ : local_h;
  const ColumnInputs in{W, groups(), U(rows_)};
  ColumnSums s;
  // Below 16 lanes the heights' sum and maximum are folded in the loop (16 lanes: the board
  // fits one vector, reduce_one_vector, up to 12 columns).
  alignas(64) std::int32_t lane_index[N];
  if constexpr (N < 16)
    for (int l = 0; l < N; ++l) lane_index[l] = l;
  TB_COLUMN_PASS_UNROLL
  for (int j = 1; j < W + kPad + 1; j += N) {
    const U* v = lcr ? lcr + 3 * ((j - 1) / N) : nullptr;
    const U l = v ? v[0] : loadu(col + j - 1), c = v ? v[1] : loadu(col + j);
    const U r = v ? v[2] : loadu(col + j + 1);
    column_step<Keep>(s, in, j, l, c, r, hs, lane_index);
  }
  if constexpr (Keep && L::kBytes && !L::kNativePopcnt) {
    multi_runs_ = (in.groups & G_WELLS) && !L::none(s.higher_holes);
    if (multi_runs_)  // the run planes of every column, for the well cells in higher runs
      for (int j = 1; j < W + kPad + 1; j += N) {
        const U* v = lcr ? lcr + 3 * ((j - 1) / N) : nullptr;
        const U c = v ? v[1] : loadu(col + j);
        U planes[kRunPlanes];
        run_planes<L>(c, L::bit_width(c), in.rows, planes);
        for (int p = 0; p < kRunPlanes; ++p) planes[p].store_unaligned(planes_[p] + j);
      }
  }
  column_totals<Keep>(s, in, hs, t);
}

// column_pass's step at padded indices j .. j + N - 1: columns l (left neighbours), c and r
// (right neighbours) into the running sums.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <bool Keep>
void DropPass<A, Narrow, RareOnly, Family, Width>::column_step(ColumnSums& s, const ColumnInputs& in, int j, U l, U c,
                                                               U r, std::int32_t* hs, const std::int32_t* lane_index) {
  const U rows = in.rows;
  const std::uint32_t groups = in.groups;
  const U h = L::bit_width(c), filled_part = L::part(c), filled = L::total(filled_part);
  s.last_h = h;
  s.last_c = c;
  L::as_int(h).store_unaligned(hs + j);
  if constexpr (N < 16) {
    const I index = I::load_aligned(lane_index) + I(j);  // padded index: columns kPad .. W + kPad - 1
    const I column_h = xsimd::select((index >= I(kPad)) & (index < I(in.W + kPad)), L::as_int(h), I(0));
    s.agg_h = s.agg_h + column_h;
    s.max_h = xsimd::max(s.max_h, column_h);
  }
  const U holes = h - filled;
  if (Keep) L::as_int(holes).store_unaligned(holes_ + j);
  s.holes = s.holes + holes;
  s.ct = s.ct + L::part(c ^ ((c << 1) | U(1u)));
  s.depth = s.depth + filled_part - L::part(c & ~(c + U(1u)));  // (a subset's part: no borrow)
  const U hole_cells = ~(L::from_row(h) | c);  // walls: h = 32, no hole cells
  s.hole_rows = s.hole_rows | hole_cells;
  s.rt = s.rt + L::part((l ^ c) & rows);
  if (groups & G_WELLS) {
    const U w = column_wells<Keep>(j, l, c, r, h, hole_cells, rows, s);
    s.wells = s.wells + w;
    if (Keep) w.store_unaligned(wells_ + j);
  }
  if (groups & G_WELLS_FAST) {
    U w(0u), f(0u);
    wells_walk<L>(l, c, r, rows, w, f);
    s.fast = s.fast + f;
    if (Keep) f.store_unaligned(fast_ + j);
  }
}

// The wells of column_step's columns c of heights h.
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <bool Keep>
auto DropPass<A, Narrow, RareOnly, Family, Width>::column_wells(int j, U l, U c, U r, U h, U hole_cells, U rows,
                                                                ColumnSums& s) -> U {
  const U cells = l & r & ~c & rows;
  if constexpr (L::kBytes && !L::kNativePopcnt) {
    // Byte-table popcounts: a well cell at row r weighs r - s + 1, s the first row of its run
    // of empty cells, so the cells shifted down by s weigh their weighted popcount.  Above the
    // top s = h; in the lowest run of holes s is that run's first row (hole_start_, which the
    // rows and tails shift by too); only a well cell in a higher run of holes (a column with
    // two runs of holes or more: few boards) needs the run planes, which the base board then
    // keeps for every column (multi_runs_).
    typename L::Weighted open;
    L::add_weighted(open, L::shr(cells, h));
    const U in_holes = cells & hole_cells;
    const bool any_in_holes = !L::none(in_holes);
    U start(0u), higher(0u), extra(0u);
    if (Keep || any_in_holes) lowest_run(hole_cells, start, higher);
    if (Keep) {
      start.store_unaligned(hole_start_ + j);
      s.higher_holes = s.higher_holes | higher;
    }
    if (any_in_holes) {
      if (L::none(in_holes & higher)) {
        L::add_weighted(open, L::shr(in_holes, start));
      } else {
        U planes[kRunPlanes];
        run_planes<L>(c, h, rows, planes);
        extra = weigh<L>(in_holes, planes);
      }
    }
    return L::weighted_total(open) + extra;
  } else {
    U planes[kRunPlanes];
    run_planes<L>(c, h, rows, planes);
    const U w = weigh<L>(cells, planes);
    if (Keep)
      for (int p = 0; p < kRunPlanes; ++p) planes[p].store_unaligned(planes_[p] + j);
    return w;
  }
}

// column_pass's totals from its running sums: the popcount sums were kept as parts
// (Lanes::part: at most 8 a byte per vector, and at most 5 vectors), one reduction each; then
// two sums per 32-bit lane sum: every per-lane sum is below 2^16 (at most 16 columns of at most
// 29 transitions, 28 holes or cells, or 406 well cells).
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
template <bool Keep>
void DropPass<A, Narrow, RareOnly, Family, Width>::column_totals(ColumnSums& s, const ColumnInputs& in,
                                                                 const std::int32_t* hs, Totals& t) {
  const int W = in.W;
  s.ct = L::total(s.ct);
  s.depth = L::total(s.depth);
  s.rt = L::total(s.rt);
  t = Totals{};
  if constexpr (kOneRegister)
    if (W + kPad <= N) {  // one vector: lane l holds padded index l + 1, column l - 1
      reduce_one_vector(s.ct | (s.holes << 16), s.depth | (s.rt << 16), s.wells | (s.fast << 16), s.hole_rows,
                        s.last_c, s.last_h, Keep, t);
      return;
    }
  const Word a = lane_sum(s.ct | (s.holes << 16)), d = lane_sum(s.depth | (s.rt << 16));
  const Word w = lane_sum(s.wells | (s.fast << 16));
  unpack(a, d, w, t);
  t.hole_rows = lane_fold<Fold::bit_or>(s.hole_rows);
  // Heights: sum, maximum, and the pairs of neighbouring columns (pair j = indices j-1, j).
  if constexpr (N < 16) {
    t.agg = static_cast<std::int32_t>(lane_sum(L::as_uint(s.agg_h)));
    t.max = static_cast<std::int32_t>(lane_fold<Fold::max>(L::as_uint(s.max_h)));
  } else {
    for (int c = 0; c < W; ++c) {
      t.agg += hs[c + kPad];
      t.max = std::max(t.max, hs[c + kPad]);
    }
  }
  if (in.groups & (G_BUMPINESS | G_DIVERSITY)) {
    if (Keep) {
      fill_lanes(bump_, 0);
      fill_lanes(div_, Word{0});
    }
    for (int c = 1; c < W; ++c) {
      const int d = hs[c + kPad] - hs[c + kPad - 1];
      const Word bit = Word{1} << std::min(static_cast<unsigned>(d + 2), 5u);
      t.bump += d < 0 ? -d : d;
      t.pair_bits |= bit;
      if (Keep) {
        bump_[c + kPad] = d < 0 ? -d : d;
        div_[c + kPad] = bit;
      }
    }
  }
}

// The base board's padded columns, heights and full-row masks, and unless DropMode::rare_only
// its column pass (its totals and the per-column values the candidates start from).
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
void DropPass<A, Narrow, RareOnly, Family, Width>::load_base(const Board& b) {
  const int W = this->W();
  const bool features = !RareOnly && mode_ != DropMode::rare_only;
  fill_lanes(col_, ~Word{0});
  if (!features)
    for (int c = 0; c < W; ++c) h_[c + kPad] = column_height(b.cols[c]);
  if (one_register()) {
    if constexpr (kOneRegister) load_base_in_one_register(b, features);
  } else if (two_registers()) {
    if constexpr (kTwoRegisters) load_base_in_two_registers(b, features);
  } else {
    load_base_in_memory(b, features);
  }
  // Walls count as height 0 for the candidates, so that the lanes past a row never shift by
  // 32 or more.
  std::fill(std::begin(h_), std::begin(h_) + kPad, 0);
  int j = W + kPad;
  for (; j % N; ++j) h_[j] = 0;
  for (; j < kPadded; j += N) I(0).store_aligned(h_ + j);
  if (features && (groups() & G_DIVERSITY)) {
    div_pre_[0] = 0;
    for (int j = 1; j < kPadded; ++j) div_pre_[j] = div_pre_[j - 1] | div_[j - 1];
    div_suf_[kPadded - 1] = div_[kPadded - 1];
    for (int j = kPadded - 2; j >= 0; --j) div_suf_[j] = div_suf_[j + 1] | div_[j];
  }
}

// load_base with the padded board in memory (any width, any instruction set).
template <class A, class Narrow, bool RareOnly, std::uint32_t Family, int Width>
void DropPass<A, Narrow, RareOnly, Family, Width>::load_base_in_memory(const Board& b, bool features) {
  const int W = this->W();
  for (int c = 0; c < W; ++c) col_[c + kPad] = b.cols[c];
  if (features) column_pass<true>(t_, col_);
  // Rows full outside a span of columns: left_and_[j] = AND of the columns before index j,
  // right_and_[j] = AND of the columns from index j on.
  fill_lanes(left_and_, ~Word{0});
  fill_lanes(right_and_, ~Word{0});
  for (int c = 0; c < W; ++c) left_and_[c + kPad + 1] = left_and_[c + kPad] & col_[c + kPad];
  const Word all = left_and_[W + kPad];
  int j = W + kPad + 1;
  for (; j % N; ++j) left_and_[j] = all;
  for (; j < kPadded; j += N) U(all).store_aligned(left_and_ + j);
  for (int c = W - 1; c >= 0; --c) right_and_[c + kPad] = right_and_[c + kPad + 1] & col_[c + kPad];
}

}  // namespace
}  // namespace tb
