// Tetris as an objective: a weight vector is a policy, its fitness a statistic of its games.
//
// Generation t of a run with seed S: every candidate plays the same G piece streams, keyed by
// (stream_key(S, t), stream 0..G-1): common random numbers.  Held-out games use streams keyed
// by kHeldOutSeed mixed with the experiment seed, which training never uses, and are the same
// for every optimizer and run.
#pragma once

#include <cstdint>
#include <vector>

#include "experiment_config.h"
#include "feature_kernels.h"
#include "optimizer.h"
#include "policy.h"
#include "summary.h"

namespace tb::opt {

inline constexpr std::uint64_t kHeldOutSeed = 0x48454c444f5554ull;  // "HELDOUT"
inline constexpr std::uint64_t kProgressSeed = 0x50524f4752455353ull;  // "PROGRESS"

struct GenerationFitness {
  Vector f;                        // (lambda) objective to minimize: minus the statistic
  std::vector<double> statistic;   // (lambda) mean lines, or the article 1 score
  std::int64_t pieces = 0;         // simulated in this generation
  std::int64_t games = 0;
  std::int64_t capped_games = 0;
};

Policy policy_from(const Vector& weights, const std::string& features, const std::string& name);

// Plays lambda x G games of the candidates (weights of `features`); `max_pieces` caps each
// game (0 = none).
GenerationFitness evaluate_generation(const Matrix& X, const std::string& features, const ExperimentConfig& c,
                                      std::uint64_t run_seed, std::int64_t generation,
                                      std::int64_t max_pieces, int threads, FeatureKernel kernel);

// The held-out games of one policy on one board, in game order, and their summary.
std::vector<GameResult> heldout_games(const Policy& policy, const ExperimentConfig& c, Geometry board, int threads,
                                      FeatureKernel kernel);
PlaySummary evaluate_heldout(const Policy& policy, const ExperimentConfig& c, Geometry board,
                             int threads, FeatureKernel kernel);

// One progress evaluation (experiment_config.h): the policy's c.progress_games games on the
// training board, capped at c.progress_max_pieces, on streams keyed by kProgressSeed mixed with
// the experiment seed: the same games at every point of every run of every entry.
struct ProgressResult {
  double mean_lines = 0;
  std::int64_t pieces = 0, capped_games = 0;
};
ProgressResult evaluate_progress(const Policy& policy, const ExperimentConfig& c, int threads, FeatureKernel kernel);

}  // namespace tb::opt
