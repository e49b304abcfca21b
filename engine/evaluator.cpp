#include "evaluator.h"

#include <limits>

namespace tb {
namespace {

// Value row and kernel group of each scalar Feature; vector features add the column index.
struct Source {
  int slot;
  std::uint32_t group;
};

Source source_of(Feature f) {
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

}  // namespace

Board CandidateBlock::board(int k) const {
  Board b;
  for (int c = 0; c < kMaxWidth; ++c) b.cols[c] = cols[c * kBlockCapacity + k];
  return b;
}

void materialize(CandidateBlock& block, const Board& board, Piece piece, Geometry g,
                 Overflow overflow, PlyCarry carry) {
  Placement* end = generate_drops(piece, g.width, block.placements.data());
  block.count = static_cast<int>(end - block.placements.data());
  for (int k = 0; k < block.count; ++k) {
    Board b = board;
    const Move m = drop(b, block.placements[k], g, overflow);
    for (int c = 0; c < g.width; ++c) block.cols[c * kBlockCapacity + k] = b.cols[c];
    block.values[MOVE_LANDING_X2 * kBlockCapacity + k] = m.landing_height_x2();
    block.values[MOVE_ERODED * kBlockCapacity + k] = m.eroded + carry.eroded;
    block.values[MOVE_LINES * kBlockCapacity + k] = m.lines + carry.lines;
    block.values[MOVE_CONSTANT * kBlockCapacity + k] = 1;
    block.terminal[k] = m.game_over;
  }
}

LinearEvaluator::LinearEvaluator(const Policy& policy, Geometry g, FeatureKernel kernel)
    : geometry_(g), kernel_(kernel) {
  check_dimension(policy, g.width);
  std::size_t w = 0;
  for (Feature f : policy.features->features) {
    const Source s = source_of(f);
    groups_ |= s.group;
    for (int i = 0; i < feature_width(f, g.width); ++i, ++w) {
      const double scale = s.slot == MOVE_LANDING_X2 ? 0.5 : 1.0;
      terms_.push_back({s.slot + i, policy.weights[w] * scale});
    }
  }
}

void LinearEvaluator::score(CandidateBlock& block) const {
  const int n = block.count;
  if (groups_) {
    const BoardBlock view{block.cols.data(), kBlockCapacity, n, geometry_.width, geometry_.height};
    kernel_(view, groups_, block.values.data());
  }
  for (int k = 0; k < n; ++k) block.score[k] = 0.0;
  for (const Term& t : terms_) {
    const std::int32_t* v = &block.values[t.slot * kBlockCapacity];
    for (int k = 0; k < n; ++k) block.score[k] += t.weight * v[k];
  }
  for (int k = 0; k < n; ++k)
    if (block.terminal[k]) block.score[k] = -std::numeric_limits<double>::infinity();
}

}  // namespace tb
