// One ask/tell interface for every black-box optimizer (pycma / libcmaes style).
//
//   X = opt.ask();        // (dim, lambda): one candidate per column
//   opt.tell(X, f);       // f: (lambda) objective values, LOWER is better (minimization)
//   opt.stop();           // the reasons to stop; empty while it should go on
//
// Tetris fitness is passed negated (f = -mean lines), so every optimizer minimizes.
// Static parameters (computed once from dim, lambda and the options) are separate from the
// mutable state; state() / restore() round-trip the whole mutable state exactly, random
// generator included, so a run resumed from a checkpoint continues bit for bit.
// Evaluation lives outside: optimizers never see games.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"
#include "random.h"

namespace tb::opt {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using Json = nlohmann::json;

// What every optimizer is built from.  `options` holds optimizer-specific parameters (names
// documented per optimizer in docs/optimizers.md); unknown keys are an error.
struct OptimizerSetup {
  int dim = 0;
  std::uint64_t seed = 1;
  Vector x0;                 // (dim) start point (the CE mean, the GA/PSO init centre)
  double sigma0 = 0.5;       // initial step size / spread
  double init_low = -5.0;    // where fresh random points are drawn (IPOP restarts, GA/PSO init)
  double init_high = 5.0;
  std::int64_t max_evals = 0;  // 0 = no limit (the driver also enforces its own budget)
  Json options = Json::object();
};

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  virtual std::string_view name() const = 0;
  virtual Matrix ask() = 0;
  virtual void tell(const Matrix& X, const Vector& f) = 0;
  virtual std::vector<std::string> stop() const = 0;

  virtual Vector best_x() const = 0;        // best candidate told so far
  // The mean of the search distribution (CE, CMA-ES); empty for the others.
  virtual std::optional<Vector> distribution_mean() const { return std::nullopt; }
  virtual double best_f() const = 0;        // its value (+inf before the first tell)
  virtual std::int64_t evaluations() const = 0;
  // A one-number spread for the records: sigma for CMA-ES, mean std. dev. for CE, etc.
  virtual double spread() const = 0;

  virtual Json state() const = 0;
  virtual void restore(const Json& state) = 0;
};

// Bad setups (unknown optimizer or option) and bad states: one-line message, exit code 2.
struct OptimizerError : InputError {
  using InputError::InputError;
};

// cmaes, cmaes-active, ipop-cmaes, ce, ga, ga-lee, pso, pso-article1.
std::unique_ptr<Optimizer> make_optimizer(std::string_view name, const OptimizerSetup& setup);
std::vector<std::string_view> optimizer_names();

}  // namespace tb::opt
