// The fast rating of drop placements under a linear policy (docs/performance.md "Incremental
// features"): every drop placement of a piece on a board, rated without building its board.
//
// A drop placement changes at most 4 columns, and only above their tops.  So the base
// board's per-column values are computed once per (board, piece), and each candidate's
// features follow from the changed columns alone; lanes run across a piece orientation's
// columns x (16 per AVX-512 vector), never across cells.  A candidate that clears rows or
// reaches above quiet_top() (rules.h) is rare (0.7 a piece in greedy 10x20 play): it is played
// by drop()'s rules on a copy of the board (in one register on AVX-512 up to 12 columns) and
// its features are summed over the whole board; that board is kept for the game loop.  Rows
// of 8 or fewer candidates use 256-bit lanes inside the AVX-512 pass.  The block path
// (materialize, the feature kernel, sum_terms) is the oracle (tests/test_drop_scorer.cpp).
//
// Supported: the scalar features of kDropScorerGroups and the move features.  A policy with
// per-column vector features or row fill is rated by the block path.
#pragma once

#include <array>
#include <cstdint>
#include <iterator>
#include <memory>

#include "candidate_block.h"
#include "rules.h"
#include "search_kernels.h"

namespace tb {

inline constexpr std::uint32_t kDropScorerGroups = G_ROW_TRANSITIONS | G_COL_TRANSITIONS | G_HOLES | G_WELLS |
                                                   G_WELLS_FAST | G_HOLE_DEPTH | G_ROWS_WITH_HOLES |
                                                   G_DIVERSITY | G_MAX_HEIGHT | G_AGG_HEIGHT | G_BUMPINESS;

// The linear rating: score = sum over terms of weight x value, in term order (as sum_terms).
struct DropRating {
  const LinearTerm* terms = nullptr;
  int term_count = 0;
  std::uint32_t groups = 0;  // within kDropScorerGroups
  Geometry geometry;
  Overflow overflow = Overflow::strict;
  // Set by integral_weights: whether every weight is an integer times unit = 2^-s, and those
  // integers.  Then the AVX passes sum the terms in int32 (exact) and multiply by unit once.
  static constexpr int kMaxIntegralTerms = 24;
  bool integral = false;
  double unit = 1.0;
  std::array<std::int32_t, kMaxIntegralTerms> integer_weight{};
};

// Fills r.integral, r.unit and r.integer_weight: integral when, for the smallest s in 0 .. 16,
// every weight is an integer m times 2^-s and the |m| sum to at most 2^16.  Every value of a
// slot the drop scorer rates is below 2^14 in magnitude (boards up to 16 x 28: at most 16
// columns of 406 weighted well cells), so every partial sum of weight x value is an integer
// below 2^30 times 2^-s: the double sums of sum_terms are then exact, and an int32 sum times
// 2^-s is the same double, bit for bit (Dellacherie's weights: s = 1, for the landing
// height's halves).
void integral_weights(DropRating& r);

// The widest vector pass's lanes: the arrays below run this far past the last candidate, so
// that every vector of candidates is stored whole.
inline constexpr int kDropLanes = 16;

// Every drop placement of one piece, in generate_drops order (orientations, then columns).
struct DropScores {
  int count = 0;
  alignas(64) std::array<double, kMaxPlacements + kDropLanes> score;       // -infinity for a move that ends the game
  alignas(64) std::array<std::int32_t, kMaxPlacements + kDropLanes> row;  // the lowest cell's row at the lock
  // Bit k: candidate k clears rows or reaches above quiet_top (rated on its whole board after
  // the move); else its board is the base board plus the piece.
  std::uint64_t rare = 0;
  // Bit k: rare candidate k did not end the game, and boards[k], lines[k], eroded[k] hold its
  // board after the lock and the clears, its cleared rows and eroded cells.
  std::uint64_t kept = 0;
  int best = 0;  // the first candidate with the highest score
  // Holes and wall height of the board after candidate best; best_holes is -1 if it ends the
  // game.  (The game loop's report counters, without another look at the board.)
  int best_holes = -1, best_wall_height = 0;
  std::array<std::uint8_t, kMaxPlacements> lines, eroded;
  std::array<std::uint16_t, kMaxPlacements> holes_after;  // kept candidates: holes and wall height
  std::array<std::uint8_t, kMaxPlacements> height_after;
  std::array<Board, kMaxPlacements> boards;
  // DropMode::with_values: values[slot][k] is the value of slot (below kValueSlots, in the
  // rating's groups) on quiet candidate k's board after the move.
  static constexpr int kValueSlots = SLOT_BUMPINESS + 1;
  static_assert(G_ROW_TRANSITIONS == 1u << SLOT_ROW_TRANSITIONS && G_HOLES == 1u << SLOT_HOLES &&
                G_WELLS_FAST == 1u << SLOT_WELLS_FAST && G_BUMPINESS == 1u << SLOT_BUMPINESS);
  alignas(64) std::array<std::array<std::int32_t, kMaxPlacements + kDropLanes>, kValueSlots> values{};
};
static_assert(kMaxPlacements <= 64, "DropScores::rare has one bit per candidate");

// What a pass rates (DropScorer::rate, rate_rare).
enum class DropMode : std::uint8_t {
  all,          // every candidate
  with_values,  // every candidate, and the board values of the quiet ones (DropScores::values)
  rare_only,    // the rare candidates; the quiet ones score -infinity
};

// Rating families with vector passes of their own: a rating is rated by the pass of the first
// family whose groups include all of its own (drop_family).  Inside a family's pass the code
// of the groups outside it is compiled out, so that a decision's hot code is smaller
// (docs/performance.md "Group families and 10-wide passes"): BCTS's groups (Dellacherie's and
// El-Tetris's are among them), DT-20's, Lee's (and article 3's), and all of kDropScorerGroups.
inline constexpr std::uint32_t kDropFamilies[] = {
    G_ROW_TRANSITIONS | G_COL_TRANSITIONS | G_HOLES | G_WELLS | G_HOLE_DEPTH | G_ROWS_WITH_HOLES,
    G_ROW_TRANSITIONS | G_COL_TRANSITIONS | G_HOLES | G_WELLS_FAST | G_HOLE_DEPTH | G_ROWS_WITH_HOLES | G_DIVERSITY,
    G_HOLES | G_AGG_HEIGHT | G_BUMPINESS,
    kDropScorerGroups,
};
inline constexpr int kDropFamilyCount = static_cast<int>(std::size(kDropFamilies));
static_assert(kDropFamilies[kDropFamilyCount - 1] == kDropScorerGroups, "the last family takes any rating");

// The index of the first family that includes every group of `groups` (within kDropScorerGroups).
constexpr int drop_family(std::uint32_t groups) {
  int f = 0;
  while (groups & ~kDropFamilies[f]) ++f;
  return f;
}

// Board widths with vector passes of their own (the research and guideline boards' 10; 0: any
// width), the first that matches a rating's (drop_width): a known width folds the rows' counts
// and lane choices at compile time (docs/performance.md "Group families and 10-wide passes").
inline constexpr int kDropWidths[] = {10, 0};
inline constexpr int kDropWidthCount = static_cast<int>(std::size(kDropWidths));
static_assert(kDropWidths[kDropWidthCount - 1] == 0, "the last width takes any board");

// The index of the first width of kDropWidths that is `width` or any.
constexpr int drop_width(int width) {
  int w = 0;
  while (kDropWidths[w] != 0 && kDropWidths[w] != width) ++w;
  return w;
}

// One instruction-set variant of the scorer for one width and family: fills count, score and row
// (DropScorer::rate).  It also runs DropMode::rare_only, but DropScorer::rate_rare takes the
// leaner DropRareFn below.
using DropPassFn = void (*)(const DropRating& rating, const Board& board, Piece piece, PlyCarry carry,
                            DropMode mode, DropScores& out);
// The same pass's DropMode::rare_only, compiled apart (drop_scorer_rare_<isa>.cpp).
using DropRareFn = void (*)(const DropRating& rating, const Board& board, Piece piece, PlyCarry carry,
                            DropScores& out);
// Per instruction set, its passes: [drop_width][drop_family].
using DropPasses = std::array<std::array<DropPassFn, kDropFamilyCount>, kDropWidthCount>;
using DropRarePasses = std::array<std::array<DropRareFn, kDropFamilyCount>, kDropWidthCount>;
extern const DropPasses kDropPassesAvx512, kDropPassesAvx2, kDropPassesSse42;
extern const DropRarePasses kDropRarePassesAvx512, kDropRarePassesAvx2, kDropRarePassesSse42;

// The variant that goes with a feature kernel, and its scratch.
class DropScorer {
 public:
  // nullptr unless the rules use drop placements, the rating needs only supported groups and
  // `kernel` (nullptr: the best) has a vector pass (avx512, avx2, sse4.2).
  static std::unique_ptr<DropScorer> make(const LinearTerm* terms, int term_count, std::uint32_t groups,
                                          const Rules& rules, FeatureKernel kernel);
  // `pass` rates in DropMode::all and with_values, `rare` in rare_only (the same variant's).
  DropScorer(const DropRating& rating, DropPassFn pass, DropRareFn rare);

  // Rates every drop placement of `piece` on `board`; `carry` is added to the move's lines and
  // eroded cells (2-ply).  With `values`, DropScores::values holds each quiet candidate's board
  // values too.  The result stays valid until the next call.
  DropScores& rate(const Board& board, Piece piece, PlyCarry carry = {}, bool values = false);
  // rate() for the rare candidates only (the quiet ones score -infinity), without the base
  // board's features: what 2-ply still has to rate after quiet_bound rules the quiet ones out.
  DropScores& rate_rare(const Board& board, Piece piece, PlyCarry carry);
  const DropRating& rating() const { return rating_; }

  // The last rate() or rate_rare().
  const DropScores& scores() const { return scores_; }

  // Placement k of `piece` in generate_drops order, with the row rate() found.
  Placement placement(Piece piece, int k) const;

 private:
  DropRating rating_;
  DropPassFn pass_;
  DropRareFn rare_;
  DropScores scores_;
  // Per piece, its drop placements on the rating's width (generate_drops, once here): candidate
  // k's orientation and column without a walk over the orientations per call.
  std::array<std::array<Placement, kMaxPlacements>, PIECE_NB> drops_{};
};

}  // namespace tb
