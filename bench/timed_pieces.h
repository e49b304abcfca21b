// The timing loop of the suites that play pieces (bench_play, bench_rollout): `run()` plays a
// whole run and returns results with a `pieces` field; items = pieces locked.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "kernel_variants.h"

namespace tb {

// Returns the pieces of every iteration together.
template <class Run>
std::int64_t time_pieces(benchmark::State& state, const Run& run) {
  std::int64_t pieces = 0;
  for (auto _ : state)
    for (const auto& r : run()) pieces += r.pieces;
  state.SetItemsProcessed(pieces);
  state.counters["pieces_per_run"] = static_cast<double>(pieces) / static_cast<double>(state.iterations());
  state.SetLabel(std::string(best_kernel().name));
  return pieces;
}

}  // namespace tb
