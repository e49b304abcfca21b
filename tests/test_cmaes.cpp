// CMA-ES: Table 1 parameters against hand-computed values, convergence and evaluations to
// target on analytic functions (a fast subset of docs/optimizers.md's table), exact
// checkpoint/resume, IPOP restarts and the stop criteria.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "cmaes.h"
#include "objectives.h"
#include "stats.h"

namespace tb::opt {
namespace {

OptimizerSetup setup_at(int dim, std::uint64_t seed, double x = 1.0) {
  OptimizerSetup s;
  s.dim = dim;
  s.seed = seed;
  s.x0 = Vector::Constant(dim, x);
  s.sigma0 = 0.5;
  return s;
}

// One generation on f: ask, evaluate every column, tell.
void step(Optimizer& o, ObjectiveFn f) {
  const Matrix X = o.ask();
  Vector values(X.cols());
  for (Eigen::Index k = 0; k < X.cols(); ++k) values[k] = f(X.col(k));
  o.tell(X, values);
}

// Median evaluations to 1e-8 over `runs` runs of the docs/optimizers.md protocol (seed 1).
double protocol_median(const char* optimizer, const char* objective, int dim, int runs, int* successes) {
  std::vector<double> evals;
  for (int r = 0; r < runs; ++r) {
    const auto o = make_optimizer(optimizer, protocol_setup(dim, 1, r, 0.5, 200'000));
    const TargetRun run = run_to_target(*o, find_objective(objective).f, 1e-8, 200'000);
    if (run.success) evals.push_back(static_cast<double>(run.evals));
  }
  *successes = static_cast<int>(evals.size());
  return median(evals);
}

TEST(CmaesParameters, TableOneAtDimensionTen) {
  const CmaesParameters p = cmaes_parameters(10, cmaes_default_lambda(10), false);
  EXPECT_EQ(p.lambda, 10);  // 4 + floor(3 ln 10) = 4 + floor(6.9)
  EXPECT_EQ(p.mu, 5);

  // Independently from the formulas of Table 1...
  double sum = 0, sum2 = 0;
  for (int i = 1; i <= 5; ++i) {
    const double w = std::log(5.5) - std::log(i);
    sum += w;
    sum2 += w * w;
  }
  const double mu_eff = sum * sum / sum2;
  const double c_sigma = (mu_eff + 2) / (10 + mu_eff + 5);
  const double d_sigma = 1 + 2 * std::max(0.0, std::sqrt((mu_eff - 1) / 11) - 1) + c_sigma;
  const double c_c = (4 + mu_eff / 10) / (14 + 2 * mu_eff / 10);
  const double c_1 = 2 / (11.3 * 11.3 + mu_eff);
  const double c_mu = std::min(1 - c_1, 2 * (0.25 + mu_eff + 1 / mu_eff - 2) / (144 + mu_eff));
  EXPECT_NEAR(p.mu_eff, mu_eff, 1e-12);
  EXPECT_NEAR(p.c_sigma, c_sigma, 1e-12);
  EXPECT_NEAR(p.d_sigma, d_sigma, 1e-12);
  EXPECT_NEAR(p.c_c, c_c, 1e-12);
  EXPECT_NEAR(p.c_1, c_1, 1e-12);
  EXPECT_NEAR(p.c_mu, c_mu, 1e-12);
  // ...and against values worked out with 40-digit decimals.
  EXPECT_NEAR(p.mu_eff, 3.16729928141070313748, 1e-12);
  EXPECT_NEAR(p.c_sigma, 0.28442858794636749310, 1e-12);
  EXPECT_NEAR(p.d_sigma, 1.28442858794636749310, 1e-12);
  EXPECT_NEAR(p.c_c, 0.29499038303562224512, 1e-12);
  EXPECT_NEAR(p.c_1, 0.01528382452475171594, 1e-12);
  EXPECT_NEAR(p.c_mu, 0.02355177665041748606, 1e-12);

  // Standard weights: mu positive ones summing to 1, the rest zero.
  EXPECT_NEAR(p.weights.head(5).sum(), 1.0, 1e-15);
  EXPECT_TRUE((p.weights.tail(5).array() == 0).all());
}

TEST(CmaesParameters, ActiveWeightsAreScaledByTheSmallestAlpha) {
  const CmaesParameters p = cmaes_parameters(10, 10, true);
  EXPECT_NEAR(p.mu_eff_minus, 3.98911501910692522429, 1e-12);
  EXPECT_NEAR(p.weights.head(5).sum(), 1.0, 1e-15);
  // min(alpha_mu^- = 1.6489..., alpha_mueff^- = 2.5439..., alpha_posdef^- = 4.0810...)
  EXPECT_NEAR(p.weights.tail(5).sum(), -1.648945714440646674, 1e-12);
  EXPECT_NEAR(p.weight_sum, 1 - 1.648945714440646674, 1e-12);
  for (int i = 1; i < 10; ++i) EXPECT_LT(p.weights[i], p.weights[i - 1]);
}

TEST(Cmaes, SphereConvergesInDimensionEight) {
  for (std::uint64_t seed : {1, 2, 3}) {
    const auto o = make_optimizer("cmaes", protocol_setup(8, seed, 0, 0.5, 0));
    const TargetRun run = run_to_target(*o, find_objective("sphere").f, 1e-8, 3000);
    EXPECT_TRUE(run.success) << "seed " << seed;
    EXPECT_LT(run.best_f, 1e-8);
  }
}

// The bar of docs/optimizers.md on 11 runs: median <= 1.2 x the reference median at n = 8.
TEST(Cmaes, MedianEvaluationsWithinTwentyPercentOfReference) {
  struct Cell {
    const char* optimizer;
    const char* objective;
    double reference;
  };
  for (const Cell& c : {Cell{"cmaes", "sphere", 1257}, Cell{"cmaes", "ellipsoid", 4228},
                        Cell{"cmaes", "rosenbrock", 4620}, Cell{"cmaes-active", "ellipsoid", 3234}}) {
    int successes = 0;
    const double m = protocol_median(c.optimizer, c.objective, 8, 11, &successes);
    EXPECT_LE(m, 1.2 * c.reference) << c.optimizer << " on " << c.objective;
    const int required = std::string(c.objective) == "rosenbrock" ? 8 : 11;  // >= 75% on Rosenbrock
    EXPECT_GE(successes, required) << c.optimizer << " on " << c.objective;
  }
}

TEST(Cmaes, CovarianceStaysExactlySymmetric) {
  Cmaes o(setup_at(7, 5), CmaesVariant::active);
  for (int g = 0; g < 60; ++g) step(o, find_objective("rosenbrock").f);
  const Json s = o.state();
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j) EXPECT_EQ(s["C"][i][j].get<double>(), s["C"][j][i].get<double>());
}

// Checkpoint mid-run, restore into a fresh optimizer through a JSON text, and both continue
// bit for bit: the next ask() matrices and the whole final state are identical.
void expect_exact_resume(const char* name, const char* objective, int warmup) {
  const ObjectiveFn f = find_objective(objective).f;
  const OptimizerSetup setup = protocol_setup(6, 42, 0, 0.5, 0);
  const auto a = make_optimizer(name, setup);
  for (int g = 0; g < warmup; ++g) step(*a, f);
  const auto b = make_optimizer(name, setup);
  b->restore(Json::parse(a->state().dump()));
  EXPECT_EQ(a->state(), b->state()) << name;
  const Matrix Xa = a->ask();
  const Matrix Xb = b->ask();
  ASSERT_EQ(Xa.cols(), Xb.cols());
  EXPECT_TRUE(Xa == Xb) << name;
  for (int g = 0; g < 150; ++g) {
    step(*a, f);
    step(*b, f);
  }
  EXPECT_EQ(a->state(), b->state()) << name;
  EXPECT_EQ(a->best_f(), b->best_f());
  EXPECT_TRUE(a->best_x() == b->best_x());
}

TEST(Cmaes, StateRoundTripContinuesBitForBit) {
  expect_exact_resume("cmaes", "ellipsoid", 40);
  expect_exact_resume("cmaes-active", "rosenbrock", 55);
  expect_exact_resume("ipop-cmaes", "rastrigin", 120);  // past at least one restart
}

TEST(Cmaes, FreshStateWritesInfiniteBestAsNull) {
  const auto a = make_optimizer("cmaes", setup_at(3, 1));
  const Json s = a->state();
  EXPECT_TRUE(s["best_f"].is_null());
  const auto b = make_optimizer("cmaes", setup_at(3, 1));
  b->restore(Json::parse(s.dump()));
  EXPECT_EQ(b->best_f(), std::numeric_limits<double>::infinity());
  EXPECT_THROW(make_optimizer("cmaes-active", setup_at(3, 1))->restore(s), OptimizerError);
  EXPECT_THROW(make_optimizer("cmaes", setup_at(4, 1))->restore(s), OptimizerError);
}

TEST(Cmaes, IpopDoublesLambdaAtEachRestart) {
  OptimizerSetup setup = protocol_setup(4, 3, 0, 0.5, 0);
  setup.options = {{"lambda", 7}};
  Cmaes o(setup, CmaesVariant::ipop);
  int restarts = 0;
  for (int g = 0; g < 5000 && restarts < 3; ++g) {
    const Json before = o.state();
    step(o, find_objective("rastrigin").f);
    const Json after = o.state();
    restarts = after["restarts"].get<int>();
    EXPECT_EQ(after["lambda"].get<int>(), 7 << restarts);
    if (restarts != before["restarts"].get<int>()) {
      EXPECT_EQ(restarts, before["restarts"].get<int>() + 1);
      EXPECT_EQ(o.spread(), 0.5);  // sigma0 again
      EXPECT_EQ(after["generation"].get<int>(), 0);
      for (const Json& m : after["mean"]) EXPECT_TRUE(m.get<double>() >= -5 && m.get<double>() < 5);
      EXPECT_EQ(o.ask().cols(), 7 << restarts);
    }
  }
  EXPECT_EQ(restarts, 3);
}

double flat(const Eigen::Ref<const Vector>&) { return 1.0; }

TEST(Cmaes, IpopStopsAfterNineRestarts) {
  Cmaes o(setup_at(2, 1), CmaesVariant::ipop);
  while (o.stop().empty()) step(o, flat);
  EXPECT_EQ(o.state()["restarts"].get<int>(), kMaxRestarts);
  EXPECT_EQ(o.state()["lambda"].get<int>(), cmaes_default_lambda(2) << kMaxRestarts);
  const auto why = o.stop();
  EXPECT_NE(std::find(why.begin(), why.end(), "TolHistFun"), why.end());
  EXPECT_EQ(why.back(), "MaxRestarts");
}

TEST(Cmaes, UnknownOrBadOptionsThrow) {
  OptimizerSetup s = setup_at(5, 1);
  s.options = {{"popsize", 12}};
  EXPECT_THROW(make_optimizer("cmaes", s), OptimizerError);
  s.options = {{"lambda", 1}};
  EXPECT_THROW(make_optimizer("cmaes", s), OptimizerError);
  s.options = {{"lambda", "many"}};
  EXPECT_THROW(make_optimizer("ipop-cmaes", s), OptimizerError);
  s.options = {{"lambda", 20}};
  EXPECT_EQ(make_optimizer("cmaes-active", s)->ask().cols(), 20);
  EXPECT_THROW(make_optimizer("cmaes-passive", s), OptimizerError);
  EXPECT_THROW(find_objective("griewank"), OptimizerError);
}

// The sphere seen through sqrt(||x||): the same rankings, so the same run, but f shrinks so
// slowly that TolHistFun cannot fire before TolX.
double root_norm(const Eigen::Ref<const Vector>& x) { return std::sqrt(x.norm()); }

TEST(CmaesStop, TolXOnSphere) {
  Cmaes o(setup_at(4, 9), CmaesVariant::standard);
  while (o.stop().empty()) step(o, root_norm);
  EXPECT_EQ(o.stop(), std::vector<std::string>{"TolX"});
  EXPECT_LT(o.best_f(), 1e-5);
}

TEST(CmaesStop, TolHistFunOnSphere) {
  Cmaes o(setup_at(4, 9), CmaesVariant::standard);
  while (o.stop().empty()) step(o, find_objective("sphere").f);
  EXPECT_EQ(o.stop(), std::vector<std::string>{"TolHistFun"});
  EXPECT_LT(o.best_f(), 1e-12);
}

TEST(CmaesStop, MaxEvals) {
  OptimizerSetup s = setup_at(8, 1);
  s.max_evals = 95;
  Cmaes o(s, CmaesVariant::ipop);
  int generations = 0;
  for (; o.stop().empty(); ++generations) step(o, find_objective("sphere").f);
  EXPECT_EQ(generations, 10);  // lambda = 10
  EXPECT_EQ(o.stop(), std::vector<std::string>{"MaxEvals"});
}

TEST(CmaesStop, ConditionCov) {
  Cmaes o(setup_at(2, 1), CmaesVariant::standard);
  step(o, find_objective("sphere").f);
  EXPECT_TRUE(o.stop().empty());
  Json s = o.state();
  s["C"] = {{1.0, 0.0}, {0.0, 1e15}};
  s["B"] = {{1.0, 0.0}, {0.0, 1.0}};
  s["D"] = {1.0, std::sqrt(1e15)};
  o.restore(s);
  EXPECT_EQ(o.stop(), std::vector<std::string>{"ConditionCov"});
  s["C"] = {{1.0, 0.0}, {0.0, 1e13}};
  s["D"] = {1.0, std::sqrt(1e13)};
  o.restore(s);
  EXPECT_TRUE(o.stop().empty());
}

}  // namespace
}  // namespace tb::opt
