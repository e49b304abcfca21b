// BM_Rollout_<policy>/<threads>: CBMPI's rollouts on 10x20 (play_rollouts), best kernel, m = 10
// as in the paper's 10x20 runs.  Start states are every 25th state of 2 games of the policy
// capped at 5,000 pieces (seed 1), about 400; every state gets one rollout per action (a forced
// first placement, about 23 a state) and one without, about 9,600 rollouts and 100,000 pieces
// an iteration.  BM_Greedy_<policy>/<threads> plays games on the same board as BM_Play does
// (8 games capped at 20,000 pieces), so the two give rollout vs greedy pieces/s in one process:
//   bench_rollout --benchmark_repetitions=3 --benchmark_enable_random_interleaving=true
// items/s = pieces locked (forced ones included) per second of the process's CPU time, so per
// core; decisions/s counts only the policy's pieces (a forced move is a drop(), no search).
//
// Before timing, the batch's results must equal the one-at-a-time reference (play_rollout) at
// 1 and 2 threads, else the benchmark is skipped with an error.
#include <benchmark/benchmark.h>

#include "bench_main.h"

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kernel_variants.h"
#include "parallel_play.h"
#include "policy.h"
#include "state_sample.h"
#include "timed_pieces.h"

namespace {

using namespace tb;

constexpr std::int64_t kLength = 10;

struct Workload {
  Policy policy;
  RolloutConfig config;
  std::vector<RolloutState> states;
  std::vector<Rollout> rollouts;
  std::string error;  // "" when the batch matched the reference
};

Workload make_workload(const std::string& name) {
  Workload w;
  w.policy = load_policy(name);
  w.config.rules.geometry = {10, 20};
  w.config.seed = 2;
  w.config.length = kLength;
  const FeatureKernel kernel = best_kernel().kernel;
  Searcher searcher(w.policy, w.config.rules, kernel);
  GameConfig games;
  games.rules = w.config.rules;
  games.seed = 1;
  games.max_pieces = 5000;
  w.states = sample_states(searcher, games, 2, 25);
  for (std::uint32_t s = 0; s < w.states.size(); ++s) {
    const auto stream = [&] { return static_cast<std::uint64_t>(w.rollouts.size()); };
    w.rollouts.push_back({s, stream(), false, {}});
    for (const Placement& a : rollout_actions(w.config.rules, w.states[s].board, w.states[s].current))
      w.rollouts.push_back({s, stream(), true, a});
  }
  // The reference on every 7th rollout, against the batch at 1 and 2 threads.
  for (int threads : {1, 2}) {
    const auto got = play_rollouts(w.policy, w.config, w.states, w.rollouts, threads, kernel);
    for (std::size_t i = 0; i < w.rollouts.size(); i += 7)
      if (!(got[i] == play_rollout(searcher, w.config, w.states[w.rollouts[i].state], w.rollouts[i]))) {
        w.error = "rollout " + std::to_string(i) + " differs from the reference at " + std::to_string(threads) +
                  " thread(s)";
        return w;
      }
  }
  return w;
}

Workload& workload(const std::string& name) {
  static std::map<std::string, Workload> made;
  auto it = made.find(name);
  if (it == made.end()) it = made.emplace(name, make_workload(name)).first;
  return it->second;
}

void bm_rollout(benchmark::State& state, const std::string& name) {
  try {
    const Workload& w = workload(name);
    if (!w.error.empty()) return state.SkipWithError(w.error.c_str());
    const int threads = static_cast<int>(state.range(0));
    const auto kernel = best_kernel().kernel;
    const std::int64_t pieces =
        time_pieces(state, [&] { return play_rollouts(w.policy, w.config, w.states, w.rollouts, threads, kernel); });
    std::int64_t forced = 0;
    for (const Rollout& r : w.rollouts) forced += r.forced;
    state.counters["decisions"] = benchmark::Counter(
        static_cast<double>(pieces - forced * static_cast<std::int64_t>(state.iterations())), benchmark::Counter::kIsRate);
    state.counters["rollouts"] = static_cast<double>(w.rollouts.size());
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// Greedy play on the same board (bench_play's 10x20 run), the throughput rollouts must keep.
void bm_greedy(benchmark::State& state, const std::string& name) {
  try {
    const Policy policy = load_policy(name);
    GameConfig config;
    config.rules.geometry = {10, 20};
    config.max_pieces = 20000;
    const int threads = static_cast<int>(state.range(0));
    time_pieces(state, [&] { return play_games(policy, config, 8, threads, best_kernel().kernel, nullptr); });
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void register_benchmarks() {
  for (const std::string policy : {"dellacherie", "bcts"}) {
    benchmark::RegisterBenchmark(("BM_Rollout_" + policy).c_str(), [policy](benchmark::State& s) { bm_rollout(s, policy); })
        ->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_Greedy_" + policy).c_str(), [policy](benchmark::State& s) { bm_greedy(s, policy); })
        ->Arg(1)->Arg(2)->MeasureProcessCPUTime()->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) { return tb::run_benchmarks(argc, argv, register_benchmarks); }
