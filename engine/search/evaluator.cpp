#include "evaluator.h"

#include <algorithm>
#include <limits>

#include "isa.h"

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

LinearEvaluator::LinearEvaluator(const Policy& policy, Geometry g, FeatureKernel kernel)
    : geometry_(g), kernel_(kernel), lanes_(kernel_lanes(kernel)), isa_(&search_kernels(kernel)) {
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
  if (policy.network) return std::make_unique<NTupleEvaluator>(policy, isa_record(kernel).ntuple);
  return std::make_unique<LinearEvaluator>(policy, g, kernel);
}

NTupleEvaluator::NTupleEvaluator(const Policy& policy, NTupleKernel kernel)
    : network_(policy.network), kernel_(kernel), reward_lines_(policy.reward_lines) {}

void NTupleEvaluator::score(CandidateBlock& block) const {
  // V of every candidate in one call of the network's block kernel (the same sums as value());
  // game-ending boards are skipped, since they may stand above the heights the tables know.
  network_->block_values(kernel_, block.cols.data(), kBlockCapacity, block.count, block.terminal.data(),
                         network_->weights().data(), block.score.data(), nullptr);
  for (int k = 0; k < block.count; ++k) {
    if (block.terminal[k]) {
      block.score[k] = -std::numeric_limits<double>::infinity();
      continue;
    }
    const double lines = reward_lines_ ? block.value(MOVE_LINES, k) : 0.0;
    block.score[k] = lines + block.score[k];
  }
}

void LinearEvaluator::score(CandidateBlock& block) const {
  compute_features(block, kernel_, lanes_, groups_, geometry_);
  isa_->sum_terms(block, terms_.data(), static_cast<int>(terms_.size()));
}

}  // namespace tb
