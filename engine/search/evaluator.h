// Evaluation of a block of candidate placements (docs/decisions.md): linear over a feature set,
// or an n-tuple network; make_evaluator() picks the one a policy needs.  The block is filled by
// materialize.h; evaluation only reads its boards and move features.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "candidate_block.h"
#include "kernel_variants.h"
#include "policy.h"
#include "search_kernels.h"

namespace tb {

// Where a feature's values live: its row of CandidateBlock::values (a vector feature's values
// follow from there, one per column) and the kernel group that fills it (0 for the move
// features and the constant, which materialize() fills).
struct FeatureSource {
  int slot;
  std::uint32_t group;
};
FeatureSource feature_source(Feature f);
inline bool is_move_feature(Feature f) {
  return f == Feature::landing_height || f == Feature::eroded_cells || f == Feature::lines;
}

// Runs the feature kernel over the block's candidates, padded to the kernel's lane count
// (`kernel_lanes`; block.lanes is a multiple of it), filling the slots of `groups`.
inline void compute_features(CandidateBlock& block, FeatureKernel kernel, int kernel_lanes, std::uint32_t groups,
                             Geometry g) {
  if (!groups) return;
  const int lanes = (block.count + kernel_lanes - 1) / kernel_lanes * kernel_lanes;  // <= block.lanes
  const BoardBlock view{block.cols.data(), kBlockCapacity, lanes, g.width, g.height};
  kernel(view, groups, block.values.data());
}

// Sets block.score for block.count candidates.  The policy evaluators below rate a terminal
// candidate -infinity (docs/rules.md); the TD learner rates it by its reward alone
// (experiments/td/value_model.h).  One virtual call per block, never per candidate.
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual void score(CandidateBlock& block) const = 0;
  // Told which candidate the searcher chose, with the scored block that holds it (the TD
  // learner keeps the chosen afterstate's features).  Once per decision.
  virtual void chosen(const CandidateBlock& /*block*/, int /*k*/) const {}
};

// Throws PolicyError if the policy does not fit the board.
std::unique_ptr<Evaluator> make_evaluator(const Policy& policy, Geometry g, FeatureKernel kernel);

// w . features, plus the move's lines when the policy has `reward lines`.
class LinearEvaluator final : public Evaluator {
 public:
  LinearEvaluator(const Policy& policy, Geometry g, FeatureKernel kernel);
  // Computes the features and sets block.score.
  void score(CandidateBlock& block) const override;
  // The rating, for the drop scorer (drop_scorer.h).
  const std::vector<LinearTerm>& terms() const { return terms_; }
  std::uint32_t groups() const { return groups_; }

 private:
  std::vector<LinearTerm> terms_;  // in the policy's weight order: the sum order is fixed
  std::uint32_t groups_ = 0;
  Geometry geometry_;
  FeatureKernel kernel_;
  int lanes_;  // the kernel's vector width: it sees the block padded to a multiple of it
  const SearchKernels* isa_;  // sum_terms of the kernel's instruction-set family
};

// The network's value of each candidate board, plus the move's lines with `reward lines`.
class NTupleEvaluator final : public Evaluator {
 public:
  // `kernel`: the level's (isa.h IsaRecord::ntuple).
  NTupleEvaluator(const Policy& policy, NTupleKernel kernel);
  void score(CandidateBlock& block) const override;

 private:
  std::shared_ptr<const NTupleNetwork> network_;
  NTupleKernel kernel_;
  bool reward_lines_;
};

}  // namespace tb
