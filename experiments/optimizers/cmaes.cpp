// CMA-ES (cmaes.h).  "eq. (k)" is equation k of Hansen, "The CMA Evolution Strategy: A
// Tutorial", arXiv:1604.00772; "B.2" and "B.3" are sections of its Appendix B.
#include "cmaes.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "input_limits.h"

namespace tb::opt {
namespace {

// C^-1/2 = B D^-1 B^T from the decomposition C = B D^2 B^T (eq. (43) uses it).
Matrix inverse_sqrt(const Matrix& B, const Vector& D) {
  return B * D.cwiseInverse().asDiagonal() * B.transpose();
}

Vector sized(Vector v, int n, const char* what) {
  if (v.size() != n)
    throw OptimizerError(std::string("cmaes: bad state: '") + what + "' has the wrong dimension");
  return v;
}

Matrix square(Matrix m, int n, const char* what) {
  if (m.cols() != n) throw OptimizerError(std::string("cmaes: bad state: '") + what + "' is not square");
  return m;
}

}  // namespace

int cmaes_default_lambda(int n) { return 4 + static_cast<int>(std::floor(3.0 * std::log(n))); }  // eq. (48)

CmaesParameters cmaes_parameters(int n, int lambda, bool active) {
  CmaesParameters p;
  p.n = n;
  p.lambda = lambda;
  p.mu = lambda / 2;
  const double nn = n;
  Vector w_prime(lambda);  // eq. (49): w'_i = ln((lambda + 1) / 2) - ln i
  for (int i = 0; i < lambda; ++i) w_prime[i] = std::log((lambda + 1) / 2.0) - std::log(i + 1.0);
  const Vector pos = w_prime.head(p.mu);
  const Vector neg = w_prime.tail(lambda - p.mu);
  p.mu_eff = pos.sum() * pos.sum() / pos.squaredNorm();
  p.mu_eff_minus = neg.sum() * neg.sum() / neg.squaredNorm();

  constexpr double alpha_cov = 2;
  p.c_m = 1;                                                                       // eq. (54)
  p.c_sigma = (p.mu_eff + 2) / (nn + p.mu_eff + 5);                                // eq. (55)
  p.d_sigma = 1 + 2 * std::max(0.0, std::sqrt((p.mu_eff - 1) / (nn + 1)) - 1) + p.c_sigma;  // eq. (55)
  p.c_c = (4 + p.mu_eff / nn) / (nn + 4 + 2 * p.mu_eff / nn);                      // eq. (56)
  p.c_1 = alpha_cov / ((nn + 1.3) * (nn + 1.3) + p.mu_eff);                        // eq. (57)
  p.c_mu = std::min(1 - p.c_1, alpha_cov * (0.25 + p.mu_eff + 1 / p.mu_eff - 2) /
                                   ((nn + 2) * (nn + 2) + alpha_cov * p.mu_eff / 2));  // eq. (58)

  const double alpha_mu_minus = 1 + p.c_1 / p.c_mu;                                // eq. (50)
  const double alpha_mueff_minus = 1 + 2 * p.mu_eff_minus / (p.mu_eff + 2);        // eq. (51)
  const double alpha_posdef_minus = (1 - p.c_1 - p.c_mu) / (nn * p.c_mu);          // eq. (52)
  const double positive_sum = w_prime.cwiseMax(0.0).sum();
  const double negative_sum = -w_prime.cwiseMin(0.0).sum();
  const double negative_scale =
      active ? std::min({alpha_mu_minus, alpha_mueff_minus, alpha_posdef_minus}) / negative_sum : 0.0;
  p.weights.resize(lambda);
  for (int i = 0; i < lambda; ++i)  // eq. (53)
    p.weights[i] = w_prime[i] >= 0 ? w_prime[i] / positive_sum : negative_scale * w_prime[i];
  p.weight_sum = p.weights.sum();

  p.chi_n = std::sqrt(nn) * (1 - 1 / (4 * nn) + 1 / (21 * nn * nn));
  p.eigen_gap = lambda / ((p.c_1 + p.c_mu) * nn * 10);                             // B.2
  p.history_length = 10 + static_cast<int>(std::ceil(30 * nn / lambda));           // B.3
  return p;
}

Cmaes::Cmaes(const OptimizerSetup& setup, CmaesVariant variant) : setup_(setup), variant_(variant) {
  pop::check_setup(name(), setup);
  if (!(setup.sigma0 > 0) || !std::isfinite(setup.sigma0))
    throw OptimizerError(std::string(name()) + ": sigma0 must be positive and finite");
  const pop::Options options(name(), setup.options, {"lambda"});
  s_.lambda = options.integer("lambda", cmaes_default_lambda(setup.dim));
  options.require(s_.lambda >= 2, "lambda", "must be at least 2");
  s_.random = Random::from_seed(setup.seed);
  start(setup.x0.size() ? setup.x0 : Vector::Zero(setup.dim));
}

std::string_view Cmaes::name() const {
  switch (variant_) {
    case CmaesVariant::active: return "cmaes-active";
    case CmaesVariant::ipop: return "ipop-cmaes";
    case CmaesVariant::standard: break;
  }
  return "cmaes";
}

void Cmaes::start(const Vector& mean) {
  const int n = setup_.dim;
  p_ = cmaes_parameters(n, s_.lambda, variant_ == CmaesVariant::active);
  s_.mean = mean;
  s_.sigma = setup_.sigma0;
  s_.C = Matrix::Identity(n, n);
  s_.B = Matrix::Identity(n, n);
  s_.D = Vector::Ones(n);
  s_.p_sigma = Vector::Zero(n);
  s_.p_c = Vector::Zero(n);
  s_.generation = 0;
  s_.eigen_evaluations = s_.record.evaluations;
  s_.history.clear();
  inv_sqrt_C_ = Matrix::Identity(n, n);
}

Matrix Cmaes::ask() {
  const int n = setup_.dim;
  Matrix Z(n, s_.lambda);  // (n, lambda), column k is z_k ~ N(0, I), eq. (38)
  for (int k = 0; k < s_.lambda; ++k)
    for (int i = 0; i < n; ++i) Z(i, k) = s_.random.normal();
  const Matrix Y = s_.B * s_.D.asDiagonal() * Z;  // y_k = B D z_k ~ N(0, C), eq. (39)
  return (s_.sigma * Y).colwise() + s_.mean;      // x_k = m + sigma y_k, eq. (40)
}

void Cmaes::tell(const Matrix& X, const Vector& f) {
  const int n = setup_.dim;
  pop::check_told(name(), X, f, n, s_.lambda);
  const Vector values = s_.record.observe(X, f);  // f with NaN as +inf; counts the evaluations
  const std::vector<int> order = pop::ranking(values);
  const double generation_best = values[order[0]];

  const CmaesParameters& p = p_;
  const Matrix Y = (X.colwise() - s_.mean) / s_.sigma;  // (n, lambda) y_k = (x_k - m) / sigma
  Vector y_w = Vector::Zero(n);
  for (int i = 0; i < p.mu; ++i) y_w += p.weights[i] * Y.col(order[i]);  // <y>_w, eq. (41)
  s_.mean += p.c_m * s_.sigma * y_w;                                      // eq. (42)

  s_.p_sigma = (1 - p.c_sigma) * s_.p_sigma +
               std::sqrt(p.c_sigma * (2 - p.c_sigma) * p.mu_eff) * (inv_sqrt_C_ * y_w);  // eq. (43)
  const double ps_norm = s_.p_sigma.norm();
  // h_sigma (defined with eqs. (45)-(47)): stalls p_c while ||p_sigma|| is large.
  const double ps_unbiased = ps_norm / std::sqrt(1 - std::pow(1 - p.c_sigma, 2.0 * (s_.generation + 1)));
  const double h_sigma = ps_unbiased < (1.4 + 2.0 / (n + 1)) * p.chi_n ? 1.0 : 0.0;
  s_.p_c = (1 - p.c_c) * s_.p_c + h_sigma * std::sqrt(p.c_c * (2 - p.c_c) * p.mu_eff) * y_w;  // eq. (45)

  update_covariance(Y, order, h_sigma);                                   // eqs. (46), (47)
  s_.sigma *= std::exp(p.c_sigma / p.d_sigma * (ps_norm / p.chi_n - 1));  // eq. (44)

  s_.generation += 1;
  s_.history.push_back(generation_best);
  if (static_cast<int>(s_.history.size()) > p.history_length) s_.history.erase(s_.history.begin());
  if (static_cast<double>(s_.record.evaluations - s_.eigen_evaluations) >= p.eigen_gap) decompose();  // B.2

  const bool out_of_budget = !pop::budget_stop(setup_, s_.record.evaluations).empty();
  if (variant_ == CmaesVariant::ipop && s_.restarts < kMaxRestarts && !out_of_budget &&
      !criteria().empty()) {
    s_.restarts += 1;
    s_.lambda *= 2;  // IPOP: double the population at each restart
    Vector x0(n);
    for (int i = 0; i < n; ++i) x0[i] = s_.random.uniform(setup_.init_low, setup_.init_high);
    start(x0);
  }
}

void Cmaes::update_covariance(const Matrix& Y, const std::vector<int>& order, double h_sigma) {
  const CmaesParameters& p = p_;
  const int n = setup_.dim;
  const double delta_h = (1 - h_sigma) * p.c_c * (2 - p.c_c);  // delta(h_sigma) <= 1
  // Only candidates with a nonzero weight enter the rank-mu term: all lambda when active.
  const int used = variant_ == CmaesVariant::active ? p.lambda : p.mu;
  Matrix Y_used(n, used);  // (n, used) y_{i:lambda}, best first
  Vector w_circ(used);     // w°_i
  for (int i = 0; i < used; ++i) {
    Y_used.col(i) = Y.col(order[i]);
    const double w = p.weights[i];
    const double mahalanobis2 = (inv_sqrt_C_ * Y_used.col(i)).squaredNorm();
    w_circ[i] = w >= 0 ? w : (mahalanobis2 > 0 ? w * n / mahalanobis2 : 0.0);  // eq. (46)
  }
  s_.C *= 1 + p.c_1 * delta_h - p.c_1 - p.c_mu * p.weight_sum;                  // eq. (47), decay
  s_.C.noalias() += p.c_1 * s_.p_c * s_.p_c.transpose();                        // eq. (47), rank one
  s_.C.noalias() += p.c_mu * (Y_used * w_circ.asDiagonal()) * Y_used.transpose();  // eq. (47), rank mu
  for (int j = 0; j < n; ++j)  // the products above may differ in the last bit across the diagonal
    for (int i = j + 1; i < n; ++i) s_.C(i, j) = s_.C(j, i);
}

void Cmaes::decompose() {
  const Eigen::SelfAdjointEigenSolver<Matrix> eigen(s_.C);
  s_.B = eigen.eigenvectors();
  // Eigenvalues are positive in exact arithmetic (eq. (52) keeps active updates definite);
  // a rounding-level negative one becomes the smallest double, and ConditionCov fires.
  s_.D = eigen.eigenvalues().cwiseMax(std::numeric_limits<double>::min()).cwiseSqrt();
  s_.eigen_evaluations = s_.record.evaluations;
  inv_sqrt_C_ = inverse_sqrt(s_.B, s_.D);
}

std::vector<std::string> Cmaes::criteria() const {
  std::vector<std::string> why;
  const auto& h = s_.history;
  if (static_cast<int>(h.size()) == p_.history_length &&
      *std::max_element(h.begin(), h.end()) - *std::min_element(h.begin(), h.end()) < kTolHistFun)
    why.emplace_back("TolHistFun");
  const double widest = std::max(s_.C.diagonal().cwiseSqrt().maxCoeff(), s_.p_c.cwiseAbs().maxCoeff());
  if (s_.sigma * widest < kTolXFactor * setup_.sigma0) why.emplace_back("TolX");
  const double axis_ratio = s_.D.maxCoeff() / s_.D.minCoeff();
  if (!(axis_ratio * axis_ratio <= kMaxCondition)) why.emplace_back("ConditionCov");
  return why;
}

std::vector<std::string> Cmaes::stop() const {
  std::vector<std::string> why = criteria();
  // tell() restarts IPOP on any criterion, so one still standing means the restarts ran out.
  if (variant_ == CmaesVariant::ipop && !why.empty() && s_.restarts >= kMaxRestarts)
    why.emplace_back("MaxRestarts");
  for (std::string& reason : pop::budget_stop(setup_, s_.record.evaluations))
    why.push_back(std::move(reason));
  return why;
}

Json Cmaes::state() const {
  Json history = Json::array();
  for (double v : s_.history) history.push_back(pop::json_number(v));
  Json j = {{"optimizer", name()},
            {"dim", setup_.dim},
            {"lambda", s_.lambda},
            {"restarts", s_.restarts},
            {"mean", pop::json_vector(s_.mean)},
            {"sigma", s_.sigma},
            {"C", pop::json_matrix(s_.C)},
            {"B", pop::json_matrix(s_.B)},
            {"D", pop::json_vector(s_.D)},
            {"p_sigma", pop::json_vector(s_.p_sigma)},
            {"p_c", pop::json_vector(s_.p_c)},
            {"generation", s_.generation},
            {"eigen_evaluations", s_.eigen_evaluations},
            {"history", std::move(history)},
            {"random", s_.random.state()}};
  s_.record.save_to(j);  // best_x, best_f (null while +inf), evaluations
  return j;
}

void Cmaes::restore(const Json& j) {
  const int n = setup_.dim;
  try {
    pop::check_state(name(), j, n);
    State s;
    const std::int64_t lambda = pop::count_from_json(j, "lambda");
    if (lambda < 2 || lambda > limits::kMaxPopulation)
      throw OptimizerError("cmaes: bad state: lambda must be in [2, " + std::to_string(limits::kMaxPopulation) + "]");
    s.lambda = static_cast<int>(lambda);
    s.restarts = static_cast<int>(std::min<std::int64_t>(pop::count_from_json(j, "restarts"), 1 << 30));
    s.mean = sized(pop::vector_from_json(j.at("mean")), n, "mean");
    s.sigma = j.at("sigma").get<double>();
    if (!(s.sigma > 0) || !std::isfinite(s.sigma)) throw OptimizerError("cmaes: bad state: sigma must be positive and finite");
    s.C = square(pop::matrix_from_json(j.at("C"), n), n, "C");
    s.B = square(pop::matrix_from_json(j.at("B"), n), n, "B");
    s.D = sized(pop::vector_from_json(j.at("D")), n, "D");
    s.p_sigma = sized(pop::vector_from_json(j.at("p_sigma")), n, "p_sigma");
    s.p_c = sized(pop::vector_from_json(j.at("p_c")), n, "p_c");
    s.generation = pop::count_from_json(j, "generation");
    s.eigen_evaluations = pop::count_from_json(j, "eigen_evaluations");
    for (const Json& v : j.at("history")) s.history.push_back(pop::number_from_json(v));
    s.record.restore(j);
    s.random.restore(j.at("random"));
    p_ = cmaes_parameters(n, s.lambda, variant_ == CmaesVariant::active);
    s_ = std::move(s);
  } catch (const Json::exception& e) {
    throw OptimizerError(std::string("cmaes: bad state: ") + e.what());
  }
  inv_sqrt_C_ = inverse_sqrt(s_.B, s_.D);
}

std::unique_ptr<Optimizer> make_cmaes(const OptimizerSetup& setup) {
  return std::make_unique<Cmaes>(setup, CmaesVariant::standard);
}
std::unique_ptr<Optimizer> make_cmaes_active(const OptimizerSetup& setup) {
  return std::make_unique<Cmaes>(setup, CmaesVariant::active);
}
std::unique_ptr<Optimizer> make_ipop_cmaes(const OptimizerSetup& setup) {
  return std::make_unique<Cmaes>(setup, CmaesVariant::ipop);
}

}  // namespace tb::opt
