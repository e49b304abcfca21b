#include "tetris_fitness.h"

#include "parallel_play.h"
#include "rng.h"

namespace tb::opt {

Policy policy_from(const Vector& weights, const std::string& features, const std::string& name) {
  Policy p;
  p.name = name;
  p.features = find_feature_set(features);
  p.weights.assign(weights.data(), weights.data() + weights.size());
  return p;
}

GenerationFitness evaluate_generation(const Matrix& X, const std::string& features, const ExperimentConfig& c,
                                      std::uint64_t run_seed, std::int64_t generation,
                                      std::int64_t max_pieces, int threads, FeatureKernel kernel) {
  const auto lambda = static_cast<int>(X.cols());
  std::vector<Policy> policies;
  for (int k = 0; k < lambda; ++k) policies.push_back(policy_from(X.col(k), features, "candidate"));
  GameConfig config;
  config.rules = c.rules;
  config.seed = stream_key(run_seed, static_cast<std::uint64_t>(generation));
  config.max_pieces = max_pieces;
  const auto games = play_population(policies, config, c.fitness_games, threads, kernel, nullptr);

  GenerationFitness out;
  out.f.resize(lambda);
  out.statistic.assign(lambda, 0.0);
  for (int k = 0; k < lambda; ++k) {
    double sum = 0;
    for (int i = 0; i < c.fitness_games; ++i) {  // index order: the same sum on every run
      const GameResult& g = games[static_cast<std::size_t>(k) * c.fitness_games + i];
      out.pieces += g.pieces;
      out.capped_games += g.capped;
      if (c.statistic == Statistic::mean_lines) {
        sum += static_cast<double>(g.lines);
      } else {  // article 1: 100 x lines + pieces - 2 x final wall height
        sum += 100.0 * static_cast<double>(g.lines) + static_cast<double>(g.pieces) -
               2.0 * g.final_board.wall_height(c.rules.geometry.width);
      }
    }
    out.statistic[k] = sum / c.fitness_games;
    out.f[k] = -out.statistic[k];
  }
  out.games = static_cast<std::int64_t>(games.size());
  return out;
}

namespace {

// `games` games of one policy under the config's rules on `board`, on the streams keyed by
// (seed_key, 0): the held-out and the progress games, which differ only in these.
std::vector<GameResult> fixed_games(const Policy& policy, const ExperimentConfig& c, Geometry board,
                                    std::uint64_t seed_key, std::int64_t max_pieces, int games, int threads,
                                    FeatureKernel kernel) {
  GameConfig config;
  config.rules = c.rules;
  config.rules.geometry = board;
  config.seed = stream_key(seed_key, 0);
  config.max_pieces = max_pieces;
  return play_games(policy, config, games, threads, kernel, nullptr);
}

}  // namespace

std::vector<GameResult> heldout_games(const Policy& policy, const ExperimentConfig& c, Geometry board, int threads,
                                      FeatureKernel kernel) {
  return fixed_games(policy, c, board, c.seed ^ kHeldOutSeed, c.heldout_max_pieces, c.heldout_games, threads, kernel);
}

PlaySummary evaluate_heldout(const Policy& policy, const ExperimentConfig& c, Geometry board,
                             int threads, FeatureKernel kernel) {
  return summarize(heldout_games(policy, c, board, threads, kernel));
}

ProgressResult evaluate_progress(const Policy& policy, const ExperimentConfig& c, int threads, FeatureKernel kernel) {
  const auto games = fixed_games(policy, c, c.rules.geometry, c.seed ^ kProgressSeed, c.progress_max_pieces,
                                 c.progress_games, threads, kernel);
  ProgressResult r;
  double sum = 0;
  for (const GameResult& g : games) {  // index order: the same sum on every run
    sum += static_cast<double>(g.lines);
    r.pieces += g.pieces;
    r.capped_games += g.capped;
  }
  r.mean_lines = games.empty() ? 0.0 : sum / static_cast<double>(games.size());
  return r;
}

}  // namespace tb::opt
