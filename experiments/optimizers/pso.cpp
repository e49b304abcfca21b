#include "pso.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tb::opt {

Vector sample_in_ball(const Vector& centre, double radius, BallSampling how, Random& rng) {
  const Eigen::Index n = centre.size();
  Vector direction(n);
  double sq = 0.0;
  while (sq == 0.0) {
    sq = 0.0;
    for (Eigen::Index d = 0; d < n; ++d) {
      direction[d] = rng.normal();
      sq += direction[d] * direction[d];
    }
  }
  const double u = rng.uniform();
  const double scale = how == BallSampling::radius ? u : std::pow(u, 1.0 / static_cast<double>(n));
  const double r = radius * scale;
  return centre + direction * (r / std::sqrt(sq));
}

// Clerc 2011, section "Parameters": S = 40, K = 3, w = 1/(2 ln 2), c = 1/2 + ln 2.
SwarmParams SwarmParams::spso2011(const OptimizerSetup& setup) {
  pop::check_setup("pso", setup);
  const pop::Options o("pso", setup.options, {"swarm", "k", "w", "c", "low", "high", "ball"});
  SwarmParams p;
  p.rule = SwarmRule::spso2011;
  p.swarm = o.integer("swarm", 40);
  o.require(p.swarm >= 1, "swarm", "must be at least 1");
  p.informants = o.integer("k", 3);
  o.require(p.informants >= 0, "k", "must be >= 0");
  const std::string ball = o.text("ball", "radius");
  o.require(ball == "radius" || ball == "volume", "ball", "must be radius or volume");
  p.ball = ball == "radius" ? BallSampling::radius : BallSampling::volume;
  p.w = o.number("w", 1.0 / (2.0 * std::numbers::ln2));
  p.c = o.number("c", 0.5 + std::numbers::ln2);
  p.low = o.number("low", setup.init_low);
  p.high = o.number("high", setup.init_high);
  o.require(p.low < p.high, "low", "must be below high");
  p.init_low = p.low;
  p.init_high = p.high;
  return p;
}

// Article 1: 30 particles, w = 0.7, c1 = c2 = 1.5, V_MAX = 2, positions clamped to [-5, 5],
// positions and velocities initialised uniform in [-1, 1].
SwarmParams SwarmParams::article1(const OptimizerSetup& setup) {
  pop::check_setup("pso-article1", setup);
  const pop::Options o("pso-article1", setup.options,
                       {"swarm", "w", "c1", "c2", "vmax", "low", "high"});
  SwarmParams p;
  p.rule = SwarmRule::inertia_gbest;
  p.swarm = o.integer("swarm", 30);
  o.require(p.swarm >= 1, "swarm", "must be at least 1");
  p.informants = 0;
  p.w = o.number("w", 0.7);
  p.c1 = o.number("c1", 1.5);
  p.c2 = o.number("c2", 1.5);
  p.vmax = o.number("vmax", 2.0);
  o.require(p.vmax > 0.0, "vmax", "must be positive");
  p.low = o.number("low", -5.0);
  p.high = o.number("high", 5.0);
  o.require(p.low <= -1.0, "low", "must be <= -1 (the initial box is [-1, 1])");
  o.require(p.high >= 1.0, "high", "must be >= 1 (the initial box is [-1, 1])");
  p.init_low = p.vinit_low = -1.0;
  p.init_high = p.vinit_high = 1.0;
  return p;
}

ParticleSwarm::ParticleSwarm(const OptimizerSetup& setup, const SwarmParams& params)
    : pop::Sampler(setup), params_(params), x_(setup.dim, params.swarm), v_(setup.dim, params.swarm),
      pf_(Vector::Constant(params.swarm, pop::kInf)) {
  const SwarmParams& s = params_;
  for (Eigen::Index i = 0; i < x_.cols(); ++i)
    for (Eigen::Index d = 0; d < x_.rows(); ++d) {
      x_(d, i) = rng_.uniform(s.init_low, s.init_high);
      // SPSO-2011: v = U(low - x, high - x), so x + v starts inside the box.
      v_(d, i) = s.rule == SwarmRule::spso2011 ? rng_.uniform(s.low - x_(d, i), s.high - x_(d, i))
                                               : rng_.uniform(s.vinit_low, s.vinit_high);
    }
  p_ = x_;
  if (s.rule == SwarmRule::spso2011) draw_topology();
}

std::string_view ParticleSwarm::name() const {
  return params_.rule == SwarmRule::spso2011 ? "pso" : "pso-article1";
}

// Each particle informs itself and K particles drawn uniformly with replacement (so it may
// draw itself or the same particle twice), as in Clerc's SPSO-2011 code.
void ParticleSwarm::draw_topology() {
  const int S = params_.swarm, K = params_.informants;
  informs_.assign(static_cast<std::size_t>(S) * static_cast<std::size_t>(K), 0);
  for (int& target : informs_) target = static_cast<int>(rng_.below(static_cast<std::uint32_t>(S)));
}

int ParticleSwarm::local_best(int i) const {
  if (params_.rule == SwarmRule::inertia_gbest)
    return static_cast<int>(pop::ranking(pf_).front());
  int best = i;
  const int K = params_.informants;
  for (int j = 0; j < params_.swarm; ++j)
    for (int k = 0; k < K; ++k)
      if (informs_[static_cast<std::size_t>(j * K + k)] == i && pf_[j] < pf_[best]) best = j;
  return best;
}

Matrix ParticleSwarm::ask() {
  if (pending_.cols() == 0) {
    if (generation_ > 0 && params_.rule == SwarmRule::spso2011) move_spso2011();
    if (generation_ > 0 && params_.rule == SwarmRule::inertia_gbest) move_inertia_gbest();
    pending_ = x_;
  }
  return pending_;
}

// Clerc 2011, eqs. for G, x' and v: G = x + c (p + l - 2x) / 3, or x + c (p - x) / 2 when the
// particle is its own best informant (l == p); x' a random point of the ball H(G, |G - x|)
// (BallSampling); v = w v + x' - x; x += v.
void ParticleSwarm::move_spso2011() {
  const double c = params_.c, w = params_.w;
  for (int i = 0; i < params_.swarm; ++i) {
    const int l = local_best(i);
    const Vector x = x_.col(i), p = p_.col(i);
    const Vector g = l == i ? Vector(x + c * (p - x) / 2.0)
                            : Vector(x + c * (p + p_.col(l) - 2.0 * x) / 3.0);
    double sq = 0.0;
    for (Eigen::Index d = 0; d < g.size(); ++d) sq += (g[d] - x[d]) * (g[d] - x[d]);
    const Vector target = sample_in_ball(g, std::sqrt(sq), params_.ball, rng_);
    for (Eigen::Index d = 0; d < x.size(); ++d) {
      double v = w * v_(d, i) + (target[d] - x[d]);
      double y = x[d] + v;
      // Confinement: clamp to the box and stop that component (Clerc's code reverses it at
      // half speed instead).
      if (y < params_.low || y > params_.high) {
        y = std::clamp(y, params_.low, params_.high);
        v = 0.0;
      }
      x_(d, i) = y;
      v_(d, i) = v;
    }
  }
}

// Article 1: v = w v + c1 r1 (p - x) + c2 r2 (g - x) with r1, r2 drawn per component,
// v clamped to [-vmax, vmax], x += v, x clamped to the box (the velocity is kept).
void ParticleSwarm::move_inertia_gbest() {
  const Vector g = p_.col(local_best(0));
  const SwarmParams& s = params_;
  for (int i = 0; i < s.swarm; ++i)
    for (Eigen::Index d = 0; d < x_.rows(); ++d) {
      const double r1 = rng_.uniform(), r2 = rng_.uniform();
      const double x = x_(d, i);
      const double v = s.w * v_(d, i) + s.c1 * r1 * (p_(d, i) - x) + s.c2 * r2 * (g[d] - x);
      v_(d, i) = std::clamp(v, -s.vmax, s.vmax);
      x_(d, i) = std::clamp(x + v_(d, i), s.low, s.high);
    }
}

void ParticleSwarm::tell(const Matrix& X, const Vector& f) {
  pop::check_told(name(), X, f, setup_.dim, params_.swarm);
  const double before = record_.best_f;
  const Vector clean = record_.observe(X, f);
  x_ = X;
  for (int i = 0; i < params_.swarm; ++i)
    if (clean[i] < pf_[i]) {
      pf_[i] = clean[i];
      p_.col(i) = X.col(i);
    }
  ++generation_;
  // SPSO-2011's adaptive topology: new random informants after an iteration without progress.
  if (params_.rule == SwarmRule::spso2011 && !(record_.best_f < before)) draw_topology();
  pending_.resize(setup_.dim, 0);
}

double ParticleSwarm::spread() const { return pop::mean_coordinate_std(x_); }

Json ParticleSwarm::state() const {
  return state_with({{"positions", pop::json_matrix(x_)},
                     {"velocities", pop::json_matrix(v_)},
                     {"pbest", pop::json_matrix(p_)},
                     {"pbest_f", pop::json_vector(pf_)},
                     {"informs", informs_}});
}

void ParticleSwarm::restore(const Json& state) {
  restore_with(state, [&](const Json& j, Eigen::Index pending, std::int64_t) {
    Matrix x = pop::matrix_from_json(j.at("positions"), setup_.dim);
    Matrix v = pop::matrix_from_json(j.at("velocities"), setup_.dim);
    Matrix p = pop::matrix_from_json(j.at("pbest"), setup_.dim);
    Vector pf = pop::objective_vector_from_json(j.at("pbest_f"));
    auto informs = j.at("informs").get<std::vector<int>>();
    const Eigen::Index S = params_.swarm;
    const auto in_swarm = [&](int t) { return t >= 0 && t < S; };
    const bool ok = x.cols() == S && v.cols() == S && p.cols() == S && pf.size() == S &&
                    informs.size() == informs_.size() && std::all_of(informs.begin(), informs.end(), in_swarm) &&
                    (pending == 0 || pending == S);
    if (!ok) throw OptimizerError(std::string(name()) + ": bad state: the swarm size differs from the options");
    return [this, x = std::move(x), v = std::move(v), p = std::move(p), pf = std::move(pf),
            informs = std::move(informs)]() mutable {
      x_ = std::move(x);
      v_ = std::move(v);
      p_ = std::move(p);
      pf_ = std::move(pf);
      informs_ = std::move(informs);
    };
  });
}

std::unique_ptr<Optimizer> make_pso(const OptimizerSetup& setup) {
  return std::make_unique<ParticleSwarm>(setup, SwarmParams::spso2011(setup));
}

std::unique_ptr<Optimizer> make_pso_article1(const OptimizerSetup& setup) {
  return std::make_unique<ParticleSwarm>(setup, SwarmParams::article1(setup));
}

}  // namespace tb::opt
