#include "cbmpi_classifier.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <memory>

#include "evaluator.h"
#include "kernel_variants.h"
#include "materialize.h"

namespace tb::cbmpi {

ActionTable action_table(const FeatureSet& set, const Rules& rules, std::span<const RolloutState> states,
                         FeatureKernel kernel) {
  const Geometry g = rules.geometry;
  // The block rows of the set's weights, as LinearEvaluator reads them; the landing height's
  // row holds twice the value.
  std::vector<int> rows;
  std::vector<double> scale;
  std::uint32_t groups = 0;
  for (Feature f : set.features) {
    const FeatureSource s = feature_source(f);
    groups |= s.group;
    for (int i = 0; i < feature_width(f, g.width); ++i) {
      rows.push_back(s.slot + i);
      scale.push_back(s.slot == MOVE_LANDING_X2 ? 0.5 : 1.0);
    }
  }
  ActionTable t;
  t.dim = static_cast<int>(rows.size());
  t.first.reserve(states.size() + 1);
  t.first.push_back(0);
  auto block = std::make_unique<CandidateBlock>();  // ~50 KB: not on the stack
  const int lanes = kernel_lanes(kernel);
  for (const RolloutState& s : states) {
    materialize(*block, s.board, s.current, g, rules.overflow, {}, kernel);
    compute_features(*block, kernel, lanes, groups, g);
    for (int k = 0; k < block->count; ++k) {
      for (std::size_t i = 0; i < rows.size(); ++i) t.features.push_back(scale[i] * block->value(rows[i], k));
      t.terminal.push_back(block->terminal[k]);
    }
    t.first.push_back(t.first.back() + block->count);
  }
  t.q.assign(static_cast<std::size_t>(t.actions()), 0.0);
  return t;
}

std::int64_t greedy_action(const ActionTable& t, std::int64_t s, const double* w) {
  const std::int64_t begin = t.first[s], end = t.first[s + 1];
  assert(begin < end);  // a drop placement model gives every piece placements
  std::int64_t best = begin;
  double best_rating = -std::numeric_limits<double>::infinity();
  bool found = false;
  for (std::int64_t a = begin; a < end; ++a) {
    if (t.terminal[a]) continue;
    const double* phi = &t.features[static_cast<std::size_t>(a) * t.dim];
    double r = 0;
    for (int i = 0; i < t.dim; ++i) r += w[i] * phi[i];
    if (!found || r > best_rating) {
      best = a;
      best_rating = r;
      found = true;
    }
  }
  return best;
}

double classification_loss(const ActionTable& t, const double* w) {
  const std::int64_t n = t.states();
  if (n <= 0) return 0.0;
  double sum = 0;
  for (std::int64_t s = 0; s < n; ++s) {
    const auto q = t.q.begin();
    const double best = *std::max_element(q + t.first[s], q + t.first[s + 1]);
    sum += best - t.q[greedy_action(t, s, w)];
  }
  return sum / static_cast<double>(n);
}

}  // namespace tb::cbmpi
