// CBMPI's policy step as a cost-sensitive classification (Gabillon, Ghavamzadeh & Scherrer,
// NIPS 2013; Scherrer et al., JMLR 2015): over the rollout set, the loss of weights w is
//     L(w) = 1/N sum_s [ max_a Q(s, a) - Q(s, pi_w(s)) ],   pi_w(s) = argmax_a w . phi(s, a)
// where phi(s, a) are the policy's features of placement a on state s.  The features of every
// action are computed once per iteration (ActionTable), so a candidate w costs only dot
// products and an argmax.  pi_w follows the engine's move rule (docs/rules.md "Choosing a
// move"): a game-ending placement is chosen only when every placement ends the game, and ties
// go to the first placement.  The sums run in weight order in double, so on a near-tie the
// engine's kernel sum may round the other way; only such near-ties can differ.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "feature_set.h"
#include "feature_kernels.h"
#include "rollout_batch.h"

namespace tb::cbmpi {

struct ActionTable {
  int dim = 0;                       // policy weights
  std::vector<std::int64_t> first;   // (N + 1) state s's actions are [first[s], first[s + 1])
  std::vector<double> features;      // (actions, dim) phi(s, a), row-major
  std::vector<char> terminal;        // (actions) the placement ends the game
  std::vector<double> q;             // (actions) Q(s, a), filled by the caller
  std::vector<double> best_q;        // (N) max_a Q(s, a), set by set_best_q after q is filled

  std::int64_t states() const { return static_cast<std::int64_t>(first.size()) - 1; }
  std::int64_t actions() const { return first.back(); }
};

// The table of `states` with the features of `set` (any linear feature set) for every drop
// placement, in rollout_actions order; q is zero.  `rules` must have drop placements.
// Built on `threads` threads (0 = every core); the table does not depend on the count.
ActionTable action_table(const FeatureSet& set, const Rules& rules, std::span<const RolloutState> states,
                         FeatureKernel kernel, int threads = 1);

// pi_w(s): the index of the chosen action in the table (from first[s]).
std::int64_t greedy_action(const ActionTable& t, std::int64_t s, const double* w);

// Fills best_q from q; classification_loss needs it.
void set_best_q(ActionTable& t);

// L(w) above; 0 for an empty table.
double classification_loss(const ActionTable& t, const double* w);

}  // namespace tb::cbmpi
