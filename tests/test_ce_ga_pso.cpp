// Cross-entropy, GA and PSO optimizers: convergence on analytic functions, determinism,
// exact checkpoint round-trips, the CE noise schedules, operator bounds and the options.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cross_entropy.h"
#include "genetic.h"
#include "optimizer.h"
#include "pso.h"

namespace tb::opt {
namespace {

constexpr int kDim = 5;

// The sphere centred at (3, ..., 3): from the drivers' zero start, or a box around 0, the
// optimum is about 3 away in every coordinate (f = 45 at the origin).
double sphere(const Vector& x) {
  double f = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) f += (x[i] - 3.0) * (x[i] - 3.0);
  return f;
}

// For ga-lee, whose candidates are unit vectors: |x - t|^2 - 4 with a unit target t lies in
// [-4, 0] on the unit sphere, so -f is a positive "score" as lines cleared would be.
Vector lee_target() {
  Vector t(kDim);
  t << 1.0, -2.0, 0.5, 3.0, -1.0;
  return t / t.norm();
}
double lee_objective(const Vector& x) { return (x - lee_target()).squaredNorm() - 4.0; }

using Objective = double (*)(const Vector&);

OptimizerSetup setup_for(std::uint64_t seed, Json options = Json::object()) {
  OptimizerSetup s;
  s.dim = kDim;
  s.seed = seed;
  s.x0 = Vector::Zero(kDim);
  s.init_low = -5.0;
  s.init_high = 5.0;
  s.options = std::move(options);
  return s;
}

void step(Optimizer& opt, Objective objective) {
  const Matrix X = opt.ask();
  Vector f(X.cols());
  for (Eigen::Index k = 0; k < X.cols(); ++k) f[k] = objective(X.col(k));
  opt.tell(X, f);
}

void run_until(Optimizer& opt, Objective objective, std::int64_t budget) {
  while (opt.evaluations() < budget) step(opt, objective);
}

struct Case {
  std::string name;
  Json options;
  Objective objective;
  std::int64_t budget;
};

std::vector<Case> cases() {
  return {{"ce", {{"noise", "decreasing"}}, sphere, 10000},
          {"ga", Json::object(), sphere, 10000},
          {"ga-lee", Json::object(), lee_objective, 10000},
          {"pso", Json::object(), sphere, 10000},
          {"pso-article1", Json::object(), sphere, 9000}};
}

TEST(CeGaPso, Registered) {
  const auto names = optimizer_names();
  for (const Case& c : cases())
    EXPECT_NE(std::find(names.begin(), names.end(), c.name), names.end()) << c.name;
}

// Each optimizer gets a fixed budget; the best value must fall far below the start.
TEST(CeGaPso, ConvergesOnSphere) {
  const std::vector<double> limits = {1e-8, 1e-4, 0.0, 1e-8, 1e-8};
  for (std::size_t i = 0; i < cases().size(); ++i) {
    const Case c = cases()[i];
    if (c.name == "ga-lee") continue;
    auto opt = make_optimizer(c.name, setup_for(7, c.options));
    run_until(*opt, c.objective, c.budget);
    EXPECT_LT(opt->best_f(), limits[i] * sphere(Vector::Zero(kDim))) << c.name;
    EXPECT_EQ(sphere(opt->best_x()), opt->best_f()) << c.name;
  }
}

TEST(CeGaPso, LeeConvergesOnTheUnitSphere) {
  auto opt = make_optimizer("ga-lee", setup_for(7));
  step(*opt, lee_objective);
  const double first = (opt->best_x() - lee_target()).norm();
  run_until(*opt, lee_objective, 10000);
  const double last = (opt->best_x() - lee_target()).norm();
  EXPECT_LT(last, first / 10.0) << first << " -> " << last;
}

TEST(CeGaPso, SameSeedSameRun) {
  for (const Case& c : cases()) {
    auto a = make_optimizer(c.name, setup_for(11, c.options));
    auto b = make_optimizer(c.name, setup_for(11, c.options));
    auto other = make_optimizer(c.name, setup_for(12, c.options));
    EXPECT_FALSE(a->ask() == other->ask()) << c.name;
    run_until(*a, c.objective, c.budget / 4);
    run_until(*b, c.objective, c.budget / 4);
    EXPECT_EQ(a->best_f(), b->best_f()) << c.name;
    EXPECT_TRUE(a->best_x() == b->best_x()) << c.name;
    EXPECT_EQ(a->state().dump(), b->state().dump()) << c.name;
  }
}

// A checkpoint written mid-run (through text, as the driver does) continues bit for bit.
TEST(CeGaPso, StateRoundTripContinuesExactly) {
  for (const Case& c : cases()) {
    auto a = make_optimizer(c.name, setup_for(5, c.options));
    for (int g = 0; g < 7; ++g) step(*a, c.objective);
    const std::string text = a->state().dump();
    auto b = make_optimizer(c.name, setup_for(5, c.options));
    b->restore(Json::parse(text));
    EXPECT_EQ(b->state().dump(), text) << c.name;
    EXPECT_EQ(b->evaluations(), a->evaluations()) << c.name;
    EXPECT_EQ(b->spread(), a->spread()) << c.name;
    for (int g = 0; g < 10; ++g) {
      const Matrix xa = a->ask(), xb = b->ask();
      ASSERT_TRUE(xa == xb) << c.name << " generation " << g;
      step(*a, c.objective);
      step(*b, c.objective);
    }
    EXPECT_EQ(a->best_f(), b->best_f()) << c.name;
    EXPECT_TRUE(a->best_x() == b->best_x()) << c.name;
  }
}

// Between ask() and tell() the asked candidates are part of the state.
TEST(CeGaPso, StateBetweenAskAndTell) {
  for (const Case& c : cases()) {
    auto a = make_optimizer(c.name, setup_for(9, c.options));
    for (int g = 0; g < 3; ++g) step(*a, c.objective);
    const Matrix asked = a->ask();
    EXPECT_TRUE(a->ask() == asked) << c.name;  // asking again repeats the same batch
    auto b = make_optimizer(c.name, setup_for(9, c.options));
    b->restore(Json::parse(a->state().dump()));
    EXPECT_TRUE(b->ask() == asked) << c.name;
  }
}

TEST(CeGaPso, BestIsInfinityBeforeTheFirstTellAndNullInJson) {
  for (const Case& c : cases()) {
    auto opt = make_optimizer(c.name, setup_for(1, c.options));
    EXPECT_EQ(opt->best_f(), pop::kInf) << c.name;
    EXPECT_TRUE(opt->state().at("best_f").is_null()) << c.name;
    auto other = make_optimizer(c.name, setup_for(1, c.options));
    other->restore(Json::parse(opt->state().dump()));
    EXPECT_EQ(other->best_f(), pop::kInf) << c.name;
  }
}

TEST(CeGaPso, RestoreRejectsAnotherOptimizersState) {
  auto ce = make_optimizer("ce", setup_for(1));
  auto ga = make_optimizer("ga", setup_for(1));
  EXPECT_THROW(ga->restore(ce->state()), OptimizerError);
  EXPECT_THROW(ce->restore(Json::object()), OptimizerError);
  auto small = make_optimizer("pso", setup_for(1, {{"swarm", 5}}));
  EXPECT_THROW(small->restore(make_optimizer("pso", setup_for(1))->state()), OptimizerError);
}

TEST(CeGaPso, UnknownOrBadOptionsThrow) {
  for (const Case& c : cases()) {
    EXPECT_THROW(make_optimizer(c.name, setup_for(1, {{"bogus", 1}})), OptimizerError) << c.name;
  }
  EXPECT_THROW(make_optimizer("ce", setup_for(1, {{"samples", "many"}})), OptimizerError);
  EXPECT_THROW(make_optimizer("ce", setup_for(1, {{"samples", 2.5}})), OptimizerError);
  EXPECT_THROW(make_optimizer("ce", setup_for(1, {{"noise", "loud"}})), OptimizerError);
  EXPECT_THROW(make_optimizer("ce", setup_for(1, {{"elite", 0}})), OptimizerError);
  EXPECT_THROW(make_optimizer("ga", setup_for(1, {{"low", 2}, {"high", 1}})), OptimizerError);
  EXPECT_THROW(make_optimizer("pso-article1", setup_for(1, {{"vmax", 0}})), OptimizerError);
  EXPECT_THROW(make_optimizer("ga-lee", setup_for(1, {{"population", 1}})), OptimizerError);
  EXPECT_THROW(make_optimizer("pso", setup_for(1, {{"k", -1}})), OptimizerError);
  EXPECT_THROW(make_optimizer("pso", setup_for(1, {{"ball", "cube"}})), OptimizerError);
}

TEST(CeGaPso, OptionsChangeBehaviour) {
  auto ce = make_optimizer("ce", setup_for(1, {{"samples", 20}, {"elite", 0.25}}));
  EXPECT_EQ(ce->ask().cols(), 20);
  EXPECT_EQ(dynamic_cast<CrossEntropy&>(*ce).params().elites, 5);
  EXPECT_NEAR(ce->spread(), 10.0, 1e-12);  // sqrt(variance0 = 100)
  EXPECT_NEAR(make_optimizer("ce", setup_for(1, {{"variance0", 4}}))->spread(), 2.0, 1e-12);

  auto ga = make_optimizer("ga", setup_for(1, {{"population", 12}, {"low", -1}, {"high", 1}}));
  const Matrix first = ga->ask();
  EXPECT_EQ(first.cols(), 12);
  EXPECT_LE(first.cwiseAbs().maxCoeff(), 1.0);
  step(*ga, sphere);
  EXPECT_EQ(ga->ask().cols(), 12);

  auto lee = make_optimizer("ga-lee", setup_for(1, {{"population", 20}, {"replace", 0.5}}));
  EXPECT_EQ(lee->ask().cols(), 20);
  step(*lee, lee_objective);
  EXPECT_EQ(lee->ask().cols(), 10);

  EXPECT_EQ(make_optimizer("pso", setup_for(1, {{"swarm", 7}}))->ask().cols(), 7);
  EXPECT_EQ(make_optimizer("pso", setup_for(1))->ask().cols(), 40);
  EXPECT_EQ(make_optimizer("pso-article1", setup_for(1))->ask().cols(), 30);

  OptimizerSetup budget = setup_for(1);
  budget.max_evals = 250;
  auto capped = make_optimizer("ce", budget);
  EXPECT_TRUE(capped->stop().empty());
  run_until(*capped, sphere, 300);
  EXPECT_EQ(capped->stop(), std::vector<std::string>{"MaxEvals"});
}

// Dimension 1, 4 samples, elite 0.5: the elite is {-1, 2}, mean 0.5, biased variance 2.25.
TEST(CrossEntropyNoise, ExactVarianceAfterATell) {
  Matrix X(1, 4);
  X << 4.0, -1.0, 2.0, 7.0;
  Vector f(4);
  f << 2.0, 0.5, 1.0, 3.0;
  auto after = [&](Json options, int tells) {
    options["samples"] = 4;
    options["elite"] = 0.5;
    OptimizerSetup s = setup_for(1, options);
    s.dim = 1;
    s.x0 = Vector::Zero(1);
    CrossEntropy ce(s);
    for (int t = 0; t < tells; ++t) ce.tell(X, f);
    EXPECT_EQ(ce.mean()[0], 0.5);
    return ce.variance()[0];
  };
  EXPECT_EQ(after({{"noise", "none"}}, 1), 2.25);
  EXPECT_EQ(after(Json::object(), 1), 2.25 + 4.0);  // constant 4 is the default
  EXPECT_EQ(after({{"noise", "constant"}, {"noise_constant", 1.5}}, 1), 2.25 + 1.5);
  EXPECT_EQ(after({{"noise", "decreasing"}}, 1), 2.25 + 5.0);  // t = 0: max(5 - 0/10, 0)
  EXPECT_EQ(after({{"noise", "decreasing"}}, 2), 2.25 + (5.0 - 1.0 / 10.0));
  EXPECT_EQ(after({{"noise", "decreasing"}}, 51), 2.25);  // t = 50: the noise is gone

  CeParams p;
  p.noise = CeNoise::decreasing;
  EXPECT_EQ(p.noise_at(0), 5.0);
  EXPECT_EQ(p.noise_at(25), 2.5);
  EXPECT_EQ(p.noise_at(50), 0.0);
  EXPECT_EQ(p.noise_at(80), 0.0);
}

TEST(CrossEntropyNoise, SamplesFollowTheDistribution) {
  OptimizerSetup s = setup_for(3, {{"samples", 4000}, {"variance0", 9}});
  s.x0 = Vector::Constant(kDim, 3.0);
  CrossEntropy ce(s);
  const Matrix X = ce.ask();
  const Vector mean = X.rowwise().mean();
  EXPECT_LT((mean - s.x0).cwiseAbs().maxCoeff(), 0.2);
  EXPECT_NEAR(ce.spread(), 3.0, 1e-12);
  EXPECT_NEAR(pop::mean_coordinate_std(X), 3.0, 0.15);
}

TEST(GeneticOperators, SbxAndMutationStayInBounds) {
  Random rng = Random::from_seed(42);
  const double low = -2.0, high = 3.0;
  for (double eta : {0.0, 0.5, 2.0, 15.0, 100.0}) {
    for (int trial = 0; trial < 3000; ++trial) {
      Vector a(kDim), b(kDim);
      for (int i = 0; i < kDim; ++i) {
        // Parents at the bounds now and then, the hardest case for the bounded formulas.
        a[i] = trial % 7 == 0 ? low : rng.uniform(low, high);
        b[i] = trial % 11 == 0 ? high : rng.uniform(low, high);
      }
      auto [c1, c2] = sbx_crossover(a, b, low, high, eta, rng);
      for (const Vector* c : {&c1, &c2}) {
        EXPECT_GE(c->minCoeff(), low);
        EXPECT_LE(c->maxCoeff(), high);
        EXPECT_TRUE(c->allFinite());
      }
      polynomial_mutation(c1, low, high, eta, 1.0, rng);
      EXPECT_GE(c1.minCoeff(), low);
      EXPECT_LE(c1.maxCoeff(), high);
      EXPECT_TRUE(c1.allFinite());
    }
  }
}

TEST(GeneticOperators, SbxKeepsTheParentsMeanAwayFromBounds) {
  Random rng = Random::from_seed(4);
  Vector a = Vector::Constant(kDim, -0.01), b = Vector::Constant(kDim, 0.01);
  auto [c1, c2] = sbx_crossover(a, b, -1e6, 1e6, 15.0, rng);
  EXPECT_LT(((c1 + c2) - (a + b)).cwiseAbs().maxCoeff(), 1e-9);
  EXPECT_FALSE(c1 == a);  // some variable crossed
}

TEST(GeneticOperators, GaCandidatesStayInTheBox) {
  auto ga = make_optimizer("ga", setup_for(3, {{"low", -1}, {"high", 2}}));
  for (int g = 0; g < 20; ++g) {
    const Matrix X = ga->ask();
    EXPECT_GE(X.minCoeff(), -1.0);
    EXPECT_LE(X.maxCoeff(), 2.0);
    step(*ga, sphere);
  }
}

TEST(LeeGa, CandidatesHaveUnitNorm) {
  auto lee = make_optimizer("ga-lee", setup_for(8, {{"mutation_prob", 0.5}}));
  for (int g = 0; g < 30; ++g) {
    const Matrix X = lee->ask();
    for (Eigen::Index k = 0; k < X.cols(); ++k) EXPECT_NEAR(X.col(k).norm(), 1.0, 1e-12);
    step(*lee, lee_objective);
  }
  const Matrix& population = dynamic_cast<LeeGa&>(*lee).population();
  for (Eigen::Index k = 0; k < population.cols(); ++k)
    EXPECT_NEAR(population.col(k).norm(), 1.0, 1e-12);
}

// Only the weakest 30% are replaced: the best member survives a generation of bad offspring.
TEST(LeeGa, ReplacesTheWeakest) {
  LeeGa lee(setup_for(2));
  step(lee, lee_objective);
  const double best_before = lee.fitness().minCoeff();
  const Matrix offspring = lee.ask();
  lee.tell(offspring, Vector::Constant(offspring.cols(), 100.0));
  EXPECT_EQ(lee.fitness().minCoeff(), best_before);
  EXPECT_EQ((lee.fitness().array() == 100.0).count(), 30);
}

TEST(Pso, BallSamplesStayWithinTheRadius) {
  Random rng = Random::from_seed(6);
  for (BallSampling how : {BallSampling::radius, BallSampling::volume}) {
    for (int dim : {1, 2, 3, 7}) {
      const Vector centre = Vector::LinSpaced(dim, -1.0, 2.0);
      const double radius = 0.75;
      int inner = 0;
      const int n = 20000;
      for (int i = 0; i < n; ++i) {
        const double r = (sample_in_ball(centre, radius, how, rng) - centre).norm();
        EXPECT_LE(r, radius * (1.0 + 1e-12));
        inner += r <= radius / 2.0;
      }
      // Within half the radius: half of the points if the radius is uniform, 2^-dim if the
      // points are uniform in the volume.
      const double share = how == BallSampling::radius ? 0.5 : std::pow(0.5, dim);
      EXPECT_NEAR(static_cast<double>(inner) / n, share, 0.015) << dim;
    }
    EXPECT_TRUE(sample_in_ball(Vector::Ones(3), 0.0, how, rng) == Vector::Ones(3));
  }
}

TEST(Pso, ParticlesStayInTheBox) {
  for (const char* name : {"pso", "pso-article1"}) {
    auto opt = make_optimizer(name, setup_for(3, {{"low", -1}, {"high", 1}}));
    for (int g = 0; g < 30; ++g) {
      const Matrix X = opt->ask();
      EXPECT_GE(X.minCoeff(), -1.0) << name;
      EXPECT_LE(X.maxCoeff(), 1.0) << name;
      step(*opt, sphere);  // the optimum (3, ..., 3) lies outside: particles hit the bound
    }
    EXPECT_NEAR(opt->best_f(), 4.0 * kDim, 1e-6) << name;
  }
}

TEST(Pso, Article1VelocitiesAreClamped) {
  auto opt = make_optimizer("pso-article1", setup_for(4));
  auto& swarm = dynamic_cast<ParticleSwarm&>(*opt);
  EXPECT_LE(swarm.ask().cwiseAbs().maxCoeff(), 1.0);  // initial box [-1, 1]
  for (int g = 0; g < 20; ++g) {
    step(*opt, sphere);
    opt->ask();
    EXPECT_LE(swarm.velocities().cwiseAbs().maxCoeff(), 2.0);
  }
}

}  // namespace
}  // namespace tb::opt
