// A linear TD learner on afterstates (groundwork; no CLI yet).
//
// Value.  An afterstate s' is the board after a placement and its line clears.  Its value is
// V(s') = w . phi(s'), where phi(s') are the values of a named feature set (RULES "Named
// feature sets": "td44", the default, or "bertsekas", whose `constant` feature is 1).  phi is
// read from the feature-kernel slots of a CandidateBlock, so the learner sees exactly the
// features the engine's evaluator sees.  Only sets made of board features (and `constant`)
// are accepted: move features (landing height, eroded cells, lines) describe a move, not an
// afterstate.
//
// Policy.  For the current piece every drop placement is materialized (one kernel call), and
// placement k is rated q_k = r_k + V(s'_k), with r_k = rows cleared by the move (the
// article's reward).  A game-ending placement is a *terminal afterstate*: its value is 0, so
// q_k = r_k.  The greedy move is the first k with the largest q_k (ties to the first
// placement in enumeration order).  With probability epsilon (a uniform draw from a seeded
// tb::opt::Random, taken only when epsilon > 0) the move is instead a uniformly random
// placement from the same Random.
//
// Update (Sutton & Barto 2018, section 6.8 "afterstates"; section 12.5 for the traces).
// Once the next afterstate s'_{t+1} with reward r_{t+1} has been chosen from s'_t:
//     delta = r_{t+1} + gamma * V(s'_{t+1}) - V(s'_t),   V(s'_{t+1}) = 0 if it is terminal
//     e     = gamma * lambda * e + phi(s'_t)              (accumulating traces)
//     w     = w + alpha * delta * e
// With lambda = 0 this is TD(0): e = phi(s'_t), w += alpha * delta * phi(s'_t).  Both V are
// evaluated with the weights before the update.  The first move of a game comes from the
// empty board, which is not an afterstate, so it makes no update; a terminal move makes the
// last update and ends the episode.  e is zeroed at the start of each episode.  An episode
// cut off by max_pieces_per_game (> 0) simply stops: its last afterstate is not bootstrapped.
//
// Initial weights: uniform in [-init_scale, init_scale) from Random stream 2 of the seed
// (article 2 starts from small random values; with all-zero weights and epsilon = 0 the
// greedy policy can make deltas that are all 0).  Exploration draws use stream 1; the pieces
// of game g come from tb::PieceStream::make(rules.generator, seed, g).  rules.lookahead must
// be 0 (one-piece controller).
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "evaluator.h"
#include "feature_set.h"
#include "random.h"
#include "rules.h"

namespace tb::td {

struct TdConfig {
  std::string features = "td44";  // "td44" or "bertsekas" (any set of board features works)
  Rules rules{};
  double alpha = 0.001;
  double gamma = 0.9;
  double lambda = 0.0;   // 0: TD(0); > 0: TD(lambda) with accumulating eligibility traces
  double epsilon = 0.0;  // epsilon-greedy exploration
  double init_scale = 0.005;  // initial weights uniform in [-init_scale, init_scale)
  std::uint64_t seed = 1;
  std::int64_t max_pieces_per_game = 0;  // 0: no limit
};

// One TD update (see the header comment); returns delta.  phi_next is null when the next
// afterstate is terminal.  w and e are updated in place; e must have the size of w.
double td_step(Eigen::VectorXd& w, Eigen::VectorXd& e, const Eigen::VectorXd& phi_t, double reward,
               const Eigen::VectorXd* phi_next, double alpha, double gamma, double lambda);

// Reads a feature set's values from the kernel slots of a CandidateBlock.
class AfterstateFeatures {
 public:
  // Throws std::invalid_argument for an unknown set or one with move features.
  AfterstateFeatures(const std::string& set_name, Geometry g, FeatureKernel kernel);
  int dimension() const { return static_cast<int>(rows_.size()); }
  // Runs the kernel once over the block's candidates (block.count, padded to the kernel).
  void compute(CandidateBlock& block) const;
  // phi of candidate k after compute().
  void read(const CandidateBlock& block, int k, double* out) const;
  // phi of one board, through the same block path (for tests and tools).
  Eigen::VectorXd of_board(const Board& board) const;

 private:
  std::vector<int> rows_;  // row of CandidateBlock::values per weight
  std::uint32_t groups_ = 0;
  Geometry geometry_;
  FeatureKernel kernel_;
  int lanes_;
};

class TdLearner {
 public:
  explicit TdLearner(const TdConfig& config, FeatureKernel kernel);

  // One self-play game with pieces from (seed, game_index), updating w online.
  void play_episode(std::uint64_t game_index);

  const Eigen::VectorXd& weights() const { return w_; }
  std::int64_t pieces() const { return pieces_; }        // placed over all episodes
  std::int64_t lines() const { return lines_; }          // cleared over all episodes
  std::int64_t episodes() const { return episodes_; }
  std::int64_t last_episode_lines() const { return last_lines_; }
  const AfterstateFeatures& features() const { return features_; }

  // Everything needed to continue bit-identically between episodes: weights (as exact
  // doubles), counters and the exploration Random.  Traces live within an episode only.
  nlohmann::json state() const;
  // Throws std::invalid_argument if the state does not fit this configuration.
  void restore(const nlohmann::json& j);

 private:
  TdConfig config_;
  AfterstateFeatures features_;
  Eigen::VectorXd w_, e_;
  opt::Random random_;
  std::unique_ptr<CandidateBlock> block_;
  std::int64_t pieces_ = 0, lines_ = 0, episodes_ = 0, last_lines_ = 0;
};

}  // namespace tb::td
