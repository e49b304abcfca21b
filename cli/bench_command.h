// `tetrisbench bench`: fixed workloads with behaviour signatures, Stockfish's `bench`.
//
// The workloads (fixed seeds, policies, boards, rule variants and caps) come in groups:
//   research   the original workload: research rules, greedy and 2-ply, both generators,
//              both overflow rules (its digest is unchanged since it was the only group)
//   guideline  guideline rules (SRS move-reachable placements), greedy and 2-ply, and games
//              that end (block-out, lock-out)
//   lee        lee rules (article 4: pairs rated without clears), and games that end in the
//              hidden rows
//   ntuple     n-tuple networks built in code (bench_command.cpp), greedy and 2-ply, under
//              research and guideline rules
//   noise      tie noise (GameConfig::tie_noise > 0) under research and guideline rules, greedy
//              and 2-ply, below the rating gaps (ties only) and above them
//   rollout    rollout batches (engine/run/rollout_batch.h) from states of the policies' own
//              games, with and without forced first moves, greedy and 2-ply, drop and
//              reachable placements, and rollouts that end the game
// Each group's digest is a 64-bit FNV-1a hash of its games' (rollouts') results and final
// boards, so any change of behaviour changes it; `all` hashes the five game groups' digests
// (not rollout's, which came later).  The committed values are
// results/baselines/bench-signature.txt; tests/signature_test.sh checks them for every kernel
// at 1 and 2 threads.  scripts/perf-gate.sh measures the research group only.
#pragma once

#include <string>

namespace tb {

struct BenchOptions {
  std::string kernel;
  std::string suite = "all";  // a group name or "all"
  int threads = 1;
};

int run_bench(const BenchOptions& options);

// The `bench --help` text of the groups and their workloads, made from the workload table.
std::string bench_workloads_help();

}  // namespace tb
