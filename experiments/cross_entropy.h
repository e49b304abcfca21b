// Noisy cross-entropy method (Szita & Lorincz 2006, "Learning Tetris Using the Noisy
// Cross-Entropy Method", Neural Computation 18(12)), with the settings Thiery & Scherrer used
// for BCTS (2009, "Building Controllers for Tetris", ICGA Journal 32(1)): one independent
// Gaussian per weight, mean 0, variance 100, 100 samples, the best 10% refit the mean and
// variance, and noise Z_t is added to the variance after every refit.
//
// The namespace `pop` holds what the population optimizers (ce, ga, ga-lee, pso,
// pso-article1) share: option reading, JSON encoding of their state, best-so-far bookkeeping.
#pragma once

#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "optimizer.h"

namespace tb::opt {
namespace pop {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// OptimizerSetup::options of one optimizer: every key must be in `known`, and each value
// must have the right type; anything else is an OptimizerError naming the optimizer and key.
class Options {
 public:
  Options(std::string_view optimizer, const Json& options,
          std::initializer_list<std::string_view> known);
  double number(std::string_view key, double fallback) const;
  int integer(std::string_view key, int fallback) const;
  std::string text(std::string_view key, const std::string& fallback) const;
  void require(bool ok, std::string_view key, std::string_view what) const;

 private:
  const Json* find(std::string_view key) const;
  std::string optimizer_;
  Json options_;
};

// Objective values and states in JSON: +inf is null and -inf the string "-inf" (JSON has
// neither); finite doubles round-trip exactly through dump() and parse().
Json json_number(double v);
double number_from_json(const Json& j);
Json json_vector(const Vector& v);
Vector vector_from_json(const Json& j);
Json json_matrix(const Matrix& m);  // an array of columns (candidates)
Matrix matrix_from_json(const Json& j, int rows);

// The best candidate told so far (the first one on ties) and the evaluation count.
struct Record {
  Vector best_x;
  double best_f = kInf;
  std::int64_t evaluations = 0;

  // Counts the columns of X and returns f with NaN replaced by +inf (NaN ranks last).
  Vector observe(const Matrix& X, const Vector& f);
  // Writes and reads the keys best_x, best_f and evaluations of an optimizer's state.
  void save_to(Json& state) const;
  void restore(const Json& state);
};

void check_setup(std::string_view optimizer, const OptimizerSetup& setup);
// tell() must receive `lambda` candidates of dimension `dim` and one value per candidate.
void check_told(std::string_view optimizer, const Matrix& X, const Vector& f, int dim,
                Eigen::Index lambda);
// The "optimizer" and "dim" entries of a state must match the optimizer restoring it.
void check_state(std::string_view optimizer, const Json& state, int dim);
// ["MaxEvals"] once setup.max_evals (if > 0) evaluations have been told.
std::vector<std::string> budget_stop(const OptimizerSetup& setup, std::int64_t evaluations);
// The mean over coordinates of the (population, divide-by-n) standard deviation of the columns.
double mean_coordinate_std(const Matrix& X);
// Indices 0..n-1 sorted by f ascending; ties keep index order.
std::vector<int> ranking(const Vector& f);

}  // namespace pop

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

class CrossEntropy final : public Optimizer {
 public:
  explicit CrossEntropy(const OptimizerSetup& setup);

  std::string_view name() const override { return "ce"; }
  Matrix ask() override;
  void tell(const Matrix& X, const Vector& f) override;
  std::vector<std::string> stop() const override;
  Vector best_x() const override { return record_.best_x; }
  double best_f() const override { return record_.best_f; }
  std::int64_t evaluations() const override { return record_.evaluations; }
  double spread() const override;  // the mean standard deviation of the sampling distribution
  Json state() const override;
  void restore(const Json& state) override;

  const CeParams& params() const { return params_; }
  const Vector& mean() const { return mean_; }
  const Vector& variance() const { return variance_; }
  std::int64_t generation() const { return generation_; }

 private:
  OptimizerSetup setup_;
  CeParams params_;
  Vector mean_;      // (dim)
  Vector variance_;  // (dim)
  std::int64_t generation_ = 0;
  pop::Record record_;
  Random rng_;
  Matrix pending_;  // (dim, samples) asked and not yet told, or (dim, 0)
};

std::unique_ptr<Optimizer> make_cross_entropy(const OptimizerSetup& setup);

}  // namespace tb::opt
