#include "parallel_play.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <memory>
#include <string>

#include "game_batch.h"

namespace tb {
namespace {

// Games per lock-step block: at most 4, because game lengths vary by orders of magnitude and
// a block lasts as long as its longest game; fewer when there are few games per thread, so
// every thread gets work.  Blocking never changes a result.
std::int64_t block_games(std::int64_t games, int threads) {
  return std::clamp<std::int64_t>(games / (4 * static_cast<std::int64_t>(threads)), 1, 4);
}

// Plays games [begin, end) of the population in lock step to the end, in a batch of the
// task's own, and writes their results to their slots (game g to results[g - first]).  Searchers are made on first use.
void run_block(std::int64_t begin, std::int64_t end, std::int64_t first, std::int64_t games_per_policy,
               std::uint64_t first_stream, std::span<const Policy> policies,
               const GameConfig& config, FeatureKernel kernel, PlayProgress* progress,
               std::vector<GameResult>& results) {
  GameBatch batch(begin, end, games_per_policy, first_stream, config);
  std::vector<std::unique_ptr<Searcher>> searchers(policies.size());
  std::int64_t stepped = 0;  // pieces not yet added to progress (one atomic add per 4,096)
  for (std::int64_t live = batch.size(); live > 0;) {
    live = 0;
    for (std::int64_t g = 0; g < batch.size(); ++g) {
      if (!batch.alive(g)) continue;
      auto& s = searchers[batch.policy_of(g)];
      if (!s) s = std::make_unique<Searcher>(policies[batch.policy_of(g)], config.rules, kernel);
      const std::int64_t before = batch.pieces[g];
      step_game(batch, g, *s);
      stepped += batch.pieces[g] - before;
      if (batch.alive(g)) ++live;
      else if (progress) progress->games_done.fetch_add(1, std::memory_order_relaxed);
    }
    if (progress && (stepped >= 4096 || live == 0)) {
      progress->pieces_done.fetch_add(stepped, std::memory_order_relaxed);
      stepped = 0;
    }
  }
  for (std::int64_t g = 0; g < batch.size(); ++g) results[begin - first + g] = batch.result(g);
}

}  // namespace

int thread_count(int threads) {
  return threads > 0 ? threads : tbb::this_task_arena::max_concurrency();
}

namespace {

GameDistributor* distributor = nullptr;

// Calls play_block(from, to) on the blocks of `grain` items that cover [begin, end), on `threads`
// threads.
template <class PlayBlock>
void for_blocks(std::int64_t begin, std::int64_t end, std::int64_t grain, int threads, const PlayBlock& play_block) {
  if (threads == 1) {
    // The blocks one after another on this thread, without oneTBB: a task arena costs about 3 ms
    // of a process's CPU the first time (its allocator's library, page faults), a large part of a
    // short run such as `play --max-pieces 1`.
    for (std::int64_t b = begin; b < end; b += grain) play_block(b, std::min(end, b + grain));
    return;
  }
  tbb::task_arena arena(thread_count(threads));
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::int64_t>(begin, end, grain),
        [&](const tbb::blocked_range<std::int64_t>& r) { play_block(r.begin(), r.end()); },
        tbb::simple_partitioner{});
  });
}

}  // namespace

void for_each_block(std::int64_t n, std::int64_t grain, int threads,
                    const std::function<void(std::int64_t, std::int64_t)>& block) {
  if (n > 0) for_blocks(0, n, std::max<std::int64_t>(1, grain), threads, block);
}

void set_game_distributor(GameDistributor* d) { distributor = d; }

std::vector<GameResult> play_population_range(std::span<const Policy> policies, const GameConfig& config,
                                              std::int64_t games_per_policy, std::int64_t begin, std::int64_t end,
                                              int threads, FeatureKernel kernel, PlayProgress* progress,
                                              std::uint64_t first_stream) {
  for (const Policy& p : policies) check_dimension(p, config.rules.geometry);
  const std::int64_t total = end - begin;
  std::vector<GameResult> results(static_cast<std::size_t>(total));
  const auto play_block = [&](std::int64_t from, std::int64_t to) {
    run_block(from, to, begin, games_per_policy, first_stream, policies, config, kernel, progress, results);
  };
  for_blocks(begin, end, block_games(total, thread_count(threads)), threads, play_block);
  return results;
}

std::vector<GameResult> play_population(std::span<const Policy> policies, const GameConfig& config,
                                        std::int64_t games_per_policy, int threads,
                                        FeatureKernel kernel, PlayProgress* progress,
                                        std::uint64_t first_stream) {
  for (const Policy& p : policies) check_dimension(p, config.rules.geometry);
  const std::int64_t total = static_cast<std::int64_t>(policies.size()) * games_per_policy;
  const auto here = [&](std::int64_t begin, std::int64_t end) {
    return play_population_range(policies, config, games_per_policy, begin, end, threads, kernel, progress,
                                 first_stream);
  };
  if (distributor) return distributor->distribute(policies, config, games_per_policy, first_stream, threads, kernel, here);
  return here(0, total);
}

std::vector<GameResult> play_games(const Policy& policy, const GameConfig& config,
                                   std::int64_t games, int threads, FeatureKernel kernel,
                                   PlayProgress* progress, std::int64_t first_game) {
  return play_population(std::span<const Policy>(&policy, 1), config, games, threads, kernel,
                         progress, static_cast<std::uint64_t>(first_game));
}

std::vector<RolloutResult> play_rollouts(const Policy& policy, const RolloutConfig& config,
                                         std::span<const RolloutState> states, std::span<const Rollout> rollouts,
                                         int threads, FeatureKernel kernel, std::int64_t block) {
  check_dimension(policy, config.rules.geometry);
  if (config.length < 0) throw InputError("rollout length " + std::to_string(config.length) + " is negative");
  check_rollouts(config.rules, states, rollouts);
  const auto total = static_cast<std::int64_t>(rollouts.size());
  std::vector<RolloutResult> results(rollouts.size());
  // Rollouts all last at most length + 1 pieces, so unlike games, large blocks waste no steps;
  // the bound keeps a block's batch (~100 bytes a rollout) in the cache, and the searcher
  // and batch made per block cost little next to a block's pieces.
  if (block <= 0) block = std::clamp<std::int64_t>(total / (4 * static_cast<std::int64_t>(thread_count(threads))), 1, 256);
  const GameConfig game = rollout_game_config(config);
  for_blocks(0, total, block, threads, [&](std::int64_t from, std::int64_t to) {
    GameBatch batch(to - from, game);
    Searcher searcher(policy, config.rules, kernel);
    run_rollout_block(batch, searcher, config, states, rollouts.subspan(from, to - from),
                      std::span<RolloutResult>(results).subspan(from, to - from));
  });
  return results;
}

}  // namespace tb
