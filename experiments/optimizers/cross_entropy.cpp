#include "cross_entropy.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace tb::opt {


CeParams CeParams::from(const OptimizerSetup& setup) {
  pop::check_setup("ce", setup);
  const pop::Options o("ce", setup.options,
                       {"samples", "elite", "variance0", "noise", "noise_constant"});
  CeParams p;
  p.samples = o.integer("samples", p.samples);
  o.require(p.samples >= 1, "samples", "must be at least 1");
  const double rho = o.number("elite", 0.1);
  o.require(rho > 0.0 && rho <= 1.0, "elite", "must be in (0, 1]");
  p.elites = std::max(1, static_cast<int>(std::lround(rho * p.samples)));
  p.variance0 = o.number("variance0", p.variance0);
  o.require(p.variance0 > 0.0, "variance0", "must be positive");
  const std::string noise = o.text("noise", "constant");
  if (noise == "none") p.noise = CeNoise::none;
  else if (noise == "constant") p.noise = CeNoise::constant;
  else if (noise == "decreasing") p.noise = CeNoise::decreasing;
  else o.require(false, "noise", "must be none, constant or decreasing");
  p.noise_constant = o.number("noise_constant", p.noise_constant);
  o.require(p.noise_constant >= 0.0, "noise_constant", "must be >= 0");
  return p;
}

double CeParams::noise_at(std::int64_t t) const {
  switch (noise) {
    case CeNoise::none: return 0.0;
    case CeNoise::constant: return noise_constant;
    case CeNoise::decreasing: return std::max(5.0 - static_cast<double>(t) / 10.0, 0.0);
  }
  return 0.0;
}

CrossEntropy::CrossEntropy(const OptimizerSetup& setup)
    : pop::Sampler(setup), params_(CeParams::from(setup)),
      mean_(setup.x0.size() ? setup.x0 : Vector::Zero(setup.dim)),
      variance_(Vector::Constant(setup.dim, params_.variance0)) {}

Matrix CrossEntropy::ask() {
  if (pending_.cols() > 0) return pending_;
  Matrix X(setup_.dim, params_.samples);  // (dim, n), one sample per column
  for (Eigen::Index k = 0; k < X.cols(); ++k)
    for (Eigen::Index i = 0; i < X.rows(); ++i)
      X(i, k) = mean_[i] + std::sqrt(variance_[i]) * rng_.normal();
  pending_ = X;
  return X;
}

// Szita & Lorincz 2006, Table 1: mu = mean of the elite, sigma^2 = their variance + Z_t.
void CrossEntropy::tell(const Matrix& X, const Vector& f) {
  pop::check_told(name(), X, f, setup_.dim, params_.samples);
  const std::vector<int> order = pop::ranking(record_.observe(X, f));
  const int e = params_.elites;
  const double noise = params_.noise_at(generation_);
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    double mean = 0.0, sq = 0.0;
    for (int r = 0; r < e; ++r) mean += X(i, order[r]);
    mean /= e;
    for (int r = 0; r < e; ++r) sq += (X(i, order[r]) - mean) * (X(i, order[r]) - mean);
    mean_[i] = mean;
    variance_[i] = sq / e + noise;
  }
  ++generation_;
  pending_.resize(setup_.dim, 0);
}

double CrossEntropy::spread() const {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < variance_.size(); ++i) sum += std::sqrt(variance_[i]);
  return sum / static_cast<double>(variance_.size());
}

Json CrossEntropy::state() const {
  return state_with({{"mean", pop::json_vector(mean_)}, {"variance", pop::json_vector(variance_)}});
}

void CrossEntropy::restore(const Json& state) {
  restore_with(state, [&](const Json& j, Eigen::Index, std::int64_t) {
    Vector mean = pop::vector_from_json(j.at("mean"));
    Vector variance = pop::vector_from_json(j.at("variance"));
    if (mean.size() != setup_.dim || variance.size() != setup_.dim)
      throw OptimizerError("ce: bad state: mean or variance has the wrong dimension");
    if ((variance.array() < 0.0).any()) throw OptimizerError("ce: bad state: a variance is negative");
    return [this, mean = std::move(mean), variance = std::move(variance)]() mutable {
      mean_ = std::move(mean);
      variance_ = std::move(variance);
    };
  });
}

std::unique_ptr<Optimizer> make_cross_entropy(const OptimizerSetup& setup) {
  return std::make_unique<CrossEntropy>(setup);
}

}  // namespace tb::opt
