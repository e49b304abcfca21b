// Noisy cross-entropy method (Szita & Lorincz 2006, "Learning Tetris Using the Noisy
// Cross-Entropy Method", Neural Computation 18(12)), with the settings Thiery & Scherrer used
// for BCTS (2009, "Building Controllers for Tetris", ICGA Journal 32(1)): one independent
// Gaussian per weight, mean 0, variance 100, 100 samples, the best 10% refit the mean and
// variance, and noise Z_t is added to the variance after every refit.
#pragma once

#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "optimizer.h"
#include "sampler.h"

namespace tb::opt {

enum class CeNoise { none, constant, decreasing };

// Static parameters (options "samples", "elite", "variance0", "noise", "noise_constant").
struct CeParams {
  int samples = 100;         // n
  int elites = 10;           // round(rho n), at least 1; rho = option "elite" = 0.1
  double variance0 = 100.0;  // initial variance of every weight
  CeNoise noise = CeNoise::constant;
  double noise_constant = 4.0;

  static CeParams from(const OptimizerSetup& setup);
  // Z_t added to every variance after the refit of generation t (t = 0, 1, ...).
  double noise_at(std::int64_t t) const;
};

class CrossEntropy final : public pop::Sampler {
 public:
  explicit CrossEntropy(const OptimizerSetup& setup);

  std::string_view name() const override { return "ce"; }
  Matrix ask() override;
  void tell(const Matrix& X, const Vector& f) override;
  std::optional<Vector> distribution_mean() const override { return mean_; }
  double spread() const override;  // the mean standard deviation of the sampling distribution
  Json state() const override;
  void restore(const Json& state) override;

  const CeParams& params() const { return params_; }
  const Vector& mean() const { return mean_; }
  const Vector& variance() const { return variance_; }

 private:
  CeParams params_;
  Vector mean_;      // (dim)
  Vector variance_;  // (dim)
};

std::unique_ptr<Optimizer> make_cross_entropy(const OptimizerSetup& setup);

}  // namespace tb::opt
