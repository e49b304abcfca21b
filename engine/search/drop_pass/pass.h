// The vector pass of the drop scorer (drop_scorer.h), once for any xsimd architecture: the class
// DropPass, its state and its top level (run).  Its jobs are defined in the headers beside it:
//   shapes.h      compile-time tables of the piece orientations' columns and the padded layout
//   simd_ops.h    the instruction-set primitives (lane folds, the running best, term sums)
//   columns.h     column words in lanes: whole-board sums (Totals), wells' run planes
//   base_pass.h   the base board: its column pass, full-row masks and per-column values
//   registers.h   the base board and rare candidates in one AVX-512 or two AVX2 registers
//   quiet_rows.h  a row of candidates that clear no rows: features from the changed columns
//   tails.h       AVX2 rows with one or two candidates past 8 lanes, one candidate at a time
//   pair_rows.h   AVX-512 rows of two orientations of T, J and L side by side
//   rare.h        candidates that clear rows or end high: drop() and a column pass each
//   reduce.h      ratings from the rows' values, the best candidate
// Include passes.h, only from a per-architecture translation unit (drop_scorer_<isa>.cpp),
// compiled with that instruction set's flags; everything here has internal linkage.
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
// Everything is exact integer work; the ratings are the same sums as TermSums, in term order.
//
// The members are declared here and defined, out of the class, in the job headers (templates
// of the class's parameters, written out: template <class A, class Narrow, bool RareOnly,
// std::uint32_t Family, int Width>).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <limits>
#include <type_traits>
#include <utility>

#include "columns.h"
#include "drop_scorer.h"
#include "features_simd.h"
#include "pieces.h"
#include "placement.h"
#include "shapes.h"
#include "simd_ops.h"

namespace tb {
namespace {

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

  // Whether the padded board can fit one AVX-512 register (boards up to 12 columns): then the
  // base board's column pass, its full-row masks and the rare candidates work in registers
  // (registers.h).  Whether it can fit two 8-lane registers (AVX2 without AVX-512, boards up to
  // 12 columns): then the base board's column pass, full-row masks and rare candidates work in
  // them.
  static constexpr bool kOneRegister = kAvx512 && N == 16;
  static constexpr bool kTwoRegisters = kAvx2 && !kAvx512 && N == 8;
  bool one_register() const {
    if constexpr (kOneRegister) return W() + 2 * kPad <= N;
    return false;
  }
  bool two_registers() const {
    if constexpr (kTwoRegisters) return W() + 2 * kPad <= 2 * N;
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
    best_.clear();
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

  // reduce.h: the first index of the highest of s[0 .. count).
  static int argmax(const double* s, int count);

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
  // Every element of a padded array set to v, in whole-vector stores (std::fill calls memset).
  template <class T>
  static void fill_lanes(T (&a)[kPadded], T v) {
    for (int j = 0; j < kPadded; j += N) xsimd::batch<T, A>(v).store_aligned(a + j);
  }
  template <class VI>
  void put(int slot, VI v) {
    v.store_aligned(vals_[slot] + at_);
  }

  // --- base_pass.h: the base board -------------------------------------------------------
  // The column pass's inputs, read once (column_step's stores might alias the members they come
  // from).
  struct ColumnInputs {
    int W;
    std::uint32_t groups;
    U rows;
  };
  // The column pass's running sums, per lane, all lanes 0.  Initialized as U(0u), never U{0u}:
  // braces pick xsimd::batch's std::initializer_list constructor, which reads `size` elements
  // from a list of one (lanes 1 .. N - 1 read stack past the list: undefined behaviour, which
  // clang's code happened to survive and GCC 12's AVX-512 pass did not).  The pass before the
  // split (drop_scorer_simd.h) used parentheses, U ct(0u), in locals.
  struct ColumnSums {
    U ct = U(0u), holes = U(0u), depth = U(0u), rt = U(0u), wells = U(0u), fast = U(0u), hole_rows = U(0u);
    U last_h = U(0u), last_c = U(0u);  // the heights and words of the last vector: the whole board's when it fits one
    U higher_holes = U(0u);            // (byte-table wells, Keep) the holes above each column's lowest run
    I agg_h = I(0), max_h = I(0);      // (below 16 lanes) the heights' sum and maximum
  };
  template <bool Keep>
  void column_pass(Totals& t, const Word* col, const U* lcr = nullptr);
  template <bool Keep>
  [[gnu::always_inline]] void column_step(ColumnSums& s, const ColumnInputs& in, int j, U l, U c, U r, std::int32_t* hs,
                                          const std::int32_t* lane_index);
  template <bool Keep>
  [[gnu::always_inline]] U column_wells(int j, U l, U c, U r, U h, U hole_cells, U rows, ColumnSums& s);
  template <bool Keep>
  [[gnu::always_inline]] void column_totals(ColumnSums& s, const ColumnInputs& in, const std::int32_t* hs, Totals& t);
  void load_base(const Board& b);
  [[gnu::always_inline]] void load_base_in_memory(const Board& b, bool features);

  // --- registers.h: the board in one AVX-512 or two AVX2 registers --------------------------
  void reduce_one_vector(U ct_holes, U depth_rt, U wells_fast, U hole_rows, U c, U h, bool keep, Totals& t);
  [[gnu::always_inline]] void load_base_in_one_register(const Board& b, bool features);
  void load_base_in_two_registers(const Board& b, bool features);
  bool rare_in_registers(Placement pl, int k, Word full, Move& m, Totals& t);
  bool rare_in_two_registers(Placement pl, int k, Word full, Move& m, Totals& t);

  // --- rare.h: candidates that clear rows or end high ----------------------------------------
  double rare_score(Placement pl, int k, Word full, PlyCarry carry);
  bool lock(const Orientation& o, int y, Word full, Move& m) const;
  Board& keep(int k, const Move& m, const Totals& t);
  static U remove_rows_lanes(U v, Word full);
  bool rare_in_memory(Placement pl, int k, Word full, Move& m, Totals& t);
  double rare_sum(const Move& m, const Totals& t, PlyCarry carry) const;
  template <class V, int Wd>
  int rare_row(const Orientation& o, int k, int quiet, PlyCarry carry, DropScores& out);
  void rate_rare(int k0, std::uint64_t rare, PlyCarry carry, DropScores& out);

  // --- quiet_rows.h: rows of candidates --------------------------------------------------
  int row_of(const Orientation& o, int k, int quiet, PlyCarry carry, DropScores& out);
  template <int Wd>
  int row(const Orientation& o, int k, int quiet, PlyCarry carry, DropScores& out);
  template <class V, int Wd, bool Pair = false>
  int orientation(const Orientation& o, int k, int quiet, PlyCarry carry, DropScores& out);
  template <class V, int Wd, bool Pair>
  [[gnu::always_inline]] void quiet_features(const RowShape<V, Wd, Pair>& sh, std::uint32_t groups, int base, int k,
                                             int x0, const typename V::I (&h)[Wd], typename V::I y,
                                             const typename V::U (&nc)[Wd]);
  template <class V, int Wd, bool Pair>
  [[gnu::always_inline]] void row_transitions(const RowShape<V, Wd, Pair>& sh, int base, typename V::I y);
  template <class V, int Wd, bool Pair>
  void wells(int base, const typename V::U (&nc)[Wd], const typename V::I (&nh)[Wd], typename V::I y,
             const RowShape<V, Wd, Pair>& sh);
  template <class V, int Wd, bool Pair>
  [[gnu::always_inline]] typename V::U wells_by_planes(int base, const typename V::U (&w)[Wd + 4], const typename V::I (&nh)[Wd],
                                typename V::I y, const RowShape<V, Wd, Pair>& sh);
  template <class V, int Wd, bool Pair>
  [[gnu::always_inline]] typename V::U wells_by_bytes(int base, const typename V::U (&w)[Wd + 4], const typename V::I (&nh)[Wd],
                               typename V::I y, const RowShape<V, Wd, Pair>& sh);
  template <class V, int Wd>
  void pairs(int base, int x0, const typename V::I (&nh)[Wd]);
  void keep_values(int k0, int n, DropScores& out) const;

  // Rows with tails (AVX2): on a board of known width whose Wd-wide orientation has one or two
  // candidates more than the 8 lanes (on 10 columns: the 9 candidates of a 2-wide orientation,
  // the 10 of a 1-wide one), the first 8 take a vector and the rest, the tail, are computed one
  // at a time by tail() (tails.h), whose 4 lanes are the candidate's changed columns; their
  // values join the row's in vals_, so the row's sums, rare candidates and best are as before.
  // A second 8-lane vector for one or two candidates cost about as much as the first.  With
  // AVX-512 the 16-lane row stays: there the tails measured slower (docs/performance.md "AVX2
  // rows with tails").  For the family of BCTS's groups (kTailGroups), the features tail()
  // computes.
  static constexpr std::uint32_t kTailGroups =
      G_ROW_TRANSITIONS | G_COL_TRANSITIONS | G_HOLES | G_WELLS | G_HOLE_DEPTH | G_ROWS_WITH_HOLES;
  template <int Wd>
  static constexpr bool kTails = kAvx2 && !RareOnly && Width > 0 && (Family & ~kTailGroups) == 0 && N == 8 &&
                                 LN::N == 8 && Width - Wd + 1 > LN::N && Width - Wd + 1 <= LN::N + 2;
  // The slots tail() writes (kTailGroups' and the landing height), in this order.
  static constexpr int kTailSlots = 7;
  static constexpr int kTailSlot[kTailSlots] = {MOVE_LANDING_X2,      SLOT_HOLES,           SLOT_COL_TRANSITIONS,
                                                SLOT_HOLE_DEPTH,      SLOT_ROWS_WITH_HOLES, SLOT_ROW_TRANSITIONS,
                                                SLOT_WELLS};

  // --- tails.h ---------------------------------------------------------------------------
  template <int Wd>
  [[gnu::always_inline]] std::uint64_t tail_row(const Orientation& o, int sides, int k, int quiet, DropScores& out);
  template <int Wd>
  bool tail(const Orientation& o, const TailShape& tc, int sides, int k, int x, int quiet,
            std::int32_t (&tv)[kTailSlots], DropScores& out);

  // Pair rows: on a board of known width with AVX-512, orientations 0 and 2 of T, J and L have 8
  // candidates each (paired()), rated together in one 16-lane row of 512 bits rather than two
  // 8-lane rows of 256 bits (docs/performance.md "Pair rows").  Not for the families with the
  // pairs of neighbouring columns (bumpiness, diversity), whose lanes know their column.
  static constexpr int kPairWidth = Width - 7;  // (Width - Wd + 1 = 8 candidates)
  static constexpr bool kPairs = !RareOnly && N == 16 && LN::N == 8 && kPairWidth >= 1 && kPairWidth <= 4 &&
                                 (Family & (G_BUMPINESS | G_DIVERSITY)) == 0;

  // --- pair_rows.h -----------------------------------------------------------------------
  int pair_rows(const PieceShapes& shapes, int quiet, PlyCarry carry, DropScores& out);
  void score_pair(int k, std::uint64_t rare, PlyCarry carry, DropScores& out);
  void finish_pair(int k, PlyCarry carry, DropScores& out);

  // --- reduce.h: ratings and the best ----------------------------------------------------
  template <int M>
  void sum_terms(int k0, int n, std::uint64_t rare, PlyCarry carry, DropScores& out);
  [[gnu::always_inline]] void score(int k0, int n, std::uint64_t rare, PlyCarry carry, DropScores& out);
  int best_index() const;

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
  BestLanes best_;  // the running best (simd_ops.h; without AVX none: best_index's argmax)
  alignas(64) std::int32_t vals_[VALUE_SLOT_NB][kMaxWidth + N];  // per column x of the current orientation
};

}  // namespace
}  // namespace tb
