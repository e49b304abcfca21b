// Plays the games of a run in parallel on oneTBB.  Game g is a pure function of
// (policy, config, g), and its result lands in slot g, so the output is identical for any
// thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "game.h"

namespace tb {

struct PlayProgress {
  std::atomic<std::int64_t> games_done{0};
  std::atomic<std::int64_t> pieces_done{0};  // of finished games
};

// The number of threads play_games uses for `threads` (0 = every core).
int thread_count(int threads);

// Plays a population: policies[p] plays streams first_stream .. first_stream +
// games_per_policy - 1 (the same streams for every policy: common random numbers).  Result i
// is game i of the batch: policy i / games_per_policy, stream first_stream + i %
// games_per_policy.  Blocks of games advance in lock step, one piece per game per round.
std::vector<GameResult> play_population(std::span<const Policy> policies, const GameConfig& config,
                                        std::int64_t games_per_policy, int threads,
                                        FeatureKernel kernel, PlayProgress* progress,
                                        std::uint64_t first_stream = 0);

// Plays games first_game .. first_game + games - 1; result i is game first_game + i.
// threads <= 0 uses every core.  `progress` may be null.
std::vector<GameResult> play_games(const Policy& policy, const GameConfig& config,
                                   std::int64_t games, int threads, FeatureKernel kernel,
                                   PlayProgress* progress, std::int64_t first_game = 0);

}  // namespace tb
