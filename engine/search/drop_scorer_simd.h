// The vector pass of the drop scorer (drop_scorer.h), once for any xsimd architecture.  Include
// only from a per-architecture translation unit (drop_scorer_<isa>.cpp), compiled with that
// instruction set's flags; everything here has internal linkage.
//
// Lanes run across the columns x of one piece orientation.  Column x + i of the candidate at x
// is then an unaligned load at offset i from a padded copy of the board, so the candidate's
// changed columns cost a few vector operations, not a board each.
//
// Why the features follow from the changed columns (a drop adds to each column c it covers one
// run of cells, starting `gap` >= 0 rows above the column's top h; no rows clear):
//   holes         + gap per column
//   col_trans.    + 2 per column with gap > 0 (the new run floats: two more ends)
//   hole_depth    + the run's cells, unless gap == 0 on a column without holes
//   rows w. holes the base's hole rows, OR the gap rows [h, h + gap)
//   row_trans.    each piece cell side next to a non-piece cell: +1 if that cell is empty, -1
//                 if filled (walls are filled)
//   heights       a column's new top is the run's top; max, sum, differences follow
//   wells         recomputed on the changed columns and their two neighbours
// Everything is exact integer work; the ratings are the same sums as sum_terms, in term order.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <limits>
#include <type_traits>
#include <utility>

#include "drop_scorer.h"
#include "features_simd.h"
#include "pieces.h"
#include "placement.h"

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

// A: the lanes of the base board's column pass and of the rows of more than Narrow's lane
// count; Narrow: the rows that fit it (on AMD Zen 4 a 512-bit operation costs two 256-bit ones,
// so a row of 8 candidates in 8 lanes of 256 bits costs half of one in 16 lanes of 512 bits).
// RareOnly: an instance for DropMode::rare_only alone (drop_pass_rare), compiled in its own
// translation unit, so that the full pass's code is the same as without it: its rows only
// locate the candidates, with no features' prologue, and the best comes from the rare bits
// (2-ply 1.25x; the same paths inside the full pass's instance made greedy play 0.92x).
// Family: the groups this instance rates (kDropFamilies, a superset of the rating's); the code
// of the others is compiled out, so that the decision's hot code is smaller.  Width: the board
// width this instance rates (kDropWidths), or 0 for any; a known width folds every row's
// candidate count and lane choice at compile time.
template <class A, class Narrow = A, bool RareOnly = false, std::uint32_t Family = kDropScorerGroups, int Width = 0>
class DropPass {
  using L = Lanes<A>;
  using U = typename L::U;
  using I = typename L::I;
  static constexpr int N = L::N;
  using LN = Lanes<Narrow>;

  // Whether the padded board fits one AVX-512 register (boards up to 12 columns): then the base
  // board's column pass, its full-row masks and the rare candidates work in registers.
  // Whether the padded board fits two 8-lane registers (AVX2 without AVX-512, boards up to 12
  // columns): then the base board's column pass and full-row masks work in registers
  // (load_base_in_two_registers).
  bool two_registers() const {
#if defined(__AVX2__) && !defined(__AVX512F__)
    if constexpr (N == 8) return W() + 2 * kPad <= 2 * N;
#endif
    return false;
  }

  bool one_register() const {
#if defined(__AVX512F__)
    if constexpr (N == 16) return W() + 2 * kPad <= N;
#endif
    return false;
  }

 public:
  DropPass(const DropRating& rating, const Board& board, DropMode mode)
      : r_(rating), board_(board), W_(rating.geometry.width), mode_(mode) {
    assert((Width == 0 || W_ == Width) && "a board width outside the pass's (drop_width)");
    assert((rating.groups & ~Family) == 0 && "a rating outside the pass's family (drop_family)");
    rows_ = low_mask(rating.geometry.height);
    load_base(board);
  }

  void run(Piece piece, PlyCarry carry, DropScores& out) {
    const PieceShapes& shapes = kShapes[piece];
    const int quiet = quiet_top(r_.overflow, r_.geometry);
    piece_ = piece;
    out_ = &out;
    out.rare = 0;
    out.kept = 0;
    if constexpr (!RareOnly) {
      if (mode_ != DropMode::rare_only) {  // the move values every quiet candidate of this pass shares
        const std::pair<int, std::int32_t> same[] = {{MOVE_ERODED, carry.eroded}, {MOVE_LINES, carry.lines},
                                                     {MOVE_CONSTANT, 1}};
        for (const auto& [slot, value] : same)
          for (int x = 0; x < kMaxWidth + N; x += N) I(value).store_aligned(vals_[slot] + x);
      }
    }
    best_clear();
    int k = pair_rows(shapes, quiet, carry, out);
    if (k == 0)
      for (int oi = 0; oi < shapes.count; ++oi) {
        orientation_ = oi;
        k = row_of(shapes.orientation[oi], k, quiet, carry, out);
      }
    out.count = k;
    if constexpr (RareOnly) {  // argmax's answer: only the rare candidates can beat -infinity
      out.best = 0;
      for (std::uint64_t r = out.rare; r; r &= r - 1)
        if (const int j = std::countr_zero(r); out.score[j] > out.score[out.best]) out.best = j;
      out.best_holes = -1;  // (the base board's totals were not counted)
      return;
    }
    if (mode_ == DropMode::rare_only) {
      out.best = argmax(out.score.data(), k);  // (the base board's totals were not counted)
      return;
    }
    out.best = best_index();
    measure_best(out);
  }

  // The holes and wall height of the board after the best candidate (the game loop's counters):
  // a quiet candidate's from its row (holes_at_, height_at_), a rare one's from its pass.
  void measure_best(DropScores& out) const {
    const int k = out.best;
    out.best_holes = -1;
    if (out.count == 0) return;
    if ((out.kept >> k) & 1) {
      out.best_holes = out.holes_after[k];
      out.best_wall_height = out.height_after[k];
      return;
    }
    if ((out.rare >> k) & 1) return;  // the move ends the game
    out.best_holes = holes_at_[k];
    out.best_wall_height = height_at_[k];
  }

  // The first index of the highest of s[0 .. count) (none is NaN): a vector max (lanes past
  // count read as -infinity), then the lowest lane equal to it; no branch per candidate (a
  // compare and branch per candidate mispredicts: docs/performance.md).
  static int argmax(const double* s, int count) {
    using D = xsimd::batch<double, A>;
    constexpr int M = static_cast<int>(D::size);
    const D minus_inf(-std::numeric_limits<double>::infinity());
    alignas(64) double lane[M], top_lanes[M];
    for (int l = 0; l < M; ++l) lane[l] = l;
    const D index = D::load_aligned(lane);
    D m = minus_inf;
    for (int k = 0; k < count; k += M)
      m = xsimd::max(m, xsimd::select(index < D(count - k), D::load_unaligned(s + k), minus_inf));
    m.store_aligned(top_lanes);
    double top = top_lanes[0];
    for (int l = 1; l < M; ++l) top = std::max(top, top_lanes[l]);
    for (int k = 0; k < count; k += M)
      if (const std::uint64_t eq = lane_bits(D::load_unaligned(s + k) == D(top)))
        return k + std::countr_zero(eq);  // a valid lane: lanes past count come after it
    return 0;
  }

 private:
  // The rating's groups, as this instance knows them: bits outside Family are 0 at compile time.
  std::uint32_t groups() const { return r_.groups & Family; }
  // The board width: a compile-time constant where Width is set.
  int W() const { return Width > 0 ? Width : W_; }

  template <class V = L>
  static typename V::U loadu(const Word* p) {
    return V::U::load_unaligned(p);
  }
  template <class V = L>
  static typename V::I loadi(const std::int32_t* p) {
    return V::I::load_unaligned(p);
  }
  // Sum, OR and signed maximum of the lanes (xsimd::hadd warns inside GCC 12's AVX-512
  // headers): by halves in registers where the lanes fit 128-bit halves, else through memory.
  enum class Fold { add, bit_or, max };
  template <Fold F>
  static Word lane_fold(U v) {
#if defined(__SSE4_1__)
    if constexpr (N == 4 || N == 8) {
      const auto op = [](__m128i a, __m128i b) {
        if constexpr (F == Fold::add) return _mm_add_epi32(a, b);
        else if constexpr (F == Fold::bit_or) return _mm_or_si128(a, b);
        else return _mm_max_epi32(a, b);
      };
      __m128i x;
#if defined(__AVX2__)
      if constexpr (N == 8) x = op(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
      else
#endif
        x = v;
      x = op(x, _mm_shuffle_epi32(x, 0x4E));
      x = op(x, _mm_shuffle_epi32(x, 0xB1));
      return static_cast<Word>(_mm_cvtsi128_si32(x));
    }
#endif
    alignas(64) Word a[N];
    v.store_aligned(a);
    Word s = F == Fold::max ? Word{0x80000000u} : Word{0};
    for (int l = 0; l < N; ++l) {
      if constexpr (F == Fold::add) s += a[l];
      else if constexpr (F == Fold::bit_or) s |= a[l];
      else s = static_cast<Word>(std::max(static_cast<std::int32_t>(s), static_cast<std::int32_t>(a[l])));
    }
    return s;
  }
  static Word lane_sum(U v) { return lane_fold<Fold::add>(v); }
  // Bit l set where lane l of `b` holds (32-bit integer or double lanes).
  template <class T, class Arch>
  static std::uint64_t lane_bits(xsimd::batch_bool<T, Arch> b) {
    using R = typename xsimd::batch_bool<T, Arch>::register_type;
    const R r = b;
    if constexpr (sizeof(R) <= 8) {
      return static_cast<std::uint64_t>(r);  // AVX-512: a mask register
#if defined(__AVX__)
    } else if constexpr (sizeof(R) == 32 && sizeof(T) == 8) {
      return static_cast<unsigned>(_mm256_movemask_pd(r));
    } else if constexpr (sizeof(R) == 32) {
      return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(r)));
#endif
    } else if constexpr (sizeof(T) == 8) {
      return static_cast<unsigned>(_mm_movemask_pd(r));
    } else {
      return static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(r)));
    }
  }

  // All ones where `b` holds, else 0.
  template <class Arch>
  static xsimd::batch<std::int32_t, Arch> ones_where(xsimd::batch_bool<std::int32_t, Arch> b) {
    using VI = xsimd::batch<std::int32_t, Arch>;
    return xsimd::select(b, VI(-1), VI(0));
  }

  // Exact wells and wells_fast of column `c` between `left` and `right` (features_simd.h):
  // well-cell markers walk down the empty cells.
  template <class V = L, class VU = typename V::U>
  static void wells_walk(VU left, VU c, VU right, VU rows, VU& wells, VU& fast) {
    const VU zero(0u), empty = ~c;
    const VU well_cells = left & right & empty & rows;
    VU marker = well_cells, below = zero, w = zero;
    while (xsimd::any(marker != zero)) {
      w = w + V::popcnt(marker);
      marker = (marker >> 1) & empty;
      below = below | marker;
    }
    VU top = well_cells & ~below, step(1u), f = zero;
    while (xsimd::any(top != zero)) {
      f = f + V::popcnt(top) * step;
      top = (top >> 1) & empty;
      step = step + VU(1u);
    }
    wells = wells + w;
    fast = fast + f;
  }

  // The run-length planes of column `c` of height h: above the top, plane p of r - h + 1
  // (open_run_plane shifted up); below it, one run of holes at a time (usually none).
  static void run_planes(U c, U h, U rows, U (&planes)[kRunPlanes]) {
    const U zero(0u), top = h;  // walls (height 32): no plane bits and no holes
    for (int p = 0; p < kRunPlanes; ++p) planes[p] = L::shl(U(open_run_plane(p)), top);
    U holes = ~(c | L::from_row(top)) & rows;
    // The first run always (without holes it changes nothing: start is 32, the shift gives 0),
    // so that the common boards (no column with two runs of holes) take no data-dependent branch.
    do {
      const U lowest = holes & (zero - holes);
      const U run = holes & ~(holes + lowest);  // the lowest run of holes: the carry stops above it
      const U start = L::popcnt(lowest - U(1u));
      for (int p = 0; p < kRunPlanes; ++p) planes[p] = planes[p] | (L::shl(U(open_run_plane(p)), start) & run);
      holes = holes & ~run;
    } while (!L::none(holes));
  }

  // The holes of a column (hole_cells: its empty cells below its top) as the byte-table wells
  // use them: the first row of their lowest run (all ones without holes: a shift by it gives
  // 0), and the holes above that run (none unless the column has two runs of holes or more).
  template <class VU>
  static void lowest_run(VU hole_cells, VU& start, VU& higher) {
    using V = Lanes<typename VU::arch_type>;
    const VU lowest = hole_cells & (VU(0u) - hole_cells);
    start = V::bit_width(lowest) - VU(1u);
    higher = hole_cells & (hole_cells + lowest);  // the carry clears the lowest run
  }

  // Sum of the run lengths of the cells of `cells`.
  // One reduction (Lanes::part/total): a part's bytes are at most 8, so the weighted sum's at
  // most 8 x (1 + 2 + ... + 16) = 248, below a byte's carry.
  template <class V = L, class VU = typename V::U>
  static VU weigh(VU cells, const VU (&planes)[kRunPlanes]) {
    VU sum = V::part(cells & planes[0]);
    for (int p = 1; p < kRunPlanes; ++p) sum = sum + (V::part(cells & planes[p]) << p);
    return V::total(sum);
  }

  // Sums over a whole board (padded column words, walls all ones).
  struct Totals {
    std::int32_t ct = 0, holes = 0, depth = 0, rt = 0, wells = 0, fast = 0, agg = 0, max = 0, bump = 0;
    Word hole_rows = 0;  // rows with a hole
    Word pair_bits = 0;  // diversity: bit d + 2 for each neighbour height difference d (bit 5: |d| > 2)
  };

  // The lane sums of column_pass: two 16-bit sums per word.
  static void unpack(Word ct_holes, Word depth_rt, Word wells_fast, Totals& t) {
    t.ct = static_cast<std::int32_t>(ct_holes & 0xFFFFu);
    t.holes = static_cast<std::int32_t>(ct_holes >> 16);
    t.depth = static_cast<std::int32_t>(depth_rt & 0xFFFFu);
    t.rt = static_cast<std::int32_t>(depth_rt >> 16);
    t.wells = static_cast<std::int32_t>(wells_fast & 0xFFFFu);
    t.fast = static_cast<std::int32_t>(wells_fast >> 16);
  }

  // One vector pass over the columns (lanes = padded indices [1, W + 2]: every column, its
  // walls, and each index's row-transition pair with the one before it; walls add 0 to every
  // sum).  With Keep, the per-column values of the base board are kept for the candidates.
  template <bool Keep>
  void column_pass(Totals& t, const Word* col, const U* lcr = nullptr) {
    const int W = this->W();
    const U rows(rows_);
    const std::uint32_t groups = this->groups();
    const bool want_wells = groups & G_WELLS, want_fast = groups & G_WELLS_FAST;
    alignas(64) std::int32_t local_h[kPadded];
    std::int32_t* hs = Keep ? h_ : local_h;
    U sum_ct(0u), sum_holes(0u), sum_depth(0u), sum_rt(0u), sum_wells(0u), sum_fast(0u), hole_rows(0u);
    U last_h(0u), last_c(0u);  // the heights and words of the last vector: the whole board's when it fits one
    U higher_holes(0u);  // (byte-table wells, Keep) the holes above each column's lowest run
    // Below 16 lanes the heights' sum and maximum are folded in the loop (16 lanes: the board
    // fits one vector, reduce_one_vector, up to 12 columns).
    constexpr bool kFoldHeights = N < 16;
    I agg_h(0), max_h(0);
    alignas(64) std::int32_t lane_index[N];
    if constexpr (kFoldHeights)
      for (int l = 0; l < N; ++l) lane_index[l] = l;
    TB_COLUMN_PASS_UNROLL
    for (int j = 1; j < W + kPad + 1; j += N) {
      // lcr: the columns already in registers, three vectors a step (padded indices j - 1..,
      // j.., j + 1..).
      const U* v = lcr ? lcr + 3 * ((j - 1) / N) : nullptr;
      const U l = v ? v[0] : loadu(col + j - 1), c = v ? v[1] : loadu(col + j);
      const U r = v ? v[2] : loadu(col + j + 1);
      const U h = L::bit_width(c), filled_part = L::part(c), filled = L::total(filled_part);
      last_h = h;
      last_c = c;
      L::as_int(h).store_unaligned(hs + j);
      if constexpr (kFoldHeights) {
        const I index = I::load_aligned(lane_index) + I(j);  // padded index: columns kPad .. W + kPad - 1
        const I column_h = xsimd::select((index >= I(kPad)) & (index < I(W + kPad)), L::as_int(h), I(0));
        agg_h = agg_h + column_h;
        max_h = xsimd::max(max_h, column_h);
      }
      const U holes = h - filled;
      if (Keep) L::as_int(holes).store_unaligned(holes_ + j);
      sum_holes = sum_holes + holes;
      sum_ct = sum_ct + L::part(c ^ ((c << 1) | U(1u)));
      sum_depth = sum_depth + filled_part - L::part(c & ~(c + U(1u)));  // (a subset's part: no borrow)
      const U hole_cells = ~(L::from_row(h) | c);  // walls: h = 32, no hole cells
      hole_rows = hole_rows | hole_cells;
      sum_rt = sum_rt + L::part((l ^ c) & rows);
      if (want_wells) {
        const U cells = l & r & ~c & rows;
        U w;
        if constexpr (L::kBytes && !L::kNativePopcnt) {
          // Byte-table popcounts: a well cell at row r weighs r - s + 1, s the first row of its
          // run of empty cells, so the cells shifted down by s weigh their weighted popcount.
          // Above the top s = h; in the lowest run of holes s is that run's first row
          // (hole_start_, which the rows and tails shift by too); only a well cell in a higher
          // run of holes (a column with two runs of holes or more: few boards) needs the run
          // planes, which the base board then keeps for every column (multi_runs_).
          typename L::Weighted open;
          L::add_weighted(open, L::shr(cells, h));
          const U in_holes = cells & hole_cells;
          const bool any_in_holes = !L::none(in_holes);
          U start(0u), higher(0u), extra(0u);
          if (Keep || any_in_holes) lowest_run(hole_cells, start, higher);
          if (Keep) {
            start.store_unaligned(hole_start_ + j);
            higher_holes = higher_holes | higher;
          }
          if (any_in_holes) {
            if (L::none(in_holes & higher)) {
              L::add_weighted(open, L::shr(in_holes, start));
            } else {
              U planes[kRunPlanes];
              run_planes(c, h, rows, planes);
              extra = weigh(in_holes, planes);
            }
          }
          w = L::weighted_total(open) + extra;
        } else {
          U planes[kRunPlanes];
          run_planes(c, h, rows, planes);
          w = weigh(cells, planes);
          if (Keep)
            for (int p = 0; p < kRunPlanes; ++p) planes[p].store_unaligned(planes_[p] + j);
        }
        sum_wells = sum_wells + w;
        if (Keep) w.store_unaligned(wells_ + j);
      }
      if (want_fast) {
        U w(0u), f(0u);
        wells_walk(l, c, r, rows, w, f);
        sum_fast = sum_fast + f;
        if (Keep) f.store_unaligned(fast_ + j);
      }
    }
    if constexpr (Keep && L::kBytes && !L::kNativePopcnt) {
      multi_runs_ = want_wells && !L::none(higher_holes);
      if (multi_runs_)  // the run planes of every column, for the well cells in higher runs
        for (int j = 1; j < W + kPad + 1; j += N) {
          const U* v = lcr ? lcr + 3 * ((j - 1) / N) : nullptr;
          const U c = v ? v[1] : loadu(col + j);
          U planes[kRunPlanes];
          run_planes(c, L::bit_width(c), rows, planes);
          for (int p = 0; p < kRunPlanes; ++p) planes[p].store_unaligned(planes_[p] + j);
        }
    }
    // The popcount sums were kept as parts (Lanes::part: at most 8 a byte per vector, and at
    // most 5 vectors), one reduction each.
    sum_ct = L::total(sum_ct);
    sum_depth = L::total(sum_depth);
    sum_rt = L::total(sum_rt);
    // Two sums per 32-bit lane sum: every per-lane sum is below 2^16 (at most 16 columns of at
    // most 29 transitions, 28 holes or cells, or 406 well cells).
    t = Totals{};
#if defined(__AVX512F__)
    if constexpr (N == 16)
      if (W + kPad <= N) {  // one vector: lane l holds padded index l + 1, column l - 1
        reduce_one_vector(sum_ct | (sum_holes << 16), sum_depth | (sum_rt << 16), sum_wells | (sum_fast << 16),
                          hole_rows, last_c, last_h, Keep, t);
        return;
      }
#endif
    const Word a = lane_sum(sum_ct | (sum_holes << 16)), d = lane_sum(sum_depth | (sum_rt << 16));
    const Word w = lane_sum(sum_wells | (sum_fast << 16));
    unpack(a, d, w, t);
    t.hole_rows = lane_fold<Fold::bit_or>(hole_rows);
    // Heights: sum, maximum, and the pairs of neighbouring columns (pair j = indices j-1, j).
    if constexpr (kFoldHeights) {
      t.agg = static_cast<std::int32_t>(lane_sum(L::as_uint(agg_h)));
      t.max = static_cast<std::int32_t>(lane_fold<Fold::max>(L::as_uint(max_h)));
    } else {
      for (int c = 0; c < W; ++c) {
        t.agg += hs[c + kPad];
        t.max = std::max(t.max, hs[c + kPad]);
      }
    }
    if (groups & (G_BUMPINESS | G_DIVERSITY)) {
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

#if defined(__AVX512F__)
  // Lane 0 of 128-bit block B of x.
  template <int B>
  static Word block_lane(__m512i x) {
    return static_cast<Word>(_mm_cvtsi128_si32(_mm512_extracti32x4_epi32(x, B)));
  }
  // Every lane of 128-bit block i: the sum of the lanes of x_i (wrapping, as the sums' 32 bits).
  static __m512i lane_sums4(__m512i x0, __m512i x1, __m512i x2, __m512i x3) {
    // Blocks 0-1: x0's lower and upper 256 bits added, blocks 2-3 x1's (x2 and x3 alike).
    const __m512i s01 = _mm512_add_epi32(_mm512_shuffle_i64x2(x0, x1, 0x44), _mm512_shuffle_i64x2(x0, x1, 0xEE));
    const __m512i s23 = _mm512_add_epi32(_mm512_shuffle_i64x2(x2, x3, 0x44), _mm512_shuffle_i64x2(x2, x3, 0xEE));
    // Block i: x_i's four 128-bit blocks added.
    __m512i s = _mm512_add_epi32(_mm512_shuffle_i64x2(s01, s23, 0x88), _mm512_shuffle_i64x2(s01, s23, 0xDD));
    s = _mm512_add_epi32(s, _mm512_shuffle_epi32(s, _MM_PERM_BADC));
    return _mm512_add_epi32(s, _mm512_shuffle_epi32(s, _MM_PERM_CDAB));
  }
  // Every lane of blocks 0-1: the OR of the lanes of x0; of blocks 2-3: of x1.
  static __m512i lane_ors2(__m512i x0, __m512i x1) {
    __m512i o = _mm512_or_si512(_mm512_shuffle_i64x2(x0, x1, 0x44), _mm512_shuffle_i64x2(x0, x1, 0xEE));
    o = _mm512_or_si512(o, _mm512_shuffle_i64x2(o, o, 0xB1));
    o = _mm512_or_si512(o, _mm512_shuffle_epi32(o, _MM_PERM_BADC));
    return _mm512_or_si512(o, _mm512_shuffle_epi32(o, _MM_PERM_CDAB));
  }

  // column_pass's totals when the board fits one vector (lane l: column l - 1), with vector
  // reductions; with keep, bump_ and div_ as the scalar loop leaves them.
  void reduce_one_vector(U ct_holes, U depth_rt, U wells_fast, U hole_rows, U c, U h, bool keep, Totals& t) {
    const __mmask16 columns = static_cast<__mmask16>(((1u << W()) - 1) << 1);
    // Four lane sums in one tree and two ORs in another (shorter than a reduction each): the
    // wall height is the bit width of the OR of the column words.
    const __m512i s = lane_sums4(ct_holes, depth_rt, wells_fast, _mm512_maskz_mov_epi32(columns, h));
    unpack(block_lane<0>(s), block_lane<1>(s), block_lane<2>(s), t);
    t.agg = static_cast<std::int32_t>(block_lane<3>(s));
    const __m512i o = lane_ors2(hole_rows, _mm512_maskz_mov_epi32(columns, c));
    t.hole_rows = block_lane<0>(o);
    t.max = std::bit_width(block_lane<2>(o));
    if (!(groups() & (G_BUMPINESS | G_DIVERSITY))) return;
    // Lane l = 1 .. W - 1: the pair of columns l - 1, l.
    const __mmask16 pairs = static_cast<__mmask16>(((1u << W()) - 1) & ~1u);
    const __m512i d_pair = _mm512_sub_epi32(_mm512_alignr_epi32(_mm512_setzero_si512(), h, 1), h);
    const __m512i bump = _mm512_maskz_abs_epi32(pairs, d_pair);
    const __m512i bit = _mm512_maskz_sllv_epi32(
        pairs, _mm512_set1_epi32(1), _mm512_min_epu32(_mm512_add_epi32(d_pair, _mm512_set1_epi32(2)), _mm512_set1_epi32(5)));
    t.bump = _mm512_reduce_add_epi32(bump);
    t.pair_bits = static_cast<Word>(_mm512_reduce_or_epi32(bit));
    if (keep) {
      fill_lanes(bump_, 0);
      fill_lanes(div_, Word{0});
      _mm512_storeu_si512(bump_ + kPad, bump);
      _mm512_storeu_si512(div_ + kPad, bit);
    }
  }
#endif

#if defined(__AVX512F__)
  // left_and_ and right_and_ (load_base) from the padded board in one register: an exclusive
  // prefix AND and an inclusive suffix AND across the lanes, in four lane shifts each (the walls
  // are all ones, so they change nothing; the orientations read indices kPad .. kPad + 21).
  void and_scans(U padded) {
    const __m512i ones = _mm512_set1_epi32(-1);
    __m512i up = padded, down = padded;
    up = _mm512_and_si512(up, _mm512_alignr_epi32(up, ones, 15));  // lane p: AND of lanes 0 .. p
    up = _mm512_and_si512(up, _mm512_alignr_epi32(up, ones, 14));
    up = _mm512_and_si512(up, _mm512_alignr_epi32(up, ones, 12));
    up = _mm512_and_si512(up, _mm512_alignr_epi32(up, ones, 8));
    down = _mm512_and_si512(down, _mm512_alignr_epi32(ones, down, 1));  // lane p: AND of lanes p .. 15
    down = _mm512_and_si512(down, _mm512_alignr_epi32(ones, down, 2));
    down = _mm512_and_si512(down, _mm512_alignr_epi32(ones, down, 4));
    down = _mm512_and_si512(down, _mm512_alignr_epi32(ones, down, 8));
    const __m512i all = _mm512_permutexvar_epi32(_mm512_set1_epi32(15), up);  // every column
    _mm512_store_si512(left_and_, _mm512_alignr_epi32(up, ones, 15));      // lane p: lanes 0 .. p - 1
    for (int j = 16; j < kPadded; j += 16) {
      _mm512_store_si512(left_and_ + j, all);
      _mm512_store_si512(right_and_ + j, ones);
    }
    _mm512_store_si512(right_and_, down);
  }
#endif

  // Every element of a padded array set to v, in whole-vector stores (std::fill calls memset).
  template <class T>
  static void fill_lanes(T (&a)[kPadded], T v) {
    for (int j = 0; j < kPadded; j += N) xsimd::batch<T, A>(v).store_aligned(a + j);
  }

  // The base board's padded columns, heights and full-row masks, and unless DropMode::rare_only
  // its column pass (its totals and the per-column values the candidates start from).
  void load_base(const Board& b) {
    const int W = this->W();
    const bool features = !RareOnly && mode_ != DropMode::rare_only;
    fill_lanes(col_, ~Word{0});
    if (!features)
      for (int c = 0; c < W; ++c) h_[c + kPad] = column_height(b.cols[c]);
    if (one_register()) {  // the padded board in one register, and the column pass from it
#if defined(__AVX512F__)
      const U padded = padded_board(b);
      padded.store_aligned(col_);
      if (features) column_pass<true>(t_, col_, neighbours(padded).data());
      and_scans(padded);
#endif
#if defined(__AVX2__) && !defined(__AVX512F__)
    } else if (two_registers()) {
      load_base_in_two_registers(b, features);
#endif
    } else {
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

#if defined(__AVX2__) && !defined(__AVX512F__)
  // Lanes k .. k + 7 of the 16 lanes a, b (0 < k <= 4): a's upper half and b's lower half
  // joined, then a byte shift within each half.
  template <int K>
  static U lanes_after(U a, U b) {
    static_assert(K > 0 && K <= 4);
    return U(_mm256_alignr_epi8(_mm256_permute2x128_si256(a, b, 0x21), a, 4 * K));
  }

  // All ones in the lanes whose padded index first + l is a column of the board.
  U in_board(int first) const {
    const __m256i at = _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(first - kPad));
    return U(_mm256_andnot_si256(_mm256_cmpgt_epi32(_mm256_setzero_si256(), at),
                                 _mm256_cmpgt_epi32(_mm256_set1_epi32(W()), at)));
  }
  // column_pass's input from a padded board in two registers (padded indices 0-7 and 8-15):
  // per step, the lanes at padded indices j - 1.., j.. and j + 1.. (j = 1, 9; walls past 15).
  static std::array<U, 6> neighbours(U lo, U hi) {
    const U ones(~Word{0});
    return {lo, lanes_after<1>(lo, hi), lanes_after<2>(lo, hi), hi, lanes_after<1>(hi, ones), lanes_after<2>(hi, ones)};
  }

  // load_base with the padded board in two 8-lane registers (padded indices 0-7 and 8-15): its
  // column pass reads them and their shifts, and the full-row masks are a prefix and a suffix
  // AND across the 16 lanes in registers, not scalar chains through memory after scalar stores
  // (the vector loads of the column pass waited for those).
  void load_base_in_two_registers(const Board& b, bool features) {
    const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const U ones(~Word{0});
    const __m256i cols0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.cols.data()));      // columns 0-7
    const __m256i cols6 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.cols.data() + 6));  // 6-13
    const U lo_cols(_mm256_permutevar8x32_epi32(cols0, _mm256_sub_epi32(index, _mm256_set1_epi32(kPad))));
    const U lo = xsimd::select(in_board(0) != U(0u), lo_cols, ones);
    const U hi = xsimd::select(in_board(N) != U(0u), U(cols6), ones);
    lo.store_aligned(col_);
    hi.store_aligned(col_ + N);
    if (features) column_pass<true>(t_, col_, neighbours(lo, hi).data());
    // Prefix AND within each register (lane l: lanes 0 .. l), then across them.
    const auto before = [&](U x, int k) {  // lane l: x[l - k], ones below k
      const __m256i at = _mm256_sub_epi32(index, _mm256_set1_epi32(k));
      const U moved(_mm256_permutevar8x32_epi32(x, at));
      return xsimd::select(U(_mm256_cmpgt_epi32(_mm256_set1_epi32(k), index)) != U(0u), ones, moved);
    };
    const auto after = [&](U x, int k) {  // lane l: x[l + k], ones from 8 - k
      const __m256i at = _mm256_add_epi32(index, _mm256_set1_epi32(k));
      const U moved(_mm256_permutevar8x32_epi32(x, at));
      return xsimd::select(U(_mm256_cmpgt_epi32(at, _mm256_set1_epi32(N - 1))) != U(0u), ones, moved);
    };
    U up_lo = lo, up_hi = hi, down_lo = lo, down_hi = hi;
    for (int k = 1; k < N; k *= 2) {
      up_lo = up_lo & before(up_lo, k);
      up_hi = up_hi & before(up_hi, k);
      down_lo = down_lo & after(down_lo, k);
      down_hi = down_hi & after(down_hi, k);
    }
    const U all_lo(_mm256_permutevar8x32_epi32(up_lo, _mm256_set1_epi32(N - 1)));
    up_hi = up_hi & all_lo;                                                      // lanes 0 .. 8 + l
    down_lo = down_lo & U(_mm256_permutevar8x32_epi32(down_hi, _mm256_setzero_si256()));  // lanes l .. 15
    // left_and_[j]: lanes before j; right_and_[j]: lanes j on.
    const U left_hi = xsimd::select(U(_mm256_cmpeq_epi32(index, _mm256_setzero_si256())) != U(0u), all_lo,
                                    before(up_hi, 1));
    before(up_lo, 1).store_aligned(left_and_);
    left_hi.store_aligned(left_and_ + N);
    down_lo.store_aligned(right_and_);
    down_hi.store_aligned(right_and_ + N);
    const U all(_mm256_permutevar8x32_epi32(up_hi, _mm256_set1_epi32(N - 1)));
    for (int j = 2 * N; j < kPadded; j += N) {  // (col_ past index 15: load_base's fill)
      all.store_aligned(left_and_ + j);
      ones.store_aligned(right_and_ + j);
    }
  }
#endif

  // A candidate the vector pass cannot rate (it clears rows, or its top is above quiet_top):
  // the move as drop() (engine/core/placement.h) makes it, then its features from scratch; the
  // board after it is kept for the game loop.  `full`: the rows the move fills (the vector pass
  // found them); k: its candidate index.
  double rare_score(Placement pl, int k, Word full, PlyCarry carry) {
    Move m;
    Totals t;
    bool alive;
#if defined(__AVX512F__)
    if (one_register()) alive = rare_in_registers(pl, k, full, m, t);
    else
#endif
#if defined(__AVX2__) && !defined(__AVX512F__)
    if (two_registers()) alive = rare_in_two_registers(pl, k, full, m, t);
    else
#endif
      alive = rare_in_memory(pl, k, full, m, t);
    return alive ? rare_sum(m, t, carry) : -std::numeric_limits<double>::infinity();
  }

  // drop()'s lock of a rare candidate at row y, with the rows it fills: false if the move ends
  // the game at lock (`strict`, lock-out), else its lines and eroded cells.
  bool lock(const Orientation& o, int y, Word full, Move& m) const {
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
  Board& keep(int k, const Move& m, const Totals& t) {
    out_->lines[k] = static_cast<std::uint8_t>(m.lines);
    out_->eroded[k] = static_cast<std::uint8_t>(m.eroded);
    out_->holes_after[k] = static_cast<std::uint16_t>(t.holes);
    out_->height_after[k] = static_cast<std::uint8_t>(t.max);
    out_->kept |= std::uint64_t{1} << k;
    return out_->boards[k];
  }

  // Removes the rows of `full` from each lane's column word, as remove_rows
  // (engine/core/placement.h) does one word at a time: the walls lose their top bit.
  static U remove_rows_lanes(U v, Word full) {
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
  bool rare_in_memory(Placement pl, int k, Word full, Move& m, Totals& t) {
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

#if defined(__AVX512F__)
  // Lane l: padded index l of board b (column l - kPad; the walls all ones), from a load per
  // column: the game loop and the 2-ply search write the board a column at a time just before,
  // and a vector load across such stores waits until they reach the cache.
  U padded_board(const Board& b) const {
    static_assert(kPad == 2);
    const auto c = [&](int i) { return static_cast<int>(b.cols[i]); };  // (columns >= W: masked below)
    const __m512i cols = _mm512_setr_epi32(-1, -1, c(0), c(1), c(2), c(3), c(4), c(5), c(6), c(7), c(8), c(9),
                                           c(10), c(11), -1, -1);
    return U(_mm512_mask_mov_epi32(_mm512_set1_epi32(-1), static_cast<__mmask16>(((1u << W()) - 1) << kPad), cols));
  }

  // column_pass's input from a padded board in one register: lane l holds padded indices l,
  // l + 1 and l + 2 (the walls past the board all ones).
  static std::array<U, 3> neighbours(U padded) {
    const __m512i ones = _mm512_set1_epi32(-1);
    return {padded, U(_mm512_alignr_epi32(ones, padded, 1)), U(_mm512_alignr_epi32(ones, padded, 2))};
  }

  // rare_score's drop() and column pass with the padded board in one register (boards up to 12
  // wide): the same lock, line clears and game-over rule as drop(), without a copy of the board
  // in memory (a vector load across the words just stored waits for them to reach the cache).
  // False if the move ends the game.
  bool rare_in_registers(Placement pl, int k, Word full, Move& m, Totals& t) {
    const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
    const int y = pl.row;
    if (!lock(o, y, full, m)) return false;
    const int first = pl.column + kPad;  // padded index of the piece's first column
    const __m512i ones = _mm512_set1_epi32(-1);
    const __mmask16 board_lanes = static_cast<__mmask16>(((1u << W()) - 1) << kPad);
    __m512i padded = U::load_aligned(col_);  // (load_base's padded_board(board_))
    const __m512i shape = _mm512_maskz_loadu_epi32(static_cast<__mmask16>((1u << o.width) - 1), o.mask.data());
    const __m512i at = _mm512_sub_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                        _mm512_set1_epi32(first));
    const __mmask16 piece_lanes = static_cast<__mmask16>(((1u << o.width) - 1) << first);
    const __m512i piece = _mm512_sllv_epi32(_mm512_maskz_permutexvar_epi32(piece_lanes, at, shape), _mm512_set1_epi32(y));
    padded = _mm512_or_si512(padded, piece);
    if (full) {
      padded = remove_rows_lanes(U(padded), full);
      padded = _mm512_mask_mov_epi32(ones, board_lanes, padded);  // the walls lost their top bit
    }
    column_pass<false>(t, nullptr, neighbours(U(padded)).data());
    if (t.max > wall_limit(r_.overflow, r_.geometry)) return false;  // t.max: the wall height
    _mm512_storeu_si512(keep(k, m, t).cols.data(),
                        _mm512_maskz_mov_epi32(static_cast<__mmask16>((1u << W()) - 1), _mm512_alignr_epi32(ones, padded, kPad)));
    return true;
  }
#endif

#if defined(__AVX2__) && !defined(__AVX512F__)
  // rare_score's drop() and column pass with the padded board in two 8-lane registers (AVX2,
  // boards up to 12 wide), as rare_in_registers does in one: no copy of the board in memory
  // whose scalar stores the column pass's vector loads would wait for.  False if the move ends
  // the game.
  bool rare_in_two_registers(Placement pl, int k, Word full, Move& m, Totals& t) {
    const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
    const int y = pl.row;
    if (!lock(o, y, full, m)) return false;
    const int first = pl.column + kPad;  // padded index of the piece's first column
    const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    // The piece's words in lanes 0-3 (0 past its width), 0 in lanes 4-7.
    const __m256i shape = _mm256_zextsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(o.mask.data())));
    const auto with_piece = [&](U half, int at0) {  // lanes of padded indices at0 ..
      const __m256i at = _mm256_add_epi32(index, _mm256_set1_epi32(at0 - first));  // piece column of each lane
      const __m256i in = _mm256_cmpeq_epi32(_mm256_and_si256(at, _mm256_set1_epi32(~7)), _mm256_setzero_si256());
      const __m256i cells = _mm256_sllv_epi32(_mm256_permutevar8x32_epi32(shape, at), _mm256_set1_epi32(y));
      return half | U(_mm256_and_si256(in, cells));
    };
    U lo = with_piece(U::load_aligned(col_), 0), hi = with_piece(U::load_aligned(col_ + N), N);
    if (full) {  // the walls lose their top bit: all ones again outside the board
      const U ones(~Word{0});
      lo = xsimd::select(in_board(0) != U(0u), remove_rows_lanes(lo, full), ones);
      hi = xsimd::select(in_board(N) != U(0u), remove_rows_lanes(hi, full), ones);
    }
    column_pass<false>(t, nullptr, neighbours(lo, hi).data());
    if (t.max > wall_limit(r_.overflow, r_.geometry)) return false;  // t.max: the wall height
    // Columns 0-7 and 8-15 (padded indices 2-9 and 10-17), 0 past the board.
    Board& kept = keep(k, m, t);
    (lanes_after<2>(lo, hi) & in_board(kPad)).store_unaligned(kept.cols.data());
    (lanes_after<2>(hi, U(~Word{0})) & in_board(N + kPad)).store_unaligned(kept.cols.data() + N);
    return true;
  }
#endif

  // The rating of a rare candidate from its move and features.
  double rare_sum(const Move& m, const Totals& t, PlyCarry carry) const {
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

  // With pair rows for this piece (kPairs, paired(), DropMode::all): orientations 0 and 2 in one
  // row, 0's candidates rated; then orientation 1's row; then 2's candidates rated (finish_pair);
  // then 3's row: the running best sees the candidates in their order, as it must for the first
  // highest to win a tie.  Returns the piece's candidate count, or 0 (none rated) without them.
  int pair_rows([[maybe_unused]] const PieceShapes& shapes, [[maybe_unused]] int quiet,
                [[maybe_unused]] PlyCarry carry, [[maybe_unused]] DropScores& out) {
#if defined(__AVX512F__)  // (kPairs: 16 lanes)
    if constexpr (kPairs) {
      if (!paired<kPairWidth>(piece_) || mode_ != DropMode::all) return 0;
      constexpr int n = Width - kPairWidth + 1;  // 8
      orientation_ = 0;
      orientation<L, kPairWidth, true>(shapes.orientation[0], 0, quiet, carry, out);
      orientation_ = 1;
      const int k2 = row_of(shapes.orientation[1], n, quiet, carry, out);
      orientation_ = 2;
      finish_pair(k2, carry, out);
      orientation_ = 3;
      return row_of(shapes.orientation[3], k2 + n, quiet, carry, out);
    }
#endif
    return 0;
  }

  // One orientation's row of candidates (row()), from candidate k: returns the next row's first.
  int row_of(const Orientation& o, int k, int quiet, PlyCarry carry, DropScores& out) {
    switch (o.width) {
      case 1: return row<1>(o, k, quiet, carry, out);
      case 2: return row<2>(o, k, quiet, carry, out);
      case 3: return row<3>(o, k, quiet, carry, out);
      default: return row<4>(o, k, quiet, carry, out);
    }
  }

  // One orientation's row of candidates, in Narrow's lanes when they fit.
  template <int Wd>
  int row(const Orientation& o, int k, int quiet, PlyCarry carry, DropScores& out) {
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

  // Rows with tails (AVX2): on a board of known width whose Wd-wide orientation has one or two
  // candidates more than the 8 lanes (on 10 columns: the 9 candidates of a 2-wide orientation,
  // the 10 of a 1-wide one), the first 8 take a vector and the rest, the tail, are computed one
  // at a time by tail(), whose 4 lanes are the candidate's changed columns; their values join
  // the row's in vals_, so the row's sums, rare candidates and best are as before.  A second
  // 8-lane vector for one or two candidates cost about as much as the first.  With AVX-512 the
  // 16-lane row stays: there the tails measured slower (docs/performance.md "AVX2 rows with
  // tails").  For the family of BCTS's groups (kTailGroups), the features tail() computes.
  static constexpr std::uint32_t kTailGroups =
      G_ROW_TRANSITIONS | G_COL_TRANSITIONS | G_HOLES | G_WELLS | G_HOLE_DEPTH | G_ROWS_WITH_HOLES;
  template <int Wd>
  static constexpr bool kTails =
#if defined(__AVX2__)
      !RareOnly && Width > 0 && (Family & ~kTailGroups) == 0 && N == 8 && LN::N == 8 && Width - Wd + 1 > LN::N &&
      Width - Wd + 1 <= LN::N + 2;
#else
      false;
#endif

  // Pair rows: on a board of known width with AVX-512, orientations 0 and 2 of T, J and L have 8
  // candidates each (paired()), rated together in one 16-lane row of 512 bits rather than two
  // 8-lane rows of 256 bits (docs/performance.md "Pair rows").  Not for the families with the
  // pairs of neighbouring columns (bumpiness, diversity), whose lanes know their column.
  static constexpr int kPairWidth = Width - 7;  // (Width - Wd + 1 = 8 candidates)
  static constexpr bool kPairs = !RareOnly && N == 16 && LN::N == 8 && kPairWidth >= 1 && kPairWidth <= 4 &&
                                 (Family & (G_BUMPINESS | G_DIVERSITY)) == 0;

  // The piece's shape values in a row's lanes, for orientation(): orientation o's in every lane
  // (broadcast where they are used), or with Pair kPairShapes' (orientation 0 and 2 of piece p).
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
    // Orientation o's alone (tail()).
    int scalar_sides() const { return sides_; }

   private:
    const PieceColumn* c_;  // kOrientationColumns' (Wd of them)
    int sides_, height_;
    const PairShape<Wd>* pair_ = nullptr;
  };

  // A row's load of a base array at p: V's lanes, or with Pair 8 lanes in both halves (the two
  // orientations' candidates are at the same columns).
  template <class V, bool Pair, class T>
  static xsimd::batch<T, typename V::U::arch_type> row_load(const T* p) {
    using B = xsimd::batch<T, typename V::U::arch_type>;
#if defined(__AVX512F__)
    if constexpr (Pair) return B(_mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
#endif
    return B::load_unaligned(p);
  }

  // A row's store of its lanes' values, per candidate: lane l at a[k + x0 + l], or with Pair
  // lanes 0-7 at a[k ..] and lanes 8-15 at later[0 ..] (finish_pair moves them).
  template <bool Pair, class VI>
  static void store_row(std::int32_t* a, [[maybe_unused]] std::int32_t* later, int k, int x0, VI v) {
#if defined(__AVX512F__)
    if constexpr (Pair) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(a + k), _mm512_castsi512_si256(v));
      _mm256_store_si256(reinterpret_cast<__m256i*>(later), _mm512_extracti64x4_epi64(v, 1));
      return;
    }
#endif
    v.store_unaligned(a + k + x0);
  }

  // The candidates of one orientation, columns x = 0 .. W - Wd, as candidates k, k + 1, ...
  // With Pair (kPairs, DropMode::all): orientations 0 (o) and 2 of the piece, 8 candidates each,
  // in one 16-lane row: orientation 0's are candidates k .. k + 7 (lanes 0-7), rated here;
  // orientation 2's (lanes 8-15) wait in pair_ for finish_pair, after orientation 1's row.
  template <class V, int Wd, bool Pair = false>
  int orientation(const Orientation& o, int k, int quiet, PlyCarry carry, DropScores& out) {
    using U = typename V::U;
    using I = typename V::I;
    static_assert(!Pair || V::N == 16);

    const int n = Pair ? V::N : W() - Wd + 1;  // (Pair: both orientations' candidates)
    const std::uint32_t groups = this->groups();
    const U rows(rows_), zero(0u);
    const I izero(0);
    // Piece column i: its cells, bottom, top and count; and which cell sides face a non-piece
    // cell on the left / right (row transitions).  Per lane (RowShape): o's, or with Pair
    // orientation 0's and 2's.
    const RowShape<V, Wd, Pair> sh(o, piece_, orientation_);
    std::uint64_t rare = 0;  // bit x: the candidate at column x is rare
    const int n_vec = kTails<Wd> ? LN::N : n;  // the candidates in vectors; then the tail (V is LN there)
    for (int x0 = 0; x0 < n_vec; x0 += V::N) {
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
        U any(t_.hole_rows);
        for (int i = 0; i < Wd; ++i) {
          // The rows below the piece's run and at or above the base top.
          any = any | (V::from_row(V::as_uint(h[i])) & ~V::from_row(V::as_uint(y + sh.bottom(i))));
        }
        put(SLOT_ROWS_WITH_HOLES, V::as_int(V::popcnt(any)));
      }
      if (groups & G_ROW_TRANSITIONS) {
        U filled_sides = zero;
        if constexpr (V::kBytes && !V::kNativePopcnt) {
          // A side's neighbour cells brought down to the low nibble: (col >> y) & side has at
          // most 4 bits, all in byte 0 (the other bytes 0), so one table lookup is its count.
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
#if defined(__AVX2__)
    if constexpr (kTails<Wd>) {
      // The tail's values in registers, lane x - n_vec, then whole 4-lane stores (which the
      // sums' loads forward; they would not from one word each).
      const TailShape& tc = kTailShapes[piece_][orientation_];
      constexpr int kTail = Width - Wd + 1 - LN::N;
      __m128i tv[kTailSlots];
      std::int32_t v[kTailSlots];
      const bool rare0 = tail<Wd>(o, tc, sh.scalar_sides(), k, LN::N, quiet, v, out);
      rare |= std::uint64_t{rare0} << LN::N;
      for (int t = 0; t < kTailSlots; ++t) tv[t] = _mm_cvtsi32_si128(rare0 ? 0 : v[t]);
      if constexpr (kTail == 2) {
        const bool rare1 = tail<Wd>(o, tc, sh.scalar_sides(), k, LN::N + 1, quiet, v, out);
        rare |= std::uint64_t{rare1} << (LN::N + 1);
        for (int t = 0; t < kTailSlots; ++t) tv[t] = _mm_insert_epi32(tv[t], rare1 ? 0 : v[t], 1);
      }
      if (mode_ != DropMode::rare_only)  // (every slot, without a branch: a slot outside the
        for (int t = 0; t < kTailSlots; ++t)  // rating's groups is never read)
          _mm_store_si128(reinterpret_cast<__m128i*>(vals_[kTailSlot[t]] + n_vec), tv[t]);
    }
#endif
    if constexpr (Pair) {  // (never rare_only: run())
#if defined(__AVX512F__)
      score_pair(k, rare, carry, out);
#endif
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

#if defined(__AVX2__)
  // The slots tail() writes (kTailGroups' and the landing height), in this order.
  static constexpr int kTailSlots = 7;
  static constexpr int kTailSlot[kTailSlots] = {MOVE_LANDING_X2,   SLOT_HOLES,     SLOT_COL_TRANSITIONS,
                                                SLOT_HOLE_DEPTH,   SLOT_ROWS_WITH_HOLES, SLOT_ROW_TRANSITIONS,
                                                SLOT_WELLS};

  static __m128i lanes_sum(__m128i x) {  // every lane: the sum of the four
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4E));
    return _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xB1));
  }
  static __m128i loadu128(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }

  // The candidate at column x of a row with tails (kTails), as orientation() makes lane x of
  // the row, with the candidate's changed columns in the lanes (kTailShapes): its row, filled
  // rows and rare bit (returned); unless it is rare or the pass is rare_only, its values in
  // tv (kTailSlot's order) and its holes and wall height.
  template <int Wd>
  bool tail(const Orientation& o, const TailShape& tc, int sides, int k, int x,
            int quiet, std::int32_t (&tv)[kTailSlots], DropScores& out) {
    const int base = kPad + x;
    int y = 0, h[Wd];
    for (int i = 0; i < Wd; ++i) {
      h[i] = h_[base + i];
      y = std::max(y, h[i] - o.bottom[i]);
    }
    const auto lanes = [](const std::int32_t (&v)[4]) { return _mm_load_si128(reinterpret_cast<const __m128i*>(v)); };
    Word full = (y < 32 ? low_mask(o.height) << y : 0u) & left_and_[base] & right_and_[base + Wd];
    for (int i = 0; i < Wd; ++i) full &= col_[base + i] | (y < 32 ? o.mask[i] << y : 0u);
    out.row[k + x] = y;
    full_[x] = full;
    const bool rare = full != 0 || y + o.height > quiet;
    if (rare || mode_ == DropMode::rare_only) return rare;

    const __m128i yv = _mm_set1_epi32(y), zero = _mm_setzero_si128();
    const __m128i cl = loadu128(col_ + base - 2), cm = loadu128(col_ + base - 1), cr = loadu128(col_ + base);
    // The lanes' base heights, from scalar loads (a vector load across load_base's scalar stores
    // of the walls' heights would wait for them).
    const __m128i base_h = _mm_setr_epi32(h_[base - 1], h[0], h_[base + 1], h_[base + 2]);
    const __m128i run = _mm_add_epi32(yv, lanes(tc.bottom));  // the piece run's first row (64 + y outside the piece)
    const __m128i gap = _mm_and_si128(_mm_sub_epi32(run, base_h), lanes(tc.interior));
    const __m128i floats = _mm_cmpgt_epi32(gap, zero);
    const __m128i ct = _mm_and_si128(floats, _mm_set1_epi32(2));
    const __m128i depth = _mm_and_si128(_mm_or_si128(floats, _mm_cmpgt_epi32(loadu128(holes_ + base - 1), zero)), lanes(tc.cells));
    const __m128i ones = _mm_set1_epi32(-1);
    const __m128i from_run = _mm_sllv_epi32(ones, run);  // the rows from the run up (none outside the piece)
    const __m128i from_top = _mm_sllv_epi32(ones, base_h);
    __m128i any = _mm_and_si128(_mm_andnot_si128(from_run, from_top), lanes(tc.interior));
    any = _mm_or_si128(any, _mm_shuffle_epi32(any, 0x4E));
    any = _mm_or_si128(any, _mm_shuffle_epi32(any, 0xB1));
    using L4 = Lanes<xsimd::sse4_2>;  // 4 lanes, byte-table popcounts
    using U4 = typename L4::U;
    const __m128i filled = L4::total(L4::part(U4(_mm_and_si128(_mm_srlv_epi32(cl, yv), lanes(tc.side_left)))) +
                                     L4::part(U4(_mm_and_si128(_mm_srlv_epi32(cr, yv), lanes(tc.side_right)))));
    // Wells, as wells()'s byte-table path: a well cell above its column's top (the new top on
    // the piece lanes) weighs its height above it, one in the gap under the piece its height
    // above the base top, one in a run of holes (rarely) its base run plane's.
    const __m128i nl = _mm_or_si128(cl, _mm_sllv_epi32(lanes(tc.piece_left), yv));
    const __m128i nm = _mm_or_si128(cm, _mm_sllv_epi32(lanes(tc.piece), yv));
    const __m128i nr = _mm_or_si128(cr, _mm_sllv_epi32(lanes(tc.piece_right), yv));
    const __m128i cells = _mm_and_si128(_mm_andnot_si128(nm, _mm_and_si128(nl, nr)), _mm_set1_epi32(static_cast<int>(rows_)));
    const __m128i top = _mm_blendv_epi8(base_h, _mm_add_epi32(yv, lanes(tc.top)), lanes(tc.interior));
    typename L4::Weighted open;
    L4::add_weighted(open, U4(_mm_srlv_epi32(cells, top)));
    L4::add_weighted(open, U4(_mm_srlv_epi32(_mm_and_si128(_mm_andnot_si128(from_run, cells), lanes(tc.interior)), base_h)));
    const __m128i in_holes = _mm_andnot_si128(from_top, cells);
    static_assert(L::kBytes && !L::kNativePopcnt, "hole_start_ and multi_runs_ come from the byte-table column pass");
    __m128i by_planes = _mm_setzero_si128();
    if (!_mm_testz_si128(in_holes, in_holes)) {
      if (!multi_runs_) {
        L4::add_weighted(open, U4(_mm_srlv_epi32(in_holes, loadu128(hole_start_ + base - 1))));
      } else {
        U4 planes[kRunPlanes];
        for (int p = 0; p < kRunPlanes; ++p) planes[p] = U4(loadu128(planes_[p] + base - 1));
        by_planes = weigh<L4>(U4(in_holes), planes);
      }
    }
    __m128i wells = _mm_sub_epi32(_mm_add_epi32(L4::weighted_total(open), by_planes), loadu128(wells_ + base - 1));
    wells = _mm_and_si128(wells, lanes(tc.valid));
    // Two sums a lane (each below 2^15) in one reduction, wells (signed) in another.
    const __m128i a = lanes_sum(_mm_add_epi32(gap, _mm_slli_epi32(ct, 16)));
    const __m128i d = lanes_sum(_mm_add_epi32(depth, _mm_slli_epi32(filled, 16)));
    const int sa = _mm_cvtsi128_si32(a), sd = _mm_cvtsi128_si32(d);
    const int holes = t_.holes + (sa & 0xFFFF);
    tv[0] = 2 * y + o.height - 1;
    tv[1] = holes;
    tv[2] = t_.ct + (sa >> 16);
    tv[3] = t_.depth + (sd & 0xFFFF);
    tv[4] = popcount(t_.hole_rows | static_cast<Word>(_mm_cvtsi128_si32(any)));
    tv[5] = t_.rt + sides - 2 * (sd >> 16);
    tv[6] = t_.wells + _mm_cvtsi128_si32(lanes_sum(wells));
    holes_at_[k + x] = holes;
    height_at_[k + x] = std::max(t_.max, y + tc.top_most);
    return false;
  }
#endif

  // RareOnly: one orientation's candidates located (orientation()'s rows y, filled rows and rare
  // bits), the rare ones rated, the quiet ones -infinity.
  template <class V, int Wd>
  int rare_row(const Orientation& o, int k, int quiet, PlyCarry carry, DropScores& out) {
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

  // Wells and wells_fast of the candidates: the base sums, less the changed columns and their
  // two neighbours, plus those columns recomputed.  Wells weigh the new well cells with run
  // planes: a changed column keeps its base planes below the piece (the gap under it extends
  // the base's open run) and starts a new open run at its new top.  wells_fast walks.
  template <class V, int Wd, bool Pair, class Shape>
  void wells(int base, const typename V::U (&nc)[Wd], const typename V::I (&nh)[Wd], typename V::I y,
             const Shape& sh) {
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
      if constexpr (V::kNativePopcnt) {
        // One popcount per plane is cheap: the changed columns' planes are rebuilt (the base's
        // below the piece, a new open run from the new top).
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
      } else {
        // A well cell's run ends at the column's top below it: above the new top at that top,
        // in the gap under the piece at the base top h (the piece is above it), below h at the
        // first row of its run of holes (most vectors have no well cell there; column_pass).
        // Above a row t the run of row r is r - t + 1: the weighted popcount of the cells
        // shifted down by t (one reduction for every column), with no planes to build.
        static_assert(L::kBytes && !L::kNativePopcnt, "hole_start_ and multi_runs_ come from the byte-table column pass");
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
            V::add_weighted(open, V::shr(cells & ~from_run, h));  // (the shift drops the rows below h)
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
        sum = sum + V::weighted_total(open);
      }
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

  // Bumpiness and diversity: the pairs of neighbouring columns that include a changed column
  // (pair index j = columns j-1, j; the changed pairs are base .. base + Wd).
  template <class V, int Wd>
  void pairs(int base, int x0, const typename V::I (&nh)[Wd]) {
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
  void keep_values(int k0, int n, DropScores& out) const {
    for (int slot = 0; slot < DropScores::kValueSlots; ++slot) {
      if (!(groups() & (1u << slot))) continue;  // slot s < kValueSlots is group 1 << s
      for (int x = 0; x < n; x += N) I::load_aligned(vals_[slot] + x).store_unaligned(out.values[slot].data() + k0 + x);
    }
  }

  template <class VI>
  void put(int slot, VI v) {
    v.store_aligned(vals_[slot] + at_);
  }

  // The running best of the pass's scored candidates (the first highest rating), kept per
  // lane in registers as each orientation is rated: score() folds its sums in while they are
  // in registers (an argmax pass afterwards reloaded them across the stores that wrote them,
  // which cannot forward, and its search for the index mispredicted once a decision).  Lane l
  // keeps its highest rating and the first candidate that had it; best_index() takes the
  // lowest candidate among the lanes with the highest.
#if defined(__AVX512F__)
  using Best = __m512d;
#elif defined(__AVX__)
  using Best = __m256d;
#endif
#if defined(__AVX__)
  void best_clear() {
#if defined(__AVX512F__)
    best_score_ = _mm512_set1_pd(-std::numeric_limits<double>::infinity());
    best_index_ = _mm512_setzero_pd();
#else
    best_score_ = _mm256_set1_pd(-std::numeric_limits<double>::infinity());
    best_index_ = _mm256_setzero_pd();
#endif
  }

  static constexpr int kBestLanes = sizeof(Best) / sizeof(double);

  // One orientation's ratings, candidates k0 .. k0 + n - 1 in lanes 0 .. n - 1 of v[0], v[1],
  // ... (kBestLanes a vector): their best first, then the pass's.
  template <int G>
  void fold(Best (&v)[G], int k0, int n) {
    constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
    const int last = n - kBestLanes * (G - 1);  // lanes of v[G - 1] in the row: 1 .. kBestLanes
#if defined(__AVX512F__)
    const __m512d lane = _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512d first = _mm512_add_pd(_mm512_set1_pd(k0), lane);
    v[G - 1] = _mm512_mask_mov_pd(_mm512_set1_pd(kMinusInf), static_cast<__mmask8>((1u << last) - 1), v[G - 1]);
    __m512d top = v[0], at = first;
    for (int g = 1; g < G; ++g) {
      const __mmask8 above = _mm512_cmp_pd_mask(v[g], top, _CMP_GT_OQ);
      top = _mm512_mask_mov_pd(top, above, v[g]);
      at = _mm512_mask_mov_pd(at, above, _mm512_add_pd(first, _mm512_set1_pd(kBestLanes * g)));
    }
    const __mmask8 above = _mm512_cmp_pd_mask(top, best_score_, _CMP_GT_OQ);
    best_score_ = _mm512_mask_mov_pd(best_score_, above, top);
    best_index_ = _mm512_mask_mov_pd(best_index_, above, at);
#else
    const __m256d lane = _mm256_setr_pd(0, 1, 2, 3);
    const __m256d first = _mm256_add_pd(_mm256_set1_pd(k0), lane);
    v[G - 1] = _mm256_blendv_pd(_mm256_set1_pd(kMinusInf), v[G - 1],
                                _mm256_cmp_pd(lane, _mm256_set1_pd(last), _CMP_LT_OQ));
    __m256d top = v[0], at = first;
    for (int g = 1; g < G; ++g) {
      const __m256d above = _mm256_cmp_pd(v[g], top, _CMP_GT_OQ);
      top = _mm256_blendv_pd(top, v[g], above);
      at = _mm256_blendv_pd(at, _mm256_add_pd(first, _mm256_set1_pd(kBestLanes * g)), above);
    }
    const __m256d above = _mm256_cmp_pd(top, best_score_, _CMP_GT_OQ);
    best_score_ = _mm256_blendv_pd(best_score_, top, above);
    best_index_ = _mm256_blendv_pd(best_index_, at, above);
#endif
  }

#if defined(__AVX512F__)
  // A pair row's ratings (orientation<..., true>): lanes 0-7 of the vals_ rows are candidates k
  // .. k + 7 of orientation 0, summed as sum_terms does, their rare ones through rate_rare, then
  // folded into the running best; lanes 8-15 (orientation 2's) are summed too and wait in pair_.
  void score_pair(int k, std::uint64_t rare, PlyCarry carry, DropScores& out) {
    __m512d sum[2] = {_mm512_setzero_pd(), _mm512_setzero_pd()};
    if (r_.integral) {  // (as sum_terms)
      __m256i whole[2];
      integer_sums(whole);
      for (int g = 0; g < 2; ++g) sum[g] = _mm512_mul_pd(_mm512_cvtepi32_pd(whole[g]), _mm512_set1_pd(r_.unit));
    } else {
#pragma GCC unroll 2
      for (int t = 0; t < r_.term_count; ++t) {
        const double w = r_.terms[t].weight;
        const std::int32_t* v = vals_[r_.terms[t].slot];
        for (int g = 0; g < 2; ++g) {
          const __m512d x = _mm512_cvtepi32_pd(_mm256_load_si256(reinterpret_cast<const __m256i*>(v + 8 * g)));
          sum[g] = _mm512_add_pd(sum[g], _mm512_mul_pd(_mm512_set1_pd(w), x));
        }
      }
    }
    _mm512_store_pd(pair_.score, sum[1]);
    _mm256_store_si256(reinterpret_cast<__m256i*>(pair_.full), _mm256_load_si256(reinterpret_cast<const __m256i*>(full_ + 8)));
    pair_.rare = rare >> 8;
    double* s = out.score.data() + k;
    _mm512_storeu_pd(s, sum[0]);
    if (rare & 0xFFu) {  // their ratings replace the lanes' sums
      rate_rare(k, rare & 0xFFu, carry, out);
      sum[0] = _mm512_loadu_pd(s);
    }
    Best row[1] = {sum[0]};
    fold(row, k, 8);
  }

  // Orientation 2's candidates of a pair row (score_pair) as candidates k .. k + 7: their rows,
  // holes, wall heights and ratings put in place, the rare ones rated, all folded into the best.
  void finish_pair(int k, PlyCarry carry, DropScores& out) {
    const auto move = [](std::int32_t* to, const std::int32_t* from) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), _mm256_load_si256(reinterpret_cast<const __m256i*>(from)));
    };
    move(out.row.data() + k, pair_.row);
    move(holes_at_ + k, pair_.holes);
    move(height_at_ + k, pair_.height);
    double* s = out.score.data() + k;
    _mm512_storeu_pd(s, _mm512_load_pd(pair_.score));
    if (pair_.rare) {
      std::copy_n(pair_.full, 8, full_);
      rate_rare(k, pair_.rare, carry, out);
    }
    Best row[1] = {_mm512_loadu_pd(s)};
    fold(row, k, 8);
  }
#endif

  int best_index() const {
#if defined(__AVX512F__)
    const double top = _mm512_reduce_max_pd(best_score_);
    const __mmask8 at_top = _mm512_cmp_pd_mask(best_score_, _mm512_set1_pd(top), _CMP_EQ_OQ);
    return static_cast<int>(_mm512_mask_reduce_min_pd(at_top, best_index_));
#else
    __m256d top = _mm256_max_pd(best_score_, _mm256_permute2f128_pd(best_score_, best_score_, 1));
    top = _mm256_max_pd(top, _mm256_permute_pd(top, 0b0101));
    const __m256d at_top = _mm256_cmp_pd(best_score_, top, _CMP_EQ_OQ);
    __m256d low = _mm256_blendv_pd(_mm256_set1_pd(std::numeric_limits<double>::infinity()), best_index_, at_top);
    low = _mm256_min_pd(low, _mm256_permute2f128_pd(low, low, 1));
    low = _mm256_min_pd(low, _mm256_permute_pd(low, 0b0101));
    return static_cast<int>(_mm256_cvtsd_f64(low));
#endif
  }
#else
  void best_clear() {}
  int best_index() const { return argmax(out_->score.data(), out_->count); }
#endif

#if defined(__AVX__)
  // With integral weights (DropRating::integral): lanes 0 .. 8 G - 1 of the terms' vals_ rows,
  // each the sum over terms of integer weight x value in int32 (exact: below 2^30 on the rows'
  // candidates; lanes past them may wrap, and are never taken as ratings).  Times r_.unit,
  // each is the double sum_terms' loop gives.
  template <int G>
  void integer_sums(__m256i (&sum)[G]) const {
    for (int g = 0; g < G; ++g) sum[g] = _mm256_setzero_si256();
#pragma GCC unroll 2
    for (int t = 0; t < r_.term_count; ++t) {
      const __m256i m = _mm256_set1_epi32(r_.integer_weight[t]);
      const std::int32_t* v = vals_[r_.terms[t].slot];
      for (int g = 0; g < G; ++g)
        sum[g] = _mm256_add_epi32(sum[g], _mm256_mullo_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(v + 8 * g)), m));
    }
  }
#endif

  // score[k0 + l] = sum over terms of weight x value of lane l, in term order, for lanes 0 .. M -
  // 1 (M a multiple of 4): 8 lanes a vector with AVX-512, then 4 (written out: for M = 12 GCC's
  // vectorizer took 8 lanes in a vector and the last 4 one at a time).  A product and a sum per
  // term, no fused multiply-add, as the loop without intrinsics.  Then the rare candidates among
  // lanes 0 .. n - 1 through rare_score, and lanes 0 .. n - 1 folded into the running best.
  template <int M>
  void sum_terms(int k0, [[maybe_unused]] int n, std::uint64_t rare, PlyCarry carry, DropScores& out) {
    static_assert(M % 4 == 0);
    double* s = out.score.data() + k0;
#if defined(__AVX__)
#if defined(__AVX512F__)
    constexpr int M8 = M / 8;
#else
    constexpr int M8 = 0;
#endif
    constexpr int M4 = (M - 8 * M8) / 4;
#if defined(__AVX512F__)
    __m512d wide[M8 > 0 ? M8 : 1];
    for (int g = 0; g < M8; ++g) wide[g] = _mm512_setzero_pd();
#endif
    __m256d narrow[M4 > 0 ? M4 : 1];
    for (int g = 0; g < M4; ++g) narrow[g] = _mm256_setzero_pd();
    if (r_.integral) {  // int32 sums, then one exact product each (integral_weights)
      __m256i sum[(M + 7) / 8];
      integer_sums(sum);
#if defined(__AVX512F__)
      for (int g = 0; g < M8; ++g) wide[g] = _mm512_mul_pd(_mm512_cvtepi32_pd(sum[g]), _mm512_set1_pd(r_.unit));
#endif
      for (int g = 0; g < M4; ++g) {
        const int l = 8 * M8 + 4 * g;  // the group's first lane
        const __m128i x = l % 8 ? _mm256_extracti128_si256(sum[l / 8], 1) : _mm256_castsi256_si128(sum[l / 8]);
        narrow[g] = _mm256_mul_pd(_mm256_cvtepi32_pd(x), _mm256_set1_pd(r_.unit));
      }
    } else {
#pragma GCC unroll 2
      for (int t = 0; t < r_.term_count; ++t) {
        const double w = r_.terms[t].weight;
        const std::int32_t* v = vals_[r_.terms[t].slot];
#if defined(__AVX512F__)
        for (int g = 0; g < M8; ++g) {
          const __m512d x = _mm512_cvtepi32_pd(_mm256_load_si256(reinterpret_cast<const __m256i*>(v + 8 * g)));
          wide[g] = _mm512_add_pd(wide[g], _mm512_mul_pd(_mm512_set1_pd(w), x));
        }
#endif
        for (int g = 0; g < M4; ++g) {
          const __m256d x = _mm256_cvtepi32_pd(_mm_load_si128(reinterpret_cast<const __m128i*>(v + 8 * M8 + 4 * g)));
          narrow[g] = _mm256_add_pd(narrow[g], _mm256_mul_pd(_mm256_set1_pd(w), x));
        }
      }
    }
#if defined(__AVX512F__)
    for (int g = 0; g < M8; ++g) _mm512_storeu_pd(s + 8 * g, wide[g]);
#endif
    for (int g = 0; g < M4; ++g) _mm256_storeu_pd(s + 8 * M8 + 4 * g, narrow[g]);
    if (rare) {  // their ratings replace the lanes' sums
      rate_rare(k0, rare, carry, out);
#if defined(__AVX512F__)
      for (int g = 0; g < M8; ++g) wide[g] = _mm512_loadu_pd(s + 8 * g);
#endif
      for (int g = 0; g < M4; ++g) narrow[g] = _mm256_loadu_pd(s + 8 * M8 + 4 * g);
    }
#if defined(__AVX512F__)
    Best rows[M8 + M4];  // (at most one narrow group: widened, its lanes 4 .. 7 past the row)
    for (int g = 0; g < M8; ++g) rows[g] = wide[g];
    for (int g = 0; g < M4; ++g)
      rows[M8 + g] = _mm512_insertf64x4(_mm512_set1_pd(-std::numeric_limits<double>::infinity()), narrow[g], 0);
    fold(rows, k0, n);
#else
    fold(narrow, k0, n);
#endif
#else
    alignas(64) double acc[M];
    for (int l = 0; l < M; ++l) acc[l] = 0.0;
    for (int t = 0; t < r_.term_count; ++t) {
      const double w = r_.terms[t].weight;
      const std::int32_t* v = vals_[r_.terms[t].slot];
      for (int l = 0; l < M; ++l) acc[l] += w * v[l];
    }
    for (int l = 0; l < M; ++l) s[l] = acc[l];
    rate_rare(k0, rare, carry, out);
#endif
  }

  // The n candidates of one orientation from k0 rated at once (every vector's sums side by
  // side: each is a chain of dependent additions), in groups of 4 lanes (stored whole: the
  // arrays run kDropLanes past the last candidate); rare candidates through rare_score.  Forced
  // inline: with integral_weights' second path clang kept it out of line, a call per row.
  [[gnu::always_inline]] void score(int k0, int n, std::uint64_t rare, PlyCarry carry, DropScores& out) {
    switch ((n + 3) / 4) {
      case 1: sum_terms<4>(k0, n, rare, carry, out); break;
      case 2: sum_terms<8>(k0, n, rare, carry, out); break;
      case 3: sum_terms<12>(k0, n, rare, carry, out); break;
      default: static_assert(kMaxWidth <= 16); sum_terms<16>(k0, n, rare, carry, out); break;
    }
  }

  // The rare candidates of one orientation (bits of `rare`, from candidate k0) through rare_score.
  void rate_rare(int k0, std::uint64_t rare, PlyCarry carry, DropScores& out) {
    double* s = out.score.data() + k0;
    out.rare |= rare << k0;
    for (; rare; rare &= rare - 1) {
      const int x = std::countr_zero(rare);
      const Placement pl{static_cast<std::uint8_t>(piece_), static_cast<std::uint8_t>(orientation_),
                         static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(out.row[k0 + x])};
      s[x] = rare_score(pl, k0 + x, full_[x], carry);
    }
  }

  const DropRating& r_;
  const Board& board_;
  const int W_;  // (read through W())
  const DropMode mode_;
  Piece piece_ = Piece::I;
  int orientation_ = 0;
  DropScores* out_ = nullptr;
  // Per column x of the current orientation: the rows its candidate fills.
  alignas(64) Word full_[kMaxWidth + N];
  // Per quiet candidate: the holes and wall height of its board (measure_best).
  alignas(64) std::int32_t holes_at_[kMaxPlacements + kDropLanes], height_at_[kMaxPlacements + kDropLanes];
  int at_ = 0;  // the column of lane 0 of the vector being computed
  Word rows_;
  // A pair row's orientation 2 candidates between score_pair and finish_pair.
  struct PairWait {
    alignas(64) double score[8];
    alignas(32) std::int32_t row[8], holes[8], height[8];
    alignas(32) Word full[8];
    std::uint64_t rare = 0;
  } pair_;
  // Base board, by padded index.
  alignas(64) Word col_[kPadded];
  // Written by load_base at every index a scored lane reads; h_ everywhere (walls 0), so that
  // the lanes past a row never shift by 32 or more.
  alignas(64) std::int32_t h_[kPadded], holes_[kPadded];
  alignas(64) Word wells_[kPadded], fast_[kPadded];
  alignas(64) Word planes_[kRunPlanes][kPadded];  // (byte-table wells: only with multi_runs_)
  alignas(64) Word hole_start_[kPadded];           // (byte-table wells) lowest_run's start
  bool multi_runs_ = false;  // (byte-table wells) a column of the base has two runs of holes or more
  alignas(64) Word left_and_[kPadded], right_and_[kPadded];
  alignas(64) std::int32_t bump_[kPadded];
  alignas(64) Word div_[kPadded], div_pre_[kPadded], div_suf_[kPadded];
  Totals t_;
#if defined(__AVX__)
  Best best_score_, best_index_;  // the running best (best_clear)
#endif
  alignas(64) std::int32_t vals_[VALUE_SLOT_NB][kMaxWidth + N];  // per column x of the current orientation
};

template <class A, class Narrow, std::uint32_t Family, int Width>
void drop_pass(const DropRating& rating, const Board& board, Piece piece, PlyCarry carry, DropMode mode,
               DropScores& out) {
  DropPass<A, Narrow, false, Family, Width> pass(rating, board, mode);
  pass.run(piece, carry, out);
}

// DropMode::rare_only in its own instance (DropPass's RareOnly); include only from the
// drop_scorer_rare_<isa>.cpp files.
template <class A, class Narrow, std::uint32_t Family, int Width>
void drop_pass_rare(const DropRating& rating, const Board& board, Piece piece, PlyCarry carry, DropScores& out) {
  DropPass<A, Narrow, true, Family, Width> pass(rating, board, DropMode::rare_only);
  pass.run(piece, carry, out);
}

// Every pass of one instruction set: per width of kDropWidths, per family of kDropFamilies,
// make(w, f) for the indices w and f (std::integral_constant).
template <class Passes, class Make, std::size_t... WF>
constexpr Passes per_width_and_family(Make make, std::index_sequence<WF...>) {
  constexpr std::size_t kF = kDropFamilyCount;
  Passes passes{};
  ((passes[WF / kF][WF % kF] = make(std::integral_constant<std::size_t, WF / kF>{},
                                    std::integral_constant<std::size_t, WF % kF>{})),
   ...);
  return passes;
}
template <class A, class Narrow = A>
constexpr DropPasses drop_passes() {
  return per_width_and_family<DropPasses>(
      [](auto w, auto f) { return &drop_pass<A, Narrow, kDropFamilies[f], kDropWidths[w]>; },
      std::make_index_sequence<kDropWidthCount * kDropFamilyCount>{});
}
template <class A, class Narrow = A>
constexpr DropRarePasses drop_rare_passes() {
  return per_width_and_family<DropRarePasses>(
      [](auto w, auto f) { return &drop_pass_rare<A, Narrow, kDropFamilies[f], kDropWidths[w]>; },
      std::make_index_sequence<kDropWidthCount * kDropFamilyCount>{});
}

}  // namespace
}  // namespace tb
