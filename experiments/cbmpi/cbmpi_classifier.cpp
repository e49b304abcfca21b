#include "cbmpi_classifier.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <memory>

#include "evaluator.h"
#include "kernel_variants.h"
#include "materialize.h"
#include "parallel_play.h"

namespace tb::cbmpi {

namespace {

// The features of one run of states, as action_table lays them out.
struct TablePart {
  std::vector<std::int64_t> counts;  // actions per state
  std::vector<double> features;
  std::vector<char> terminal;
};

constexpr std::int64_t kStatesPerPart = 512;

}  // namespace

ActionTable action_table(const FeatureSet& set, const Rules& rules, std::span<const RolloutState> states,
                         FeatureKernel kernel, int threads) {
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
  const auto n = static_cast<std::int64_t>(states.size());
  std::vector<TablePart> parts(static_cast<std::size_t>((n + kStatesPerPart - 1) / kStatesPerPart));
  const int lanes = kernel_lanes(kernel);
  // Part p holds states [p x kStatesPerPart, ...): each part is written by one task alone.
  for_each_block(static_cast<std::int64_t>(parts.size()), 1, threads, [&](std::int64_t lo, std::int64_t hi) {
    auto block = std::make_unique<CandidateBlock>();  // ~50 KB: not on the stack
    for (std::int64_t p = lo; p < hi; ++p) {
      TablePart& part = parts[static_cast<std::size_t>(p)];
      for (std::int64_t i = p * kStatesPerPart; i < std::min(n, (p + 1) * kStatesPerPart); ++i) {
        const RolloutState& s = states[static_cast<std::size_t>(i)];
        materialize(*block, s.board, s.current, g, rules.overflow, {}, kernel);
        compute_features(*block, kernel, lanes, groups, g);
        for (int k = 0; k < block->count; ++k) {
          for (std::size_t r = 0; r < rows.size(); ++r) part.features.push_back(scale[r] * block->value(rows[r], k));
          part.terminal.push_back(block->terminal[k]);
        }
        part.counts.push_back(block->count);
      }
    }
  });
  ActionTable t;
  t.dim = static_cast<int>(rows.size());
  t.first.reserve(states.size() + 1);
  t.first.push_back(0);
  for (const TablePart& part : parts) {
    for (std::int64_t c : part.counts) t.first.push_back(t.first.back() + c);
    t.features.insert(t.features.end(), part.features.begin(), part.features.end());
    t.terminal.insert(t.terminal.end(), part.terminal.begin(), part.terminal.end());
  }
  t.q.assign(static_cast<std::size_t>(t.actions()), 0.0);
  return t;
}

void set_best_q(ActionTable& t) {
  t.best_q.resize(static_cast<std::size_t>(t.states()));
  for (std::int64_t s = 0; s < t.states(); ++s)
    t.best_q[s] = *std::max_element(t.q.begin() + t.first[s], t.q.begin() + t.first[s + 1]);
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
  assert(static_cast<std::int64_t>(t.best_q.size()) == n);
  for (std::int64_t s = 0; s < n; ++s) sum += t.best_q[s] - t.q[greedy_action(t, s, w)];
  return sum / static_cast<double>(n);
}

}  // namespace tb::cbmpi
