#include "cbmpi_config.h"

#include <cmath>

#include "feature_set.h"
#include "input_limits.h"
#include "json_fields.h"
#include "evaluator.h"

namespace tb::cbmpi {
namespace {

using Json = nlohmann::json;

// The options part of to_json: every key make_cbmpi_config reads.
Json options_json(const CbmpiConfig& c) {
  return {{"states", c.states},
          {"rollout_length", c.rollout_length},
          {"rollouts_per_action", c.rollouts_per_action},
          {"sample_every", c.sample_every},
          {"height_pool", c.height_pool},
          {"policy_features", c.policy_features},
          {"value_features", c.value_features},
          {"value_rbf", c.value_rbf},
          {"ridge", c.ridge},
          {"cmaes_lambda", c.cmaes_lambda},
          {"cmaes_generations", c.cmaes_generations},
          {"cmaes_sigma0", c.cmaes_sigma0},
          {"select_games", c.select_games},
          {"select_max_pieces", c.select_max_pieces}};
}

std::string option(const char* key) { return std::string("cbmpi option '") + key + "'"; }

std::int64_t integer(const Json& o, const char* key, std::int64_t lo, std::int64_t hi) {
  return opt::json_integer(o.at(key), lo, hi, option(key));
}

double real(const Json& o, const char* key, double lo, double hi) {
  return opt::json_real(o.at(key), lo, hi, option(key));
}

std::string text(const Json& o, const char* key) {
  if (!o.at(key).is_string()) throw InputError(option(key) + " must be a feature set name");
  return o.at(key).get<std::string>();
}

bool flag(const Json& o, const char* key) {
  if (!o.at(key).is_boolean()) throw InputError(option(key) + " must be true or false");
  return o.at(key).get<bool>();
}

}  // namespace

CbmpiConfig make_cbmpi_config(const Json& options, const Rules& rules, std::uint64_t seed) {
  if (!options.is_object()) throw InputError("cbmpi options must be a JSON object");
  Json o = options_json(CbmpiConfig{});
  for (const auto& [key, value] : options.items()) {
    if (!o.contains(key)) throw InputError("unknown cbmpi option '" + key + "'");
    o[key] = value;
  }
  if (rules.placement != PlacementModel::drop || rules.lookahead != 0)
    throw InputError("cbmpi needs drop placements and one-piece decisions (rules " + rule_set_name(rules) + ")");
  CbmpiConfig c;
  c.rules = rules;
  c.seed = seed;
  // The caps keep every iteration's arrays and piece counts far inside 64 bits and memory.
  c.states = integer(o, "states", 1, 10'000'000);
  c.rollout_length = integer(o, "rollout_length", 0, 10'000);
  c.rollouts_per_action = integer(o, "rollouts_per_action", 1, 1'000);
  c.sample_every = integer(o, "sample_every", 1, 1'000'000);
  c.height_pool = integer(o, "height_pool", 1, 1'000);
  c.policy_features = text(o, "policy_features");
  c.value_features = text(o, "value_features");
  c.value_rbf = flag(o, "value_rbf");
  c.ridge = real(o, "ridge", 0, 1e6);
  c.cmaes_lambda = static_cast<int>(integer(o, "cmaes_lambda", 0, 10'000));
  c.cmaes_generations = integer(o, "cmaes_generations", 1, 1'000'000);
  c.cmaes_sigma0 = real(o, "cmaes_sigma0", 1e-12, 1e6);
  c.select_games = integer(o, "select_games", 0, 10'000);
  c.select_max_pieces = integer(o, "select_max_pieces", 0, limits::kMaxPieces);
  if (c.select_games > 0 && c.select_max_pieces == 0)
    throw InputError(option("select_max_pieces") + " must be set (a piece cap) when select_games is");
  // The iteration bound adds select_games x select_max_pieces: keep it a valid budget.
  if (c.select_games > 0 && c.select_max_pieces > limits::kMaxPieces / c.select_games)
    throw InputError("cbmpi: select_games x select_max_pieces must be at most " + std::to_string(limits::kMaxPieces));
  if (c.cmaes_lambda == 1) throw InputError(option("cmaes_lambda") + " must be 0 (the default) or at least 2");
  if (!find_feature_set(c.policy_features))
    throw InputError(option("policy_features") + ": unknown feature set '" + c.policy_features + "'");
  const FeatureSet* value = find_feature_set(c.value_features);
  if (!value) throw InputError(option("value_features") + ": unknown feature set '" + c.value_features + "'");
  for (Feature f : value->features)
    if (is_move_feature(f))  // a value function rates the board a rollout ends on, not a move
      throw InputError(option("value_features") + ": '" + c.value_features + "' has the move feature '" +
                       std::string(feature_name(f)) + "' (use a set of board features, e.g. bertsekas or td44)");
  if (c.states * c.height_pool > 10'000'000)  // the pool is held in memory, about 150 bytes a state
    throw InputError("cbmpi: states x height_pool must be at most 10000000");
  if (c.states * c.rollouts_per_action > 100'000'000)
    throw InputError("cbmpi: states x rollouts_per_action must be at most 100000000");
  return c;
}

Json to_json(const CbmpiConfig& c) {
  return {{"rules", rule_set_name(c.rules)},
          {"board", size_name(c.rules.geometry)},
          {"seed", c.seed},
          {"options", options_json(c)}};
}

}  // namespace tb::cbmpi
