// Analytic test functions with known optima (f* = 0) and the protocol that runs an optimizer
// on one of them to a target, as libcmaes's tests/test-functions.cc checks its solvers.
//
//   sphere      sum x_i^2
//   ellipsoid   sum 10^(6 i / (n - 1)) x_i^2, i = 0..n-1 (condition number 1e6)
//   rosenbrock  sum_{i<n-1} 100 (x_{i+1} - x_i^2)^2 + (1 - x_i)^2, optimum at (1, ..., 1)
//   rastrigin   10 n + sum x_i^2 - 10 cos(2 pi x_i)  (multimodal)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "optimizer.h"

namespace tb::opt {

using ObjectiveFn = double (*)(const Eigen::Ref<const Vector>& x);

struct Objective {
  std::string_view name;
  ObjectiveFn f;
};

const Objective& find_objective(std::string_view name);  // throws OptimizerError
std::vector<std::string_view> objective_names();

// Run `run` of a protocol with seed `seed`: the optimizer gets the seed stream_key(seed, run)
// and a start point uniform in [init_low, init_high]^dim drawn from a stream of its own.
OptimizerSetup protocol_setup(int dim, std::uint64_t seed, std::int64_t run, double sigma0,
                              std::int64_t max_evals);

struct TargetRun {
  bool success = false;
  std::int64_t evals = 0;  // success: the evaluation that first went below the target
  double best_f = 0;       // best value evaluated
  std::vector<std::string> stop;  // the optimizer's reasons, or "MaxEvals" for the driver's budget
};

// ask -> evaluate -> tell until a value < target, a stop reason, or max_evals evaluations
// (0 = no budget).  Candidates are evaluated one at a time, so the count is exact.
TargetRun run_to_target(Optimizer& optimizer, ObjectiveFn f, double target, std::int64_t max_evals);

}  // namespace tb::opt
