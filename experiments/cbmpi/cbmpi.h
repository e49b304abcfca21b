// CBMPI, classification-based modified policy iteration (Gabillon, Ghavamzadeh & Scherrer,
// NIPS 2013; Scherrer, Ghavamzadeh, Gabillon, Lesner & Geist, JMLR 2015), learning a
// linear policy pi_k over the policy features and a linear value function v_k over the value
// features (cbmpi_config.h).  Both start at zero weights.  Iteration k:
//
// 1. Rollout set: N start states from games of pi_k (cbmpi_rollout_set.h: every
//    sample_every-th piece, height_pool x N of them subsampled to N with even board heights).
//    Game g of iteration k draws the pieces of stream (stream_key(seed ^ kSampleStream, k), g);
//    games are played in order until the states are taken, each capped so that it cannot give
//    more than the states still missing.
// 2. Q(s, a) for every state s and every drop placement a (rollout_actions order): M rollouts
//    that play a, then m pieces of pi_k; the return is the lines cleared plus v_k of the final
//    board, or plus 0 if the game ended.  Rollout j of every action of state s draws the
//    pieces of stream (stream_key(seed ^ kRolloutStream, k), s * M + j): the actions of a
//    state share their piece sequences (common random numbers), so the classifier compares
//    actions, not piece luck.  All of an iteration's rollouts go through play_rollouts, in
//    chunks of states, each result a pure function of (seed, k, s, a, j).
// 3. Value: v_{k+1} minimizes sum_s (v . psi(s) - Q(s, pi_k(s)))^2 + ridge N |v|^2 (Eigen,
//    LDLT), psi(s) the value features of s's board (cbmpi_value.h).  Q(s, pi_k(s)) is a rollout of pi_k of
//    m + 1 pieces bootstrapped by v_k: the papers' value target with one more step, taken from
//    the rollouts of step 2, so the regression costs no pieces.
// 4. Policy: pi_{k+1} = the best weights CMA-ES (cmaes.h) finds for the classification loss
//    (cbmpi_classifier.h) in cmaes_generations generations, a fresh CMA-ES per iteration
//    seeded by (seed ^ kClassifierStream, k) and started at pi_k's weights with cmaes_sigma0.
// 5. Selection, if select_games > 0 (ours, not the papers'): pi_{k+1} plays select_games games
//    capped at select_max_pieces on streams (stream_key(seed ^ kSelectStream, 0), g), the same
//    for every iteration; policy() returns the iterate with the highest mean so far (the
//    earliest of equals).  The iteration itself goes on from pi_{k+1} either way.
//
// Every piece simulated (the sampled games', the rollouts' and the selection games') is counted in pieces().  The
// state between iterations is the weights (and the selected iterate) and counters alone, so a
// checkpoint (to_json) holds just those and the config, and a restored learner continues bit for bit.  Results do not
// depend on the thread count.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "cbmpi_config.h"
#include "feature_kernels.h"
#include "policy.h"

namespace tb::cbmpi {

// Stream tags: the sampled games, the rollouts and CMA-ES draw from keys no other stream uses.
inline constexpr std::uint64_t kSampleStream = 0x434253414d50ull;      // "CBSAMP"
inline constexpr std::uint64_t kRolloutStream = 0x4342524f4c4cull;     // "CBROLL"
inline constexpr std::uint64_t kClassifierStream = 0x434243415345ull;  // "CBCASE"
inline constexpr std::uint64_t kSelectStream = 0x434253454c43ull;      // "CBSELC"

struct Iteration {
  std::int64_t iteration = 0;   // k, from 0
  std::int64_t pieces = 0;      // simulated in this iteration
  std::int64_t states = 0;      // N
  std::int64_t actions = 0;     // state-action pairs rolled out
  double loss_before = 0;       // the classification loss of pi_k on this rollout set
  double loss_after = 0;        // of pi_{k+1}
  double mean_value_target = 0; // mean of Q(s, pi_k(s)) over the rollout set
  double selection_lines = -1;  // pi_{k+1}'s mean lines in the selection games; -1 without selection
};

// The most pieces one iteration of `c` can simulate: N x height_pool x sample_every for the
// sampled games, N x (most placements of a piece) x M x (m + 1) for the rollouts, and
// select_games x select_max_pieces for the selection games.
std::int64_t iteration_bound(const CbmpiConfig& c);

class Cbmpi {
 public:
  // Throws PolicyError if a feature set does not fit the board.
  Cbmpi(const CbmpiConfig& config, FeatureKernel kernel);

  // One iteration (see above) on `threads` threads (0: every core).
  Iteration iterate(int threads);

  std::int64_t iteration_bound() const { return cbmpi::iteration_bound(config_); }

  // What the learner returns: pi_k, or with selection (cbmpi_config.h) the selected iterate.
  Policy policy() const;
  const std::vector<double>& policy_weights() const { return w_; }  // pi_k
  std::int64_t selected_iteration() const { return selected_k_; }     // 0: none selected yet
  const std::vector<double>& value_weights() const { return v_; }
  std::int64_t pieces() const { return pieces_; }
  std::int64_t iterations() const { return k_; }
  const CbmpiConfig& config() const { return config_; }

  // The checkpoint: version, config, iterations, pieces and both weight vectors (exact doubles).
  nlohmann::json to_json() const;
  // Throws InputError naming the field for a malformed checkpoint or one of another config;
  // the learner is unchanged then.
  void restore(const nlohmann::json& j);

 private:
  CbmpiConfig config_;
  FeatureKernel kernel_;
  const FeatureSet* policy_set_;
  std::vector<double> w_;  // (policy dimension) pi_k
  std::vector<double> v_;  // (value dimension) v_k
  std::int64_t k_ = 0, pieces_ = 0;
  // Selection: the best iterate so far (pi_{selected_k_}), its weights and mean lines.
  std::vector<double> selected_w_;
  double selected_lines_ = -1;
  std::int64_t selected_k_ = 0;

  Policy linear_policy(const std::vector<double>& w) const;
  double selection_mean(int threads, std::int64_t& pieces) const;  // pi_k's selection games
};

}  // namespace tb::cbmpi
