#include "evaluator.h"

#include <algorithm>
#include <limits>

namespace tb {

FeatureSource feature_source(Feature f) {
  switch (f) {
    case Feature::landing_height: return {MOVE_LANDING_X2, 0};
    case Feature::eroded_cells: return {MOVE_ERODED, 0};
    case Feature::lines: return {MOVE_LINES, 0};
    case Feature::row_transitions: return {SLOT_ROW_TRANSITIONS, G_ROW_TRANSITIONS};
    case Feature::col_transitions: return {SLOT_COL_TRANSITIONS, G_COL_TRANSITIONS};
    case Feature::holes: return {SLOT_HOLES, G_HOLES};
    case Feature::wells: return {SLOT_WELLS, G_WELLS};
    case Feature::wells_fast: return {SLOT_WELLS_FAST, G_WELLS_FAST};
    case Feature::hole_depth: return {SLOT_HOLE_DEPTH, G_HOLE_DEPTH};
    case Feature::rows_with_holes: return {SLOT_ROWS_WITH_HOLES, G_ROWS_WITH_HOLES};
    case Feature::diversity: return {SLOT_DIVERSITY, G_DIVERSITY};
    case Feature::max_height: return {SLOT_MAX_HEIGHT, G_MAX_HEIGHT};
    case Feature::agg_height: return {SLOT_AGG_HEIGHT, G_AGG_HEIGHT};
    case Feature::bumpiness: return {SLOT_BUMPINESS, G_BUMPINESS};
    case Feature::height: return {SLOT_HEIGHT, G_HEIGHTS};
    case Feature::diff: return {SLOT_DIFF, G_DIFFS};
    case Feature::col_holes: return {SLOT_COL_HOLES, G_COL_HOLES};
    case Feature::col_wells: return {SLOT_COL_WELLS, G_COL_WELLS};
    case Feature::row_fill: return {SLOT_ROW_FILL, G_ROW_FILL};
    case Feature::constant: return {MOVE_CONSTANT, 0};
    case Feature::FEATURE_NB: break;
  }
  return {MOVE_CONSTANT, 0};
}

Placement CandidateBlock::placed(int k) const {
  Placement pl = placements[k];
  if (pl.row == kDropRow)
    pl.row = static_cast<std::uint8_t>(
        (value(MOVE_LANDING_X2, k) - kShapes[pl.piece].orientation[pl.orientation].height + 1) / 2);
  return pl;
}

Board CandidateBlock::board(int k) const {
  Board b;
  for (int c = 0; c < width; ++c) b.cols[c] = cols[c * kBlockCapacity + k];
  return b;
}

namespace {

// The base board's heights and, for any span of columns, the AND of the columns outside it:
// a row is full after a drop iff it is full outside the piece's columns and inside them.
struct BaseBoard {
  const Board& board;
  int h[kMaxWidth];
  Word left_and[kMaxWidth + 1], right_and[kMaxWidth + 1];
};

// The rare part of a drop: rows cleared, or a piece reaching above quiet_top() (rules.h).
[[gnu::noinline]] void finish_rare(CandidateBlock& block, int k, const Orientation& o, int y,
                                   Word full, Geometry g, Overflow overflow, int& lines, int& eroded,
                                   bool& terminal) {
  terminal = ends_at_lock(overflow, g, y, y + o.height);  // RULES `strict`: no clears
  if (terminal) return;
  if (full) {
    lines = popcount(full);
    int piece_cells = 0;
    for (int i = 0; i < o.width; ++i) piece_cells += popcount((o.mask[i] << y) & full);
    eroded = lines * piece_cells;
    for (int c = 0; c < g.width; ++c) {
      Word& v = block.cols[c * kBlockCapacity + k];
      v = remove_rows(v, full);
    }
  }
  const int limit = wall_limit(overflow, g);
  if (y + o.height > limit) {  // `clear-first`, hidden rows: over if still above after the clears
    Word any = 0;
    for (int c = 0; c < g.width; ++c) any |= block.cols[c * kBlockCapacity + k];
    terminal = column_height(any) > limit;
  }
}

// Every column of one orientation of width Wd (unrolled), candidates k, k+1, ...
template <int Wd>
int drop_orientation(CandidateBlock& block, int k, const Orientation& o, const BaseBoard& base,
                     Geometry g, Overflow overflow, PlyCarry carry, int quiet) {
  const Word touched = low_mask(o.height);
  for (int x = 0; x + Wd <= g.width; ++x, ++k) {
    int y = 0;
    for (int i = 0; i < Wd; ++i) y = std::max(y, base.h[x + i] - o.bottom[i]);
    Word full = base.left_and[x] & base.right_and[x + Wd] & (touched << y);
    for (int i = 0; i < Wd; ++i) {
      const Word v = base.board.cols[x + i] | (o.mask[i] << y);
      block.cols[(x + i) * kBlockCapacity + k] = v;
      full &= v;
    }
    int lines = 0, eroded = 0;
    bool terminal = false;
    if (full | static_cast<Word>(y + o.height > quiet))
      finish_rare(block, k, o, y, full, g, overflow, lines, eroded, terminal);
    block.values[MOVE_LANDING_X2 * kBlockCapacity + k] = 2 * y + o.height - 1;
    block.values[MOVE_ERODED * kBlockCapacity + k] = eroded + carry.eroded;
    block.values[MOVE_LINES * kBlockCapacity + k] = lines + carry.lines;
    block.values[MOVE_CONSTANT * kBlockCapacity + k] = 1;
    block.terminal[k] = terminal;
  }
  return k;
}

// Multi-versioned like materialize(); the sum order is the same in every clone (no FMA:
// -ffp-contract=off), so every clone gives the same ratings.
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
void sum_terms(CandidateBlock& block, const LinearTerm* terms, int term_count) {
  const int n = block.count;
  for (int k = 0; k < n; ++k) block.score[k] = 0.0;
  for (int t = 0; t < term_count; ++t) {
    const std::int32_t* v = &block.values[terms[t].slot * kBlockCapacity];
    for (int k = 0; k < n; ++k) block.score[k] += terms[t].weight * v[k];
  }
  for (int k = 0; k < n; ++k)
    if (block.terminal[k]) block.score[k] = -std::numeric_limits<double>::infinity();
}

}  // namespace

// The hot loop outside the kernels: built for AVX-512, AVX2 and the baseline, picked by the
// loader at run time (GCC function multi-versioning).  Integer-only, so every clone gives the
// same blocks.
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
void materialize(CandidateBlock& block, const Board& board, Piece piece, Geometry g,
                 Overflow overflow, PlyCarry carry) {
  Placement* end = generate_drops(piece, g.width, block.placements.data());
  const int n = static_cast<int>(end - block.placements.data());
  block.count = n;
  block.lanes = (n + kLaneMultiple - 1) / kLaneMultiple * kLaneMultiple;
  const int W = g.width;
  block.width = W;

  BaseBoard base{board, {}, {}, {}};
  base.left_and[0] = base.right_and[W] = ~Word{0};
  for (int c = 0; c < W; ++c) {
    base.h[c] = column_height(board.cols[c]);
    base.left_and[c + 1] = base.left_and[c] & board.cols[c];
  }
  for (int c = W - 1; c >= 0; --c) base.right_and[c] = base.right_and[c + 1] & board.cols[c];
  for (int c = 0; c < W; ++c) std::fill_n(&block.cols[c * kBlockCapacity], block.lanes, board.cols[c]);

  // Same order as generate_drops: orientations, then columns left to right.
  const PieceShapes& shapes = kShapes[piece];
  const int quiet = quiet_top(overflow, g);
  int k = 0;
  for (int oi = 0; oi < shapes.count; ++oi) {
    const Orientation& o = shapes.orientation[oi];
    switch (o.width) {
      case 1: k = drop_orientation<1>(block, k, o, base, g, overflow, carry, quiet); break;
      case 2: k = drop_orientation<2>(block, k, o, base, g, overflow, carry, quiet); break;
      case 3: k = drop_orientation<3>(block, k, o, base, g, overflow, carry, quiet); break;
      default: k = drop_orientation<4>(block, k, o, base, g, overflow, carry, quiet); break;
    }
  }
  assert(k == n);
}

LinearEvaluator::LinearEvaluator(const Policy& policy, Geometry g, FeatureKernel kernel)
    : geometry_(g), kernel_(kernel), lanes_(kernel_lanes(kernel)) {
  check_dimension(policy, g);
  std::size_t w = 0;
  for (Feature f : policy.features->features) {
    const FeatureSource s = feature_source(f);
    groups_ |= s.group;
    for (int i = 0; i < feature_width(f, g.width); ++i, ++w) {
      const double scale = s.slot == MOVE_LANDING_X2 ? 0.5 : 1.0;
      terms_.push_back({s.slot + i, policy.weights[w] * scale});
    }
  }
  if (policy.reward_lines) terms_.push_back({MOVE_LINES, 1.0});
}

std::unique_ptr<Evaluator> make_evaluator(const Policy& policy, Geometry g, FeatureKernel kernel) {
  check_dimension(policy, g);
  if (policy.network) return std::make_unique<NTupleEvaluator>(policy);
  return std::make_unique<LinearEvaluator>(policy, g, kernel);
}

NTupleEvaluator::NTupleEvaluator(const Policy& policy)
    : network_(policy.network), reward_lines_(policy.reward_lines) {}

void NTupleEvaluator::score(CandidateBlock& block) const {
  for (int k = 0; k < block.count; ++k) {
    if (block.terminal[k]) {
      block.score[k] = -std::numeric_limits<double>::infinity();
      continue;
    }
    const double lines = reward_lines_ ? block.value(MOVE_LINES, k) : 0.0;
    block.score[k] = lines + network_->value(block.board(k));
  }
}

void LinearEvaluator::score(CandidateBlock& block) const {
  compute_features(block, kernel_, lanes_, groups_, geometry_);
  sum_terms(block, terms_.data(), static_cast<int>(terms_.size()));
}

}  // namespace tb
