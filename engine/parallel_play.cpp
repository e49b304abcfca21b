#include "parallel_play.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace tb {

int thread_count(int threads) {
  return threads > 0 ? threads : tbb::this_task_arena::max_concurrency();
}

std::vector<GameResult> play_games(const Policy& policy, const GameConfig& config,
                                   std::int64_t games, int threads, FeatureKernel kernel,
                                   PlayProgress* progress, std::int64_t first_game) {
  std::vector<GameResult> results(static_cast<std::size_t>(games));
  tbb::task_arena arena(thread_count(threads));
  arena.execute([&] {
    // Games vary in length by orders of magnitude: one game per task balances best.
    tbb::parallel_for(
        tbb::blocked_range<std::int64_t>(0, games, 1),
        [&](const tbb::blocked_range<std::int64_t>& range) {
          Searcher searcher(policy, config.rules, kernel);
          for (std::int64_t g = range.begin(); g != range.end(); ++g) {
            results[g] = play_game(searcher, config, static_cast<std::uint64_t>(first_game + g), kernel);
            if (progress) {
              progress->games_done.fetch_add(1, std::memory_order_relaxed);
              progress->pieces_done.fetch_add(results[g].pieces, std::memory_order_relaxed);
            }
          }
        },
        tbb::simple_partitioner{});
  });
  return results;
}

}  // namespace tb
