// `tetrisbench optimize`: runs one optimizer on an analytic objective from random start points
// until a target value, and reports evaluations to target (docs/optimizers.md).
//
// Run r gets the seed stream_key(seed, r) and x0 uniform in [-5, 5]^dim from its own stream
// (tb::opt::protocol_setup), so every run is reproducible on its own.
#pragma once

#include <cstdint>
#include <string>

namespace tb {

struct OptimizeOptions {
  std::string optimizer = "cmaes";
  std::string objective = "sphere";
  std::string format = "table";
  std::string options = "{}";  // JSON object of optimizer options, e.g. {"lambda": 20}
  std::string out;             // empty: stdout
  int dim = 10;
  std::int64_t runs = 1;
  double sigma0 = 0.5;
  double target = 1e-8;
  std::int64_t max_evals = 1'000'000;
  std::uint64_t seed = 1;
};

// Throws UsageError (cli_common.h) on bad input; returns the exit code.
int run_optimize(const OptimizeOptions& options);

}  // namespace tb
