#include "td_learner.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "kernel_variants.h"
#include "piece_stream.h"

namespace tb::td {

double td_step(Eigen::VectorXd& w, Eigen::VectorXd& e, const Eigen::VectorXd& phi_t, double reward,
               const Eigen::VectorXd* phi_next, double alpha, double gamma, double lambda) {
  const double v_t = w.dot(phi_t);
  const double v_next = phi_next ? w.dot(*phi_next) : 0.0;  // terminal afterstate: 0
  const double delta = reward + gamma * v_next - v_t;
  e = (gamma * lambda) * e + phi_t;
  w += (alpha * delta) * e;
  return delta;
}


AfterstateFeatures::AfterstateFeatures(const std::string& set_name, Geometry g, FeatureKernel kernel)
    : geometry_(g), kernel_(kernel), lanes_(kernel_lanes(kernel)) {
  const FeatureSet* set = find_feature_set(set_name);
  if (!set) throw std::invalid_argument("td: unknown feature set '" + set_name + "'");
  if (const std::string why = check_geometry(g); !why.empty()) throw std::invalid_argument("td: " + why);
  for (Feature f : set->features) {
    const FeatureSource s = feature_source(f);
    if (is_move_feature(f))
      throw std::invalid_argument("td: feature set '" + set_name + "' has the move feature '" +
                                  std::string(feature_name(f)) + "', not an afterstate feature");
    groups_ |= s.group;
    for (int i = 0; i < feature_width(f, g.width); ++i) rows_.push_back(s.slot + i);
  }
}

void AfterstateFeatures::compute(CandidateBlock& block) const {
  if (!groups_) return;
  const int lanes = (block.count + lanes_ - 1) / lanes_ * lanes_;  // <= block.lanes
  const BoardBlock view{block.cols.data(), kBlockCapacity, lanes, geometry_.width, geometry_.height};
  kernel_(view, groups_, block.values.data());
}

void AfterstateFeatures::read(const CandidateBlock& block, int k, double* out) const {
  for (std::size_t i = 0; i < rows_.size(); ++i) out[i] = block.value(rows_[i], k);
}

Eigen::VectorXd AfterstateFeatures::of_board(const Board& board) const {
  auto block = std::make_unique<CandidateBlock>();
  block->count = 1;
  block->lanes = kLaneMultiple;
  block->width = geometry_.width;
  for (int c = 0; c < geometry_.width; ++c)
    std::fill_n(&block->cols[c * kBlockCapacity], block->lanes, board.cols[c]);
  block->values[MOVE_CONSTANT * kBlockCapacity] = 1;
  compute(*block);
  Eigen::VectorXd phi(dimension());
  read(*block, 0, phi.data());
  return phi;
}

TdLearner::TdLearner(const TdConfig& config, FeatureKernel kernel)
    : config_(config),
      features_(config.features, config.rules.geometry, kernel),
      random_(opt::Random::from_seed(config.seed, 1)),
      block_(std::make_unique<CandidateBlock>()) {
  if (config.rules.lookahead != 0) throw std::invalid_argument("td: lookahead must be 0");
  if (!(config.epsilon >= 0.0 && config.epsilon <= 1.0))
    throw std::invalid_argument("td: epsilon must be in [0, 1]");
  const int n = features_.dimension();
  w_ = Eigen::VectorXd::Zero(n);
  e_ = Eigen::VectorXd::Zero(n);
  if (config.init_scale != 0.0) {
    opt::Random init = opt::Random::from_seed(config.seed, 2);
    for (int i = 0; i < n; ++i) w_[i] = init.uniform(-config.init_scale, config.init_scale);
  }
}

void TdLearner::play_episode(std::uint64_t game_index) {
  const Geometry g = config_.rules.geometry;
  const int n = features_.dimension();
  PieceStream stream = PieceStream::make(config_.rules.generator, config_.seed, game_index);
  Board board;
  e_.setZero();
  Eigen::VectorXd phi_prev(n), phi_next(n);
  Eigen::MatrixXd phi(n, kBlockCapacity);  // column k: phi of candidate k
  bool have_prev = false;
  std::int64_t placed = 0, lines = 0;
  CandidateBlock& block = *block_;

  while (config_.max_pieces_per_game <= 0 || placed < config_.max_pieces_per_game) {
    materialize(block, board, stream.next(), g, config_.rules.overflow);
    features_.compute(block);
    int chosen = 0;
    if (config_.epsilon > 0.0 && random_.uniform() < config_.epsilon) {
      chosen = static_cast<int>(random_.below(static_cast<std::uint32_t>(block.count)));
      if (!block.terminal[chosen]) features_.read(block, chosen, phi.col(chosen).data());
    } else {
      double best = -std::numeric_limits<double>::infinity();
      for (int k = 0; k < block.count; ++k) {
        double q = block.value(MOVE_LINES, k);
        if (!block.terminal[k]) {
          features_.read(block, k, phi.col(k).data());
          q += w_.dot(phi.col(k));
        }
        if (q > best || k == 0) {  // ties to the first placement
          best = q;
          chosen = k;
        }
      }
    }
    const bool terminal = block.terminal[chosen];
    const double reward = block.value(MOVE_LINES, chosen);
    if (!terminal) phi_next = phi.col(chosen);
    if (have_prev)
      td_step(w_, e_, phi_prev, reward, terminal ? nullptr : &phi_next, config_.alpha,
              config_.gamma, config_.lambda);
    ++placed;
    lines += block.value(MOVE_LINES, chosen);
    if (terminal) break;
    board = block.board(chosen);
    phi_prev.swap(phi_next);
    have_prev = true;
  }
  pieces_ += placed;
  lines_ += lines;
  last_lines_ = lines;
  ++episodes_;
}

nlohmann::json TdLearner::state() const {
  return {{"features", config_.features},
          {"weights", std::vector<double>(w_.data(), w_.data() + w_.size())},
          {"pieces", pieces_},
          {"lines", lines_},
          {"episodes", episodes_},
          {"last_episode_lines", last_lines_},
          {"random", random_.state()}};
}

void TdLearner::restore(const nlohmann::json& j) {
  if (j.at("features").get<std::string>() != config_.features)
    throw std::invalid_argument("td: state is for another feature set");
  const auto w = j.at("weights").get<std::vector<double>>();  // throws on null (non-finite)
  if (static_cast<int>(w.size()) != features_.dimension())
    throw std::invalid_argument("td: state has the wrong number of weights");
  for (std::size_t i = 0; i < w.size(); ++i) w_[static_cast<Eigen::Index>(i)] = w[i];
  e_.setZero();
  pieces_ = j.at("pieces").get<std::int64_t>();
  lines_ = j.at("lines").get<std::int64_t>();
  episodes_ = j.at("episodes").get<std::int64_t>();
  last_lines_ = j.at("last_episode_lines").get<std::int64_t>();
  random_.restore(j.at("random"));
}

}  // namespace tb::td
