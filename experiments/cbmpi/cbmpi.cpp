#include "cbmpi.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "cbmpi_classifier.h"
#include "cbmpi_rollout_set.h"
#include "cbmpi_value.h"
#include "cmaes.h"
#include "checked_number.h"
#include "json_fields.h"
#include "parallel_play.h"
#include "rng.h"

namespace tb::cbmpi {
namespace {

using Json = nlohmann::json;
constexpr int kCheckpointVersion = 3;  // 2: the selected iterate; 3: height_pool and value_rbf
// States per play_rollouts call: bounds the rollouts held at once (about 23 x M per state)
// without changing any result.
constexpr std::int64_t kChunkStates = 1024;

// Step 2: t.q for every action of `states`; returns the pieces the rollouts played.
std::int64_t estimate_q(ActionTable& t, std::span<const RolloutState> states, const Policy& policy,
                        const ValueFeatures& value, const std::vector<double>& v, const CbmpiConfig& c,
                        FeatureKernel kernel, std::int64_t k, int threads) {
  const RolloutConfig config{c.rules, stream_key(c.seed ^ kRolloutStream, static_cast<std::uint64_t>(k)),
                             c.rollout_length};
  const std::int64_t m_count = c.rollouts_per_action;
  std::int64_t pieces = 0;
  td::Active psi;
  std::vector<Rollout> rollouts;
  for (std::int64_t lo = 0; lo < t.states(); lo += kChunkStates) {
    const std::int64_t hi = std::min(t.states(), lo + kChunkStates);
    rollouts.clear();
    for (std::int64_t s = lo; s < hi; ++s) {
      const auto actions = rollout_actions(c.rules, states[s].board, states[s].current);
      for (const Placement& a : actions)
        for (std::int64_t j = 0; j < m_count; ++j)
          rollouts.push_back({static_cast<std::uint32_t>(s), static_cast<std::uint64_t>(s * m_count + j), true, a});
    }
    const auto results = play_rollouts(policy, config, states, rollouts, threads, kernel);
    std::size_t r = 0;
    for (std::int64_t a = t.first[lo]; a < t.first[hi]; ++a) {
      double sum = 0;
      for (std::int64_t j = 0; j < m_count; ++j, ++r) {
        const RolloutResult& out = results[r];
        pieces += out.pieces;
        double ret = static_cast<double>(out.lines);
        if (!out.game_over) {
          value.of_board(out.final_board, psi);
          ret += psi.dot(v);
        }
        sum += ret;
      }
      t.q[a] = sum / static_cast<double>(m_count);
    }
  }
  return pieces;
}

// Step 3: the ridge regression of the targets on the value features of the states' boards.
std::vector<double> fit_value(std::span<const RolloutState> states, const std::vector<double>& target,
                              const ValueFeatures& value, double ridge) {
  const auto n = static_cast<Eigen::Index>(states.size());
  const auto d = static_cast<Eigen::Index>(value.size());
  Eigen::MatrixXd psi(n, d);  // (N, value dimension)
  td::Active row;
  for (Eigen::Index s = 0; s < n; ++s) {
    value.of_board(states[s].board, row);
    for (Eigen::Index i = 0; i < d; ++i) psi(s, i) = row.value[i];
  }
  const Eigen::Map<const Eigen::VectorXd> y(target.data(), n);
  Eigen::MatrixXd a = psi.transpose() * psi;
  a.diagonal().array() += ridge * static_cast<double>(n);
  const Eigen::VectorXd v = a.ldlt().solve(psi.transpose() * y);
  return {v.data(), v.data() + d};
}

// Step 4: the best weights of a fresh CMA-ES on the classification loss, started at w.
std::vector<double> fit_policy(const ActionTable& t, const std::vector<double>& w, const CbmpiConfig& c,
                               std::int64_t k, int threads) {
  opt::OptimizerSetup setup;
  setup.dim = t.dim;
  setup.seed = stream_key(c.seed ^ kClassifierStream, static_cast<std::uint64_t>(k));
  setup.x0 = Eigen::Map<const Eigen::VectorXd>(w.data(), t.dim);
  setup.sigma0 = c.cmaes_sigma0;
  if (c.cmaes_lambda > 0) setup.options["lambda"] = c.cmaes_lambda;
  opt::Cmaes cmaes(setup, opt::CmaesVariant::standard);
  for (std::int64_t g = 0; g < c.cmaes_generations && cmaes.stop().empty(); ++g) {
    const opt::Matrix x = cmaes.ask();
    opt::Vector f(x.cols());
    // Candidate i writes f[i] alone: the same losses on any thread count.
    for_each_block(x.cols(), 1, threads, [&](std::int64_t lo, std::int64_t hi) {
      for (std::int64_t i = lo; i < hi; ++i) f[i] = classification_loss(t, x.col(i).data());
    });
    cmaes.tell(x, f);
  }
  const opt::Vector best = cmaes.best_x();
  return {best.data(), best.data() + best.size()};
}

// The most drop placements one piece has on this width (34 for T, J and L on 10 columns).
std::int64_t most_placements(int width) {
  std::int64_t most = 0;
  Placement buf[kMaxPlacements];
  for (int p = 0; p < PIECE_NB; ++p)
    most = std::max<std::int64_t>(most, generate_drops(static_cast<Piece>(p), width, buf) - buf);
  return most;
}

}  // namespace

Cbmpi::Cbmpi(const CbmpiConfig& config, FeatureKernel kernel)
    : config_(config), kernel_(kernel), policy_set_(find_feature_set(config.policy_features)) {
  if (!policy_set_) throw InputError("cbmpi: unknown policy feature set '" + config.policy_features + "'");
  w_.assign(static_cast<std::size_t>(policy_set_->dimension(config.rules.geometry.width)), 0.0);
  v_.assign(ValueFeatures(config, kernel).size(), 0.0);
  check_dimension(policy(), config.rules.geometry);
}

Policy Cbmpi::linear_policy(const std::vector<double>& w) const {
  Policy p;
  p.name = "cbmpi";
  p.features = policy_set_;
  p.weights = w;
  p.rules = rule_set_name(config_.rules);
  return p;
}

Policy Cbmpi::policy() const { return linear_policy(selected_k_ > 0 ? selected_w_ : w_); }

double Cbmpi::selection_mean(int threads, std::int64_t& pieces) const {
  GameConfig game;
  game.rules = config_.rules;
  game.seed = stream_key(config_.seed ^ kSelectStream, 0);
  game.max_pieces = config_.select_max_pieces;
  const auto games = play_games(linear_policy(w_), game, config_.select_games, threads, kernel_, nullptr);
  double lines = 0;
  for (const GameResult& g : games) {  // in game order: the same sum on any thread count
    lines += static_cast<double>(g.lines);
    pieces += g.pieces;
  }
  return lines / static_cast<double>(games.size());
}

std::int64_t iteration_bound(const CbmpiConfig& c) {
  return c.states * c.height_pool * c.sample_every +
         c.states * most_placements(c.rules.geometry.width) * c.rollouts_per_action * (c.rollout_length + 1) +
         c.select_games * c.select_max_pieces;
}

Iteration Cbmpi::iterate(int threads) {
  const CbmpiConfig& c = config_;
  const Policy pi = linear_policy(w_);
  const ValueFeatures value(c, kernel_);
  Iteration it;
  it.iteration = k_;
  const std::vector<RolloutState> states = sample_rollout_set(pi, c, kernel_, k_, it.pieces);
  ActionTable t = action_table(*policy_set_, c.rules, states, kernel_, threads);
  it.pieces += estimate_q(t, states, pi, value, v_, c, kernel_, k_, threads);
  set_best_q(t);
  std::vector<double> target(states.size());
  for (std::int64_t s = 0; s < t.states(); ++s) target[s] = t.q[greedy_action(t, s, w_.data())];
  std::vector<double> v = fit_value(states, target, value, c.ridge);
  std::vector<double> w = fit_policy(t, w_, c, k_, threads);
  it.states = t.states();
  it.actions = t.actions();
  it.loss_before = classification_loss(t, w_.data());
  it.loss_after = classification_loss(t, w.data());
  for (double y : target) it.mean_value_target += y / static_cast<double>(target.size());
  w_ = std::move(w);
  v_ = std::move(v);
  ++k_;
  if (c.select_games > 0) {
    it.selection_lines = selection_mean(threads, it.pieces);
    if (it.selection_lines > selected_lines_) {
      selected_w_ = w_;
      selected_lines_ = it.selection_lines;
      selected_k_ = k_;
    }
  }
  pieces_ += it.pieces;
  return it;
}

Json Cbmpi::to_json() const {
  return {{"version", kCheckpointVersion},
          {"config", cbmpi::to_json(config_)},
          {"iterations", k_},
          {"pieces", pieces_},
          {"policy_weights", w_},
          {"value_weights", v_},
          {"selected_iteration", selected_k_},
          {"selected_lines", selected_lines_},
          {"selected_weights", selected_k_ > 0 ? Json(selected_w_) : Json::array()}};
}

void Cbmpi::restore(const Json& j) {
  const auto field = [&](const char* key) -> const Json& { return opt::json_member(j, key, key); };
  if (field("version") != kCheckpointVersion) throw InputError("version: unknown version " + field("version").dump());
  if (field("config") != cbmpi::to_json(config_)) throw InputError("config: it was made with another configuration");
  const std::int64_t k = opt::json_integer(field("iterations"), 0, kInt64Max, "iterations");
  const std::int64_t pieces = opt::json_integer(field("pieces"), 0, kInt64Max, "pieces");
  std::vector<double> w = opt::json_reals(field("policy_weights"), w_.size(), "policy_weights");
  std::vector<double> v = opt::json_reals(field("value_weights"), v_.size(), "value_weights");
  const std::int64_t selected_k = opt::json_integer(field("selected_iteration"), 0, k, "selected_iteration");
  const double selected_lines = opt::json_real(field("selected_lines"), -1, 1e300, "selected_lines");
  std::vector<double> selected_w =
      opt::json_reals(field("selected_weights"), selected_k > 0 ? w_.size() : 0, "selected_weights");
  k_ = k;
  pieces_ = pieces;
  w_ = std::move(w);
  v_ = std::move(v);
  selected_k_ = selected_k;
  selected_lines_ = selected_lines;
  selected_w_ = std::move(selected_w);
}

}  // namespace tb::cbmpi
