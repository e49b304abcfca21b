// The options of the CBMPI learner (cbmpi.h): what each iteration samples, rolls out and fits.
//
// Defaults aim at the 10x20 setup of Gabillon, Ghavamzadeh & Scherrer (NIPS 2013) and Scherrer
// et al. (JMLR 2015): policy features D-T (`dt`), one rollout per action (M = 1), rollouts of
// m = 5 pieces, a rollout set of N = 84,000 states (16 M samples / (6 x 32)), gamma = 1
// (docs/cbmpi.md "Against the papers" lists where this learner differs from them).
// The papers' value features are D-T plus five RBF functions of the mean column height and a
// constant; a value function here reads a board alone, not a move, so the default is the
// closest board-only set with a constant, `bertsekas` (heights, differences, wall height,
// holes, constant), and `value_rbf` adds the RBFs.  The papers draw their states from an
// expert's games subsampled to even heights; `height_pool` subsamples the current policy's.
// The CMA-ES population and step size are our CMA-ES's defaults (cmaes.h); the generations,
// ridge and sampling stride are ours.
// The return is undiscounted (gamma = 1, as in the papers): a rollout reports its reward sum,
// not each reward, so there is no gamma option.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "rules.h"

namespace tb::cbmpi {

struct CbmpiConfig {
  Rules rules{};
  std::uint64_t seed = 1;
  std::int64_t states = 84'000;         // N: the rollout set of each iteration
  std::int64_t rollout_length = 5;      // m: pieces the policy plays after the action
  std::int64_t rollouts_per_action = 1; // M
  std::int64_t sample_every = 1;        // a start state before every this many pieces of a sampled game
  std::int64_t height_pool = 1;         // sample height_pool x N states, keep N with even heights (cbmpi_rollout_set.h)
  std::string policy_features = "dt";
  std::string value_features = "bertsekas";
  bool value_rbf = false;               // add the papers' five RBFs of the mean height (cbmpi_value.h)
  double ridge = 1e-6;                  // times N: the value regression's ridge term
  int cmaes_lambda = 0;                 // 0: CMA-ES's default for the policy's dimension
  std::int64_t cmaes_generations = 100; // per iteration (fewer if CMA-ES's own stop criteria fire)
  double cmaes_sigma0 = 0.5;
  // Selection (ours, off by default): after each iteration the new policy plays select_games
  // games capped at select_max_pieces on the same streams every iteration; the learner returns
  // the iterate with the highest mean so far, not the last one.  Their pieces count.
  std::int64_t select_games = 0;
  std::int64_t select_max_pieces = 0;
};

// The defaults overridden by `options` (a JSON object with any of the keys of to_json's
// "options").  Throws InputError, one line naming the option, for an unknown key, a wrong type,
// a value out of range, an unknown feature set, or rules CBMPI does not support (it needs drop
// placements and one-piece decisions).
CbmpiConfig make_cbmpi_config(const nlohmann::json& options, const Rules& rules, std::uint64_t seed);
nlohmann::json to_json(const CbmpiConfig& c);

}  // namespace tb::cbmpi
