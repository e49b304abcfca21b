// What the optimizers share: option reading, exact JSON encoding of their state, best-so-far
// bookkeeping, argument checks and the evaluation-budget stop.
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
double number_from_json(const Json& j);  // an objective value: finite, +inf (null) or -inf
Json json_vector(const Vector& v);
Vector vector_from_json(const Json& j);            // finite numbers only (points, steps, variances)
Vector objective_vector_from_json(const Json& j);  // objective values (may be +-inf)
// A non-negative count (generation, evaluations, restarts) of a state: an integer in
// [0, 2^62]; anything else (negative, fractional, wrapped past 2^32) is an OptimizerError.
std::int64_t count_from_json(const Json& j, std::string_view key);
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

}  // namespace tb::opt
