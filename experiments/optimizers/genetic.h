// Genetic algorithms over real vectors.
//
// `ga`: a real-coded GA in the style of Deb's NSGA-II code: binary tournament selection,
// simulated binary crossover (SBX, Deb & Agrawal 1995, "Simulated Binary Crossover for
// Continuous Search Space", Complex Systems 9) and polynomial mutation (Deb & Goyal 1996,
// "A Combined Genetic Adaptive Search (GeneAS) for Engineering Design", Computer Science and
// Informatics 26), both in their bounded forms (Deb 2001, "Multi-Objective Optimization using
// Evolutionary Algorithms", sections 4.2.1 and 4.2.2), and (mu + lambda) survival.
//
// `ga-lee`: Yiyuan Lee's tuner for his "near perfect" Tetris bot (2013): unit-norm weight
// vectors, 10% tournaments whose best two breed a fitness-weighted average, rare one-component
// mutations, and 30% of the population replaced by offspring every generation.
//
// Both evaluate the whole initial population in generation 0 and only offspring afterwards.
#pragma once

#include <utility>

#include "sampler.h"

namespace tb::opt {

// Bounded SBX on every variable with probability 1/2 (Deb's reference code); children lie in
// [low, high].  Parents outside the bounds are clamped first.
std::pair<Vector, Vector> sbx_crossover(const Vector& a, const Vector& b, double low, double high,
                                        double eta, Random& rng);
// Bounded polynomial mutation of each variable with probability `prob`; x stays in [low, high].
void polynomial_mutation(Vector& x, double low, double high, double eta, double prob, Random& rng);

// The population, its objective values and the generation loop shared by both GAs.
class PopulationOptimizer : public pop::Sampler {
 public:
  Matrix ask() override;
  void tell(const Matrix& X, const Vector& f) override;
  double spread() const override;  // the mean per-coordinate std. dev. of the population
  Json state() const override;
  void restore(const Json& state) override;

  const Matrix& population() const { return population_; }
  const Vector& fitness() const { return fitness_; }

 protected:
  PopulationOptimizer(const OptimizerSetup& setup, int mu, int lambda);
  virtual Matrix breed() = 0;                                     // (dim, lambda) offspring
  virtual void survive(const Matrix& X, const Vector& f) = 0;    // merge told offspring

  int mu_, lambda_;
  Matrix population_;  // (dim, mu)
  Vector fitness_;     // (mu), +inf before generation 0 is told; pending_ holds mu or lambda
};

struct GaParams {
  int population = 100;
  double low = -5.0, high = 5.0;  // SBX and mutation bounds, the initial box
  double crossover_prob = 0.9;
  double eta_c = 15.0;
  double eta_m = 20.0;
  double mutation_prob = 0.0;  // per variable; 1/dim by default

  static GaParams from(const OptimizerSetup& setup);
};

class RealCodedGa final : public PopulationOptimizer {
 public:
  explicit RealCodedGa(const OptimizerSetup& setup);
  std::string_view name() const override { return "ga"; }
  const GaParams& params() const { return params_; }

 private:
  explicit RealCodedGa(const OptimizerSetup& setup, const GaParams& params);
  Matrix breed() override;
  void survive(const Matrix& X, const Vector& f) override;
  int tournament();

  GaParams params_;
};

struct LeeParams {
  int population = 100;
  int tournament = 10;      // round(0.1 population), at least 2
  int offspring = 30;       // round(0.3 population), at least 1
  double mutation_prob = 0.05;
  double mutation_step = 0.2;

  static LeeParams from(const OptimizerSetup& setup);
};

// Lee's breeding weight of a candidate: max(-f, kLeeMinScore), so that f = -lines gives his
// "fitness = lines cleared" and a candidate with no lines still gets a tiny positive weight.
inline constexpr double kLeeMinScore = 1e-12;

class LeeGa final : public PopulationOptimizer {
 public:
  explicit LeeGa(const OptimizerSetup& setup);
  std::string_view name() const override { return "ga-lee"; }
  const LeeParams& params() const { return params_; }

 private:
  explicit LeeGa(const OptimizerSetup& setup, const LeeParams& params);
  Matrix breed() override;
  void survive(const Matrix& X, const Vector& f) override;

  LeeParams params_;
};

std::unique_ptr<Optimizer> make_genetic(const OptimizerSetup& setup);
std::unique_ptr<Optimizer> make_lee_genetic(const OptimizerSetup& setup);

}  // namespace tb::opt
