// CMA-ES: the (mu/mu_w, lambda)-CMA-ES of Hansen, "The CMA Evolution Strategy: A Tutorial",
// arXiv:1604.00772 (v2, 2023); equation numbers below are that text's.
//
//   cmaes         the standard algorithm (positive weights only)
//   cmaes-active  active covariance update with the negative weights of Table 1
//   ipop-cmaes    cmaes restarted with a doubled population whenever a stop criterion other
//                 than MaxEvals fires (Auger & Hansen, CEC 2005); at most 9 restarts
//
// Options: "lambda" (population size, default 4 + floor(3 ln n)).  docs/optimizers.md has the
// stop criteria and the measured performance against libcmaes and pycma.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "optimizer_util.h"
#include "optimizer.h"

namespace tb::opt {

// Static strategy parameters: Table 1, eqs. (48)-(58), plus the two constants of the stop
// criteria and the lazy eigendecomposition (Appendix B).  A pure function of (n, lambda, active).
struct CmaesParameters {
  int n = 0;
  int lambda = 0;
  int mu = 0;              // floor(lambda / 2) positive weights
  Vector weights;          // (lambda) w_i, eq. (53): w_1..w_mu > 0 sum to 1; the rest <= 0 (active) or 0
  double weight_sum = 1;   // sum_j w_j, used in eq. (47)
  double mu_eff = 0;       // of the positive weights
  double mu_eff_minus = 0; // of the negative weights, for eq. (51)
  double c_m = 1;          // eq. (54)
  double c_sigma = 0;      // eq. (55)
  double d_sigma = 0;      // eq. (55)
  double c_c = 0;          // eq. (56)
  double c_1 = 0;          // eq. (57)
  double c_mu = 0;         // eq. (58)
  double chi_n = 0;        // E||N(0, I)|| ~ sqrt(n) (1 - 1/(4n) + 1/(21 n^2))
  double eigen_gap = 0;    // evaluations between eigendecompositions: lambda / ((c_1 + c_mu) n 10)
  int history_length = 0;  // TolHistFun window: 10 + ceil(30 n / lambda) generations
};

int cmaes_default_lambda(int n);  // eq. (48)
CmaesParameters cmaes_parameters(int n, int lambda, bool active);

// Stop-criterion constants (Appendix B.3), relative to sigma0 where noted.
inline constexpr double kTolHistFun = 1e-12;
inline constexpr double kTolXFactor = 1e-12;  // times sigma0
inline constexpr double kMaxCondition = 1e14;
inline constexpr int kMaxRestarts = 9;

enum class CmaesVariant { standard, active, ipop };

class Cmaes final : public Optimizer {
 public:
  Cmaes(const OptimizerSetup& setup, CmaesVariant variant);  // throws OptimizerError

  std::string_view name() const override;
  Matrix ask() override;
  void tell(const Matrix& X, const Vector& f) override;
  std::vector<std::string> stop() const override;

  Vector best_x() const override { return s_.record.best_x; }
  std::optional<Vector> distribution_mean() const override { return s_.mean; }
  double best_f() const override { return s_.record.best_f; }
  std::int64_t evaluations() const override { return s_.record.evaluations; }
  double spread() const override { return s_.sigma; }

  Json state() const override;
  void restore(const Json& state) override;

  const CmaesParameters& parameters() const { return p_; }

 private:
  // The whole mutable state; state() writes every field, restore() reads every field.
  struct State {
    int lambda = 0;                // current population size (doubles at IPOP restarts)
    int restarts = 0;
    Vector mean;                   // (n) m
    double sigma = 0;              // step size
    Matrix C;                      // (n, n) covariance, kept exactly symmetric
    Matrix B;                      // (n, n) eigenvectors of C (columns), as of the last decomposition
    Vector D;                      // (n) square roots of the eigenvalues, C = B diag(D^2) B^T
    Vector p_sigma;                // (n) conjugate evolution path
    Vector p_c;                    // (n) evolution path
    std::int64_t generation = 0;   // g, since the last (re)start
    std::int64_t eigen_evaluations = 0;  // evaluation count at the last decomposition
    std::vector<double> history;   // best f of each of the last history_length generations
    pop::Record record;            // best so far and evaluations, over all restarts
    Random random;
  };

  void start(const Vector& mean);  // fresh distribution at `mean` with sigma0
  void update_covariance(const Matrix& Y, const std::vector<int>& order, double h_sigma);
  void decompose();                // B, D and inv_sqrt_C from C
  std::vector<std::string> criteria() const;  // the stop criteria of the current (re)start

  OptimizerSetup setup_;
  CmaesVariant variant_;
  CmaesParameters p_;
  State s_;
  Matrix inv_sqrt_C_;  // (n, n) B diag(1/D) B^T: derived from B and D, not state
};

// The entries of make_optimizer(): "cmaes", "cmaes-active", "ipop-cmaes".
std::unique_ptr<Optimizer> make_cmaes(const OptimizerSetup& setup);
std::unique_ptr<Optimizer> make_cmaes_active(const OptimizerSetup& setup);
std::unique_ptr<Optimizer> make_ipop_cmaes(const OptimizerSetup& setup);

}  // namespace tb::opt
