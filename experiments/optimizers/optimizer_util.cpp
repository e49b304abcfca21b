#include "optimizer_util.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "input_limits.h"

namespace tb::opt {

namespace pop {

Options::Options(std::string_view optimizer, const Json& options,
                 std::initializer_list<std::string_view> known)
    : optimizer_(optimizer), options_(options.is_null() ? Json::object() : options) {
  if (!options_.is_object()) throw OptimizerError(optimizer_ + ": options must be a table");
  for (const auto& [key, value] : options_.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    throw OptimizerError(optimizer_ + ": unknown option '" + key + "' (known: " +
                         (list.empty() ? "none" : list) + ")");
  }
}

const Json* Options::find(std::string_view key) const {
  const auto it = options_.find(std::string(key));
  return it == options_.end() ? nullptr : &*it;
}

void Options::require(bool ok, std::string_view key, std::string_view what) const {
  if (!ok)
    throw OptimizerError(optimizer_ + ": option '" + std::string(key) + "' " + std::string(what));
}

double Options::number(std::string_view key, double fallback) const {  // finite
  const Json* j = find(key);
  if (!j) return fallback;
  require(j->is_number(), key, "must be a number");
  const double v = j->get<double>();
  require(std::isfinite(v), key, "must be finite");
  return v;
}

int Options::integer(std::string_view key, int fallback) const {
  const Json* j = find(key);
  if (!j) return fallback;
  // A JSON or TOML integer: 20.0 or 1e1 is a float, refused as a float is for every other
  // count of a config (experiment_config.cpp Table::integer).
  require(j->is_number_integer(), key,
          std::string("must be an integer, not ") + (j->is_number_float() ? "a float" : j->type_name()));
  const double v = j->get<double>();  // an unsigned value past int64 stays large
  require(std::abs(v) <= static_cast<double>(limits::kMaxPopulation), key,
          "must be at most " + std::to_string(limits::kMaxPopulation) + " in size");
  return static_cast<int>(v);
}

std::string Options::text(std::string_view key, const std::string& fallback) const {
  const Json* j = find(key);
  if (!j) return fallback;
  require(j->is_string(), key, "must be a string");
  return j->get<std::string>();
}

Json json_number(double v) {
  if (v == kInf) return nullptr;
  if (v == -kInf) return "-inf";
  return v;
}

double number_from_json(const Json& j) {
  if (j.is_null()) return kInf;
  if (j.is_string() && j.get<std::string>() == "-inf") return -kInf;
  if (!j.is_number()) throw OptimizerError("bad state: expected a number, null (+inf) or \"-inf\"");
  return j.get<double>();
}

std::int64_t count_from_json(const Json& j, std::string_view key) {
  const Json& v = j.at(std::string(key));
  if (!v.is_number_integer() || (v.is_number_unsigned() ? v.get<std::uint64_t>() > (std::uint64_t{1} << 62)
                                                          : v.get<std::int64_t>() < 0))
    throw OptimizerError("bad state: '" + std::string(key) + "' must be an integer in [0, 2^62]");
  return v.get<std::int64_t>();
}

Json json_vector(const Vector& v) {
  Json a = Json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(json_number(v[i]));
  return a;
}

Vector objective_vector_from_json(const Json& j) {
  if (!j.is_array()) throw OptimizerError("bad state: expected an array of numbers");
  Vector v(static_cast<Eigen::Index>(j.size()));
  for (Eigen::Index i = 0; i < v.size(); ++i)
    v[i] = number_from_json(j[static_cast<std::size_t>(i)]);
  return v;
}

Vector vector_from_json(const Json& j) {
  if (!j.is_array()) throw OptimizerError("bad state: expected an array of numbers");
  Vector v(static_cast<Eigen::Index>(j.size()));
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const Json& x = j[static_cast<std::size_t>(i)];
    if (!x.is_number() || !std::isfinite(x.get<double>()))
      throw OptimizerError("bad state: expected finite numbers (a point, step or variance)");
    v[i] = x.get<double>();
  }
  return v;
}

Json json_matrix(const Matrix& m) {
  Json a = Json::array();
  for (Eigen::Index k = 0; k < m.cols(); ++k) a.push_back(json_vector(m.col(k)));
  return a;
}

Matrix matrix_from_json(const Json& j, int rows) {
  if (!j.is_array()) throw OptimizerError("bad state: expected an array of columns");
  Matrix m(rows, static_cast<Eigen::Index>(j.size()));
  for (Eigen::Index k = 0; k < m.cols(); ++k) {
    const Vector c = vector_from_json(j[static_cast<std::size_t>(k)]);
    if (c.size() != rows) throw OptimizerError("bad state: a column has the wrong dimension");
    m.col(k) = c;
  }
  return m;
}

Vector Record::observe(const Matrix& X, const Vector& f) {
  Vector clean = f;
  for (Eigen::Index k = 0; k < f.size(); ++k) {
    if (std::isnan(clean[k])) clean[k] = kInf;
    if (clean[k] < best_f || best_x.size() == 0) {
      best_f = clean[k];
      best_x = X.col(k);
    }
  }
  evaluations += X.cols();
  return clean;
}

void Record::save_to(Json& state) const {
  state["best_x"] = json_vector(best_x);
  state["best_f"] = json_number(best_f);
  state["evaluations"] = evaluations;
}

void Record::restore(const Json& j) {
  best_x = vector_from_json(j.at("best_x"));
  best_f = number_from_json(j.at("best_f"));
  evaluations = count_from_json(j, "evaluations");
}

void check_setup(std::string_view optimizer, const OptimizerSetup& setup) {
  const std::string name(optimizer);
  if (setup.dim <= 0) throw OptimizerError(name + ": the dimension must be positive");
  if (setup.x0.size() != 0 && setup.x0.size() != setup.dim)
    throw OptimizerError(name + ": x0 has " + std::to_string(setup.x0.size()) +
                         " values, expected " + std::to_string(setup.dim));
  if (!(setup.init_low < setup.init_high))
    throw OptimizerError(name + ": init_low must be below init_high");
}

void check_told(std::string_view optimizer, const Matrix& X, const Vector& f, int dim,
                Eigen::Index lambda) {
  if (X.rows() != dim || X.cols() != lambda || f.size() != lambda)
    throw OptimizerError(std::string(optimizer) + ": tell() expects " +
                                std::to_string(lambda) + " candidates of dimension " +
                                std::to_string(dim) + " and one value each");
}

void check_state(std::string_view optimizer, const Json& state, int dim) {
  if (state.at("optimizer") != Json(optimizer) || state.at("dim") != Json(dim))
    throw OptimizerError(std::string(optimizer) +
                         ": the state belongs to another optimizer or dimension");
}

std::vector<std::string> budget_stop(const OptimizerSetup& setup, std::int64_t evaluations) {
  if (setup.max_evals > 0 && evaluations >= setup.max_evals) return {"MaxEvals"};
  return {};
}

double mean_coordinate_std(const Matrix& X) {
  const Eigen::Index n = X.cols();
  if (n == 0 || X.rows() == 0) return 0.0;
  double total = 0.0;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    double mean = 0.0, sq = 0.0;
    for (Eigen::Index k = 0; k < n; ++k) mean += X(i, k);
    mean /= static_cast<double>(n);
    for (Eigen::Index k = 0; k < n; ++k) sq += (X(i, k) - mean) * (X(i, k) - mean);
    total += std::sqrt(sq / static_cast<double>(n));
  }
  return total / static_cast<double>(X.rows());
}

std::vector<int> ranking(const Vector& f) {
  std::vector<int> order(static_cast<std::size_t>(f.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return f[a] < f[b]; });
  return order;
}

}  // namespace pop

}  // namespace tb::opt
