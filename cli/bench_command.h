// `tetrisbench bench`: a fixed workload with one behaviour signature, Stockfish's `bench`.
//
// The workload (fixed seeds, policies, boards, rule variants and caps) covers greedy and
// 2-ply search, both generators and both overflow rules.  The signature is a 64-bit FNV-1a
// hash of every game's results and final board, so any change of behaviour changes it.  The
// committed value is results/baselines/bench-signature.txt; tests/signature_test.sh checks it
// for every kernel at 1 and 2 threads.
#pragma once

#include <string>

namespace tb {

struct BenchOptions {
  std::string kernel;
  int threads = 1;
};

int run_bench(const BenchOptions& options);

}  // namespace tb
