// A TD training run with a piece budget, periodic records and checkpoint/resume: shared by
// `tetrisbench learn` and the TD entries of `tetrisbench compare` (docs/td.md).
//
// Learners: "td0" (lambda 0), "tdlambda" and "ntuple" (the n-tuple network, TD(lambda)).
// Options (JSON object; every key optional): alpha, gamma, lambda, epsilon, normalized,
// init_scale, games_per_step, pieces_per_step, max_pieces_per_game.  The preset "article2" is
// article 2's own setup: TD(0) on td44, alpha 0.001, gamma 0.9, one game, online updates,
// no exploration.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "td_learner.h"

namespace tb::td {

bool is_td_learner(const std::string& name);

// The defaults of a learner, overridden by `options`.  Throws InputError naming an
// unknown learner, preset, option or a bad value.
TdConfig make_td_config(const std::string& learner, const std::string& features,
                        const nlohmann::json& options, const Rules& rules, std::uint64_t seed);
// The options of a named preset ("article2"), to pass to make_td_config with learner "td0".
nlohmann::json td_preset(const std::string& name);
nlohmann::json to_json(const TdConfig& c);

// One record per period: the episodes that ended in it.
struct TdPeriod {
  std::int64_t period = 0;
  std::int64_t pieces = 0;     // placed so far
  std::int64_t episodes = 0;   // ended so far
  std::int64_t ended = 0;      // ended in this period
  double mean_lines = 0;       // of the episodes ended in this period (0 if none)
  std::int64_t capped = 0;     // of them, cut off by max_pieces_per_game
  double seconds = 0;          // of training so far
};
nlohmann::json to_json(const TdPeriod& p);

struct TdRunSpec {
  TdConfig config;
  std::int64_t budget_pieces = 0;  // stop once pieces() reaches it (whole steps only)
  std::int64_t period_pieces = 0;  // a record (and a checkpoint) at least this often
  std::string checkpoint;          // empty: none; if the file exists the run resumes from it
  // If set, called at every record; its result is the record's "progress" (checkpointed with it).
  std::function<nlohmann::json(const TdLearner&)> evaluate;
};

struct TdRun {
  std::unique_ptr<TdLearner> learner;
  nlohmann::json records = nlohmann::json::array();  // TdPeriod records
  double seconds = 0;
  bool resumed = false;
};

using TdProgressFn = std::function<void(const TdLearner&, const TdPeriod&)>;

// Trains to the budget.  The checkpoint (atomic) holds the config, the learner state and the
// records; a resumed run reaches the same weights as an uninterrupted one.  Throws
// InputError for a corrupt checkpoint or one made with another config.
TdRun run_td(const TdRunSpec& spec, int threads, FeatureKernel kernel, const TdProgressFn& progress);

// The checkpoint run_td writes, and its reader.  The reader treats the JSON as untrusted:
// version, the configuration (`config_json` = to_json(config) must match), every field of
// the learner (TdLearner::restore), the period records and seconds; the restored state must
// write back exactly as read.  Throws InputError naming the field.
nlohmann::json td_checkpoint_json(const nlohmann::json& config_json, const TdLearner& learner, const TdRun& run);
void restore_td_checkpoint(const nlohmann::json& ck, const nlohmann::json& config_json, TdLearner& learner,
                           TdRun& run);

}  // namespace tb::td
