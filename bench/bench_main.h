// The main() of every suite: benchmarks are registered at run time (kernel names are only
// known then), so each suite passes its registration function.
#pragma once

#include <benchmark/benchmark.h>

namespace tb {

inline int run_benchmarks(int argc, char** argv, void (*register_benchmarks)()) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace tb
