// Plays the games of a run in parallel on oneTBB (on one thread, without it).  Game g is a pure
// function of (policy, config, g), and its result lands in slot g, so the output is identical
// for any thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "game.h"
#include "rollout_batch.h"

namespace tb {

struct PlayProgress {
  std::atomic<std::int64_t> games_done{0};
  std::atomic<std::int64_t> pieces_done{0};  // pieces played (each block adds its count every 4,096 or so)
};

// The number of threads play_games uses for `threads` (0 = every core).
int thread_count(int threads);

// Calls block(from, to) on blocks of `grain` indices covering [0, n), on `threads` threads
// (0 = every core; 1 runs them in order on this thread).  For work whose item i writes only slot
// i, so that the result does not depend on the thread count.
void for_each_block(std::int64_t n, std::int64_t grain, int threads,
                    const std::function<void(std::int64_t, std::int64_t)>& block);

// Spreads a population's games over processes (engine/cluster: MPI ranks).  distribute()
// returns the results of games [0, total) in game order; it plays a range [begin, end) of them
// in this process by calling play_range(begin, end), which returns that range's results in
// order.  Which process plays a game never changes its result (a game is a pure function of
// its index), so the output is the same as one process playing them all.
class GameDistributor {
 public:
  virtual ~GameDistributor() = default;
  // The policies, config, games_per_policy and first_stream of the population, for the other
  // processes to rebuild the same games; `kernel` and `threads` are how this process plays.
  virtual std::vector<GameResult> distribute(
      std::span<const Policy> policies, const GameConfig& config, std::int64_t games_per_policy,
      std::uint64_t first_stream, int threads, FeatureKernel kernel,
      const std::function<std::vector<GameResult>(std::int64_t, std::int64_t)>& play_range) = 0;
};

// Installs the process-wide distributor that play_population hands every population to (null:
// play here, the default).  Set once at start-up, before any game, by the command line.
void set_game_distributor(GameDistributor* d);

// Plays games [begin, end) of a population here, on `threads` threads; result i is game
// begin + i (the numbering of play_population).
std::vector<GameResult> play_population_range(std::span<const Policy> policies, const GameConfig& config,
                                              std::int64_t games_per_policy, std::int64_t begin, std::int64_t end,
                                              int threads, FeatureKernel kernel, PlayProgress* progress,
                                              std::uint64_t first_stream);

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

// Plays rollouts (rollout_batch.h) on `threads` threads (0 = every core), in lock-step blocks of
// `block` rollouts (0: a size for the thread count); result i is rollouts[i]'s, the same for
// any thread count and block size.  Throws InputError from check_rollouts, PolicyError if the
// policy does not fit the board.
std::vector<RolloutResult> play_rollouts(const Policy& policy, const RolloutConfig& config,
                                         std::span<const RolloutState> states, std::span<const Rollout> rollouts,
                                         int threads, FeatureKernel kernel, std::int64_t block = 0);

}  // namespace tb
