#include "genetic.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tb::opt {
namespace {

double clamp(double v, double low, double high) { return std::min(std::max(v, low), high); }

// The SBX spread factor beta_q for a child on one side of the parents (Deb 2001, eq. 4.9 with
// the bounded correction): `beta` = 1 + 2 (distance from the nearer parent to the bound) /
// (distance between the parents), so the child's probability mass stays inside the bound.
double sbx_beta_q(double beta, double u, double eta) {
  const double alpha = 2.0 - std::pow(beta, -(eta + 1.0));
  if (u <= 1.0 / alpha) return std::pow(u * alpha, 1.0 / (eta + 1.0));
  return std::pow(1.0 / (2.0 - u * alpha), 1.0 / (eta + 1.0));
}

double l2_norm(const Vector& v) {
  double sq = 0.0;
  for (Eigen::Index i = 0; i < v.size(); ++i) sq += v[i] * v[i];
  return std::sqrt(sq);
}

// v / |v|, or `fallback` when v is the zero vector.
Vector normalized_or(const Vector& v, const Vector& fallback) {
  const double n = l2_norm(v);
  return n > 0.0 ? Vector(v / n) : fallback;
}

}  // namespace

std::pair<Vector, Vector> sbx_crossover(const Vector& a, const Vector& b, double low, double high,
                                        double eta, Random& rng) {
  Vector c1 = a, c2 = b;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    if (rng.uniform() >= 0.5) continue;
    const double y1 = clamp(std::min(a[i], b[i]), low, high);
    const double y2 = clamp(std::max(a[i], b[i]), low, high);
    if (y2 - y1 <= 1e-14) continue;
    const double u = rng.uniform();
    const double gap = y2 - y1;
    const double lo = 0.5 * ((y1 + y2) - sbx_beta_q(1.0 + 2.0 * (y1 - low) / gap, u, eta) * gap);
    const double hi = 0.5 * ((y1 + y2) + sbx_beta_q(1.0 + 2.0 * (high - y2) / gap, u, eta) * gap);
    const bool swap = rng.uniform() < 0.5;
    c1[i] = clamp(swap ? hi : lo, low, high);
    c2[i] = clamp(swap ? lo : hi, low, high);
  }
  return {c1, c2};
}

// Deb 2001, section 4.2.2, in the bounded form of Deb's NSGA-II code: delta_q is drawn so that
// x + delta_q (high - low) cannot leave [low, high].
void polynomial_mutation(Vector& x, double low, double high, double eta, double prob, Random& rng) {
  const double range = high - low;
  const double power = 1.0 / (eta + 1.0);
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    if (rng.uniform() >= prob) continue;
    const double y = clamp(x[i], low, high);
    const double u = rng.uniform();
    double delta_q;
    if (u < 0.5) {
      const double reach = 1.0 - (y - low) / range;
      const double v = 2.0 * u + (1.0 - 2.0 * u) * std::pow(reach, eta + 1.0);
      delta_q = std::pow(v, power) - 1.0;
    } else {
      const double reach = 1.0 - (high - y) / range;
      const double v = 2.0 * (1.0 - u) + 2.0 * (u - 0.5) * std::pow(reach, eta + 1.0);
      delta_q = 1.0 - std::pow(v, power);
    }
    x[i] = clamp(y + delta_q * range, low, high);
  }
}

// ---- the generation loop --------------------------------------------------------------------

PopulationOptimizer::PopulationOptimizer(const OptimizerSetup& setup, int mu, int lambda)
    : pop::Sampler(setup), mu_(mu), lambda_(lambda), population_(setup.dim, mu),
      fitness_(Vector::Constant(mu, pop::kInf)) {}

Matrix PopulationOptimizer::ask() {
  if (pending_.cols() == 0) pending_ = generation_ == 0 ? population_ : breed();
  return pending_;
}

void PopulationOptimizer::tell(const Matrix& X, const Vector& f) {
  pop::check_told(name(), X, f, setup_.dim, generation_ == 0 ? mu_ : lambda_);
  const Vector clean = record_.observe(X, f);
  if (generation_ == 0) {
    population_ = X;
    fitness_ = clean;
  } else {
    survive(X, clean);
  }
  ++generation_;
  pending_.resize(setup_.dim, 0);
}

double PopulationOptimizer::spread() const { return pop::mean_coordinate_std(population_); }

Json PopulationOptimizer::state() const {
  return state_with({{"population", pop::json_matrix(population_)}, {"fitness", pop::json_vector(fitness_)}});
}

void PopulationOptimizer::restore(const Json& state) {
  restore_with(state, [&](const Json& j, Eigen::Index pending, std::int64_t generation) {
    Matrix population = pop::matrix_from_json(j.at("population"), setup_.dim);
    Vector fitness = pop::objective_vector_from_json(j.at("fitness"));
    const Eigen::Index expected = generation == 0 ? mu_ : lambda_;
    if (population.cols() != mu_ || fitness.size() != mu_ || (pending != 0 && pending != expected))
      throw OptimizerError(std::string(name()) + ": bad state: the population size differs from the options");
    return [this, population = std::move(population), fitness = std::move(fitness)]() mutable {
      population_ = std::move(population);
      fitness_ = std::move(fitness);
    };
  });
}

// ---- ga ---------------------------------------------------------------------------------

GaParams GaParams::from(const OptimizerSetup& setup) {
  pop::check_setup("ga", setup);
  const pop::Options o("ga", setup.options,
                       {"population", "low", "high", "crossover_prob", "eta_c", "eta_m",
                        "mutation_prob"});
  GaParams p;
  p.population = o.integer("population", p.population);
  o.require(p.population >= 2, "population", "must be at least 2");
  p.low = o.number("low", setup.init_low);
  p.high = o.number("high", setup.init_high);
  o.require(p.low < p.high, "low", "must be below high");
  p.crossover_prob = o.number("crossover_prob", p.crossover_prob);
  o.require(p.crossover_prob >= 0.0 && p.crossover_prob <= 1.0, "crossover_prob",
            "must be in [0, 1]");
  p.eta_c = o.number("eta_c", p.eta_c);
  o.require(p.eta_c >= 0.0, "eta_c", "must be >= 0");
  p.eta_m = o.number("eta_m", p.eta_m);
  o.require(p.eta_m >= 0.0, "eta_m", "must be >= 0");
  p.mutation_prob = o.number("mutation_prob", 1.0 / setup.dim);
  o.require(p.mutation_prob >= 0.0 && p.mutation_prob <= 1.0, "mutation_prob", "must be in [0, 1]");
  return p;
}

RealCodedGa::RealCodedGa(const OptimizerSetup& setup) : RealCodedGa(setup, GaParams::from(setup)) {}

RealCodedGa::RealCodedGa(const OptimizerSetup& setup, const GaParams& params)
    : PopulationOptimizer(setup, params.population, params.population), params_(params) {
  for (Eigen::Index k = 0; k < population_.cols(); ++k)
    for (Eigen::Index i = 0; i < population_.rows(); ++i)
      population_(i, k) = rng_.uniform(params_.low, params_.high);
}

// Binary tournament: two distinct members drawn uniformly, the lower f wins (the first on ties).
int RealCodedGa::tournament() {
  const int i = static_cast<int>(rng_.below(static_cast<std::uint32_t>(mu_)));
  int j = static_cast<int>(rng_.below(static_cast<std::uint32_t>(mu_ - 1)));
  if (j >= i) ++j;
  return fitness_[j] < fitness_[i] ? j : i;
}

Matrix RealCodedGa::breed() {
  Matrix Y(setup_.dim, lambda_);  // (dim, lambda)
  for (int k = 0; k < lambda_; k += 2) {
    const Vector a = population_.col(tournament());
    const Vector b = population_.col(tournament());
    auto [c1, c2] = rng_.uniform() < params_.crossover_prob
                        ? sbx_crossover(a, b, params_.low, params_.high, params_.eta_c, rng_)
                        : std::pair<Vector, Vector>{a, b};
    polynomial_mutation(c1, params_.low, params_.high, params_.eta_m, params_.mutation_prob, rng_);
    polynomial_mutation(c2, params_.low, params_.high, params_.eta_m, params_.mutation_prob, rng_);
    Y.col(k) = c1;
    if (k + 1 < lambda_) Y.col(k + 1) = c2;
  }
  return Y;
}

// (mu + lambda): the best mu of parents and offspring; on ties parents come first.
void RealCodedGa::survive(const Matrix& X, const Vector& f) {
  Matrix all(setup_.dim, mu_ + lambda_);
  all << population_, X;
  Vector all_f(mu_ + lambda_);
  all_f << fitness_, f;
  const std::vector<int> order = pop::ranking(all_f);
  for (int r = 0; r < mu_; ++r) {
    population_.col(r) = all.col(order[r]);
    fitness_[r] = all_f[order[r]];
  }
}

// ---- ga-lee -----------------------------------------------------------------------------

LeeParams LeeParams::from(const OptimizerSetup& setup) {
  pop::check_setup("ga-lee", setup);
  const pop::Options o("ga-lee", setup.options,
                       {"population", "tournament", "replace", "mutation_prob", "mutation_step"});
  LeeParams p;
  p.population = o.integer("population", p.population);
  o.require(p.population >= 2, "population", "must be at least 2");
  const double tournament = o.number("tournament", 0.1);
  o.require(tournament > 0.0 && tournament <= 1.0, "tournament", "must be in (0, 1]");
  p.tournament =
      std::clamp(static_cast<int>(std::lround(tournament * p.population)), 2, p.population);
  const double replace = o.number("replace", 0.3);
  o.require(replace > 0.0 && replace <= 1.0, "replace", "must be in (0, 1]");
  p.offspring = std::max(1, static_cast<int>(std::lround(replace * p.population)));
  p.mutation_prob = o.number("mutation_prob", p.mutation_prob);
  o.require(p.mutation_prob >= 0.0 && p.mutation_prob <= 1.0, "mutation_prob", "must be in [0, 1]");
  p.mutation_step = o.number("mutation_step", p.mutation_step);
  o.require(p.mutation_step >= 0.0, "mutation_step", "must be >= 0");
  return p;
}

LeeGa::LeeGa(const OptimizerSetup& setup) : LeeGa(setup, LeeParams::from(setup)) {}

// Lee: each weight uniform in [-0.5, 0.5], then the vector is normalized (redrawn if zero).
LeeGa::LeeGa(const OptimizerSetup& setup, const LeeParams& params)
    : PopulationOptimizer(setup, params.population, params.offspring), params_(params) {
  Vector v(setup_.dim);
  for (Eigen::Index k = 0; k < population_.cols(); ++k) {
    double norm = 0.0;
    while (norm == 0.0) {
      for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = rng_.uniform(-0.5, 0.5);
      norm = l2_norm(v);
    }
    population_.col(k) = v / norm;
  }
}

Matrix LeeGa::breed() {
  Matrix Y(setup_.dim, lambda_);  // (dim, offspring)
  std::vector<int> members(static_cast<std::size_t>(mu_));
  for (int k = 0; k < lambda_; ++k) {
    // A tournament of `tournament` distinct members (partial Fisher-Yates); the best two breed.
    std::iota(members.begin(), members.end(), 0);
    int first = -1, second = -1;
    for (int t = 0; t < params_.tournament; ++t) {
      const int pick = t + static_cast<int>(rng_.below(static_cast<std::uint32_t>(mu_ - t)));
      std::swap(members[t], members[pick]);
      const int m = members[t];
      if (first < 0 || fitness_[m] < fitness_[first]) {
        second = first;
        first = m;
      } else if (second < 0 || fitness_[m] < fitness_[second]) {
        second = m;
      }
    }
    // Lee's crossover: the fitness-weighted average of the parents, normalized.
    const double s1 = std::max(-fitness_[first], kLeeMinScore);
    const double s2 = std::max(-fitness_[second], kLeeMinScore);
    const Vector p1 = population_.col(first), p2 = population_.col(second);
    Vector child = normalized_or((s1 / (s1 + s2)) * p1 + (s2 / (s1 + s2)) * p2, p1);
    // Lee's mutation: one random component moves by up to +-mutation_step, then normalize.
    if (rng_.uniform() < params_.mutation_prob) {
      Vector mutant = child;
      mutant[rng_.below(static_cast<std::uint32_t>(setup_.dim))] +=
          rng_.uniform(-params_.mutation_step, params_.mutation_step);
      child = normalized_or(mutant, child);
    }
    Y.col(k) = child;
  }
  return Y;
}

// Lee's "delete the n last" replacement: the weakest `offspring` members give way to the
// offspring, whatever their values.  Survivors keep their rank order, offspring follow.
void LeeGa::survive(const Matrix& X, const Vector& f) {
  const std::vector<int> order = pop::ranking(fitness_);
  const Matrix old = population_;
  const Vector old_f = fitness_;
  const int keep = mu_ - lambda_;
  for (int r = 0; r < keep; ++r) {
    population_.col(r) = old.col(order[r]);
    fitness_[r] = old_f[order[r]];
  }
  population_.rightCols(lambda_) = X;
  fitness_.tail(lambda_) = f;
}

std::unique_ptr<Optimizer> make_genetic(const OptimizerSetup& setup) {
  return std::make_unique<RealCodedGa>(setup);
}

std::unique_ptr<Optimizer> make_lee_genetic(const OptimizerSetup& setup) {
  return std::make_unique<LeeGa>(setup);
}

}  // namespace tb::opt
