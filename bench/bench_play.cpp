// BM_Play_<policy>[_2ply]/<W>/<H>/<threads>: one whole run of games (play_games) per
// iteration, seed 1, best kernel.  items/s = pieces locked, over real time (play_games runs
// its own oneTBB arena).  Run sizes, by board:
//   greedy 10x10   32 games to completion (bcts averages ~3,900 lines there)
//   greedy 10x20   8 games capped at 20,000 pieces (uncapped games last for days)
//   2-ply  10x10   8 games capped at 2,000 pieces (a 2-ply decision costs ~30 greedy ones)
//
// Before timing, the run with 1 thread and the run with 2 threads must give identical game
// results (parallel_play.h promises it), else the benchmark is skipped with an error.
#include <benchmark/benchmark.h>

#include "bench_main.h"

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kernel_variants.h"
#include "parallel_play.h"
#include "policy.h"
#include "timed_pieces.h"

namespace {

using namespace tb;

struct RunSize {
  std::int64_t games;
  std::int64_t max_pieces;  // 0 = none
};

RunSize run_size(Geometry g, int lookahead) {
  if (lookahead == 1) return {8, 2000};
  return g.height <= 10 ? RunSize{32, 0} : RunSize{8, 20000};
}

bool same_results(const GameResult& a, const GameResult& b) {
  return a.index == b.index && a.lines == b.lines && a.pieces == b.pieces && a.points == b.points &&
         a.tetrises == b.tetrises && a.holes_created == b.holes_created &&
         a.height_sum == b.height_sum && a.capped == b.capped && a.final_board == b.final_board;
}

// "" when 1 and 2 threads give the same results.
std::string check_threads(const Policy& policy, const GameConfig& config, std::int64_t games,
                          FeatureKernel kernel) {
  const auto one = play_games(policy, config, games, 1, kernel, nullptr);
  const auto two = play_games(policy, config, games, 2, kernel, nullptr);
  for (std::size_t g = 0; g < one.size(); ++g)
    if (!same_results(one[g], two[g]))
      return "game " + std::to_string(g) + " differs between 1 and 2 threads (" +
             std::to_string(one[g].lines) + " vs " + std::to_string(two[g].lines) + " lines)";
  return {};
}

struct PlayCase {
  std::string policy;
  int lookahead;
  std::map<std::pair<int, int>, std::string> checks;  // (W, H) -> error ("" = passed), run once
};

void bm_play(benchmark::State& state, PlayCase& pc) {
  try {
    const Policy policy = load_policy(pc.policy);
    GameConfig config;
    config.rules.geometry = {static_cast<int>(state.range(0)), static_cast<int>(state.range(1))};
    config.rules.lookahead = pc.lookahead;
    const RunSize size = run_size(config.rules.geometry, pc.lookahead);
    config.max_pieces = size.max_pieces;
    const FeatureKernel kernel = best_kernel().kernel;
    auto [check, fresh] = pc.checks.try_emplace(std::pair{config.rules.geometry.width, config.rules.geometry.height});
    if (fresh) check->second = check_threads(policy, config, size.games, kernel);
    if (!check->second.empty()) return state.SkipWithError(check->second.c_str());

    const int threads = static_cast<int>(state.range(2));
    time_pieces(state, [&] { return play_games(policy, config, size.games, threads, kernel, nullptr); });
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void add(const std::string& name, const std::string& policy, int lookahead,
         const std::vector<std::pair<int, int>>& boards) {
  auto pc = std::make_shared<PlayCase>(PlayCase{policy, lookahead, {}});
  auto* b = benchmark::RegisterBenchmark(name.c_str(), [pc](benchmark::State& s) { bm_play(s, *pc); });
  for (const auto& [w, h] : boards)
    for (int threads : {1, 2}) b->Args({w, h, threads});
  b->UseRealTime()->Unit(benchmark::kMillisecond);
}

void register_benchmarks() {
  for (const std::string policy : {"dellacherie", "bcts"}) add("BM_Play_" + policy, policy, 0, {{10, 10}, {10, 20}});
  add("BM_Play_bcts_2ply", "bcts", 1, {{10, 10}});
}

}  // namespace

int main(int argc, char** argv) { return tb::run_benchmarks(argc, argv, register_benchmarks); }
