#include "objectives.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

namespace tb::opt {
namespace {

double sphere(const Eigen::Ref<const Vector>& x) { return x.squaredNorm(); }

double ellipsoid(const Eigen::Ref<const Vector>& x) {
  const Eigen::Index n = x.size();
  double f = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const double exponent = n > 1 ? 6.0 * static_cast<double>(i) / static_cast<double>(n - 1) : 0.0;
    f += std::pow(10.0, exponent) * x[i] * x[i];
  }
  return f;
}

double rosenbrock(const Eigen::Ref<const Vector>& x) {
  double f = 0;
  for (Eigen::Index i = 0; i + 1 < x.size(); ++i) {
    const double a = x[i + 1] - x[i] * x[i];
    const double b = 1 - x[i];
    f += 100 * a * a + b * b;
  }
  return f;
}

double rastrigin(const Eigen::Ref<const Vector>& x) {
  double f = 10.0 * static_cast<double>(x.size());
  for (double v : x) f += v * v - 10 * std::cos(2 * std::numbers::pi * v);
  return f;
}

constexpr std::array<Objective, 4> kObjectives = {{
    {"sphere", sphere},
    {"ellipsoid", ellipsoid},
    {"rosenbrock", rosenbrock},
    {"rastrigin", rastrigin},
}};

// Stream of the start point; the optimizer itself draws from stream 0 of the run seed.
constexpr std::uint64_t kStartStream = 0x7830;  // "x0"

}  // namespace

const Objective& find_objective(std::string_view name) {
  for (const Objective& o : kObjectives)
    if (o.name == name) return o;
  std::string known;
  for (const Objective& o : kObjectives) known += (known.empty() ? "" : ", ") + std::string(o.name);
  throw OptimizerError("unknown objective '" + std::string(name) + "' (" + known + ")");
}

std::vector<std::string_view> objective_names() {
  std::vector<std::string_view> names;
  for (const Objective& o : kObjectives) names.push_back(o.name);
  return names;
}

OptimizerSetup protocol_setup(int dim, std::uint64_t seed, std::int64_t run, double sigma0,
                              std::int64_t max_evals) {
  OptimizerSetup setup;
  setup.dim = dim;
  setup.seed = stream_key(seed, static_cast<std::uint64_t>(run));
  setup.sigma0 = sigma0;
  setup.max_evals = max_evals;
  Random start = Random::from_seed(setup.seed, kStartStream);
  setup.x0.resize(dim);
  for (int i = 0; i < dim; ++i) setup.x0[i] = start.uniform(setup.init_low, setup.init_high);
  return setup;
}

TargetRun run_to_target(Optimizer& optimizer, ObjectiveFn f, double target, std::int64_t max_evals) {
  TargetRun run;
  run.best_f = std::numeric_limits<double>::infinity();
  for (;;) {
    run.stop = optimizer.stop();
    if (!run.stop.empty()) return run;
    const Matrix X = optimizer.ask();  // (dim, lambda)
    Vector values(X.cols());
    for (Eigen::Index k = 0; k < X.cols(); ++k) {
      if (max_evals > 0 && run.evals >= max_evals) {
        run.stop = {"MaxEvals"};
        return run;
      }
      values[k] = f(X.col(k));
      run.evals += 1;
      run.best_f = std::min(run.best_f, values[k]);
      if (values[k] < target) {
        run.success = true;
        return run;
      }
    }
    optimizer.tell(X, values);
  }
}

}  // namespace tb::opt
