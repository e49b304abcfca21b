// An optimizer-comparison experiment, read from TOML (docs/experiments.md has every key).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "cbmpi_config.h"
#include "error.h"
#include "rules.h"

namespace tb::opt {

// One optimizer entry: which algorithm, how it starts, and its options.  A TD learner (td0,
// tdlambda, ntuple; experiments/td/td_training.h) is an entry too: it learns from self-play
// under the same piece budget, and its options are TD options.
struct OptimizerSpec {
  std::string label;      // unique within the experiment, used in paths and reports
  std::string optimizer;  // a name of make_optimizer(), or a TD learner
  std::string features;   // the feature set this entry learns ("ntuple-v1" for the network)
  double sigma0 = 1.0;
  double init_low = -1.0, init_high = 1.0;
  nlohmann::json options = nlohmann::json::object();
  // A black-box entry's fitness games may run on a proxy board of the same width (research
  // rules): a shorter board gives shorter games, and the weights are judged by the held-out and
  // progress games on the experiment's board.  Height 0: the experiment's board.
  Geometry train_board{0, 0};
  // The weights a black-box run returns: its best training candidate, or (`final = "mean"`,
  // CE and CMA-ES) the mean of its search distribution, the estimate noisy fitness does not bias.
  bool final_mean = false;
};

// `optimizer = "cbmpi"`: the CBMPI learner (experiments/cbmpi/cbmpi.h) under the same piece budget;
// its options are CBMPI options (docs/cbmpi.md) and its `features` the policy's feature set.
inline bool is_cbmpi(const OptimizerSpec& s) { return s.optimizer == "cbmpi"; }

// `optimizer = "external"`: the runs of an optimizer outside tetrisbench (the Python module,
// docs/python.md), written into the results folder by tetrisbench.Fitness.write_run; compare
// reports them beside the others and never trains them.
inline bool is_external(const OptimizerSpec& s) { return s.optimizer == "external"; }

enum class Statistic { mean_lines, article1 };

struct ExperimentConfig {
  std::string name;                // results/<name>/...
  std::string features = "bcts";   // feature set to learn (an entry may name its own)
  Rules rules;                     // of training and held-out games: [rules] (rule_sets.h choose_rules)
  int runs = 3;                    // independent runs (seeds) per optimizer
  std::uint64_t seed = 1;          // run r of optimizer k derives from (seed, k, r)
  // Fitness of one candidate: its statistic over `games` games capped at `max_pieces`.
  int fitness_games = 10;
  std::int64_t fitness_max_pieces = 10000;
  Statistic statistic = Statistic::mean_lines;
  // Hard caps per run (0 = none): pieces simulated, games played.
  std::int64_t budget_pieces = 0;
  std::int64_t budget_games = 0;
  // Held-out evaluation of each run's final weights on fresh streams.
  int heldout_games = 100;
  std::int64_t heldout_max_pieces = 0;
  std::vector<Geometry> heldout_boards;  // the training board first; more for research rules only
  std::vector<double> targets;           // line counts for the runtime-to-target tables
  // Progress: after the first generation (black-box) or period (TD) that ends at or past each
  // 1% of the budget, the weights the run would return then play `progress_games` fixed games
  // capped at `progress_max_pieces`: the same measure on the same schedule for every entry
  // (docs/experiments.md "Progress").  0 games = not recorded.
  int progress_games = 10;
  std::int64_t progress_max_pieces = 0;
  std::vector<OptimizerSpec> optimizers;
};

// A config file is read up to this size.
inline constexpr std::size_t kMaxConfigBytes = std::size_t{1} << 20;
// The longest lists a config may give (docs/experiments.md "Config"): several times the
// longest real experiment's, and short enough that report.json and report.md stay readable.
inline constexpr std::size_t kMaxOptimizers = 32;     // [[optimizer]] tables
inline constexpr std::size_t kMaxHeldoutBoards = 16;  // heldout.boards
inline constexpr std::size_t kMaxTargets = 64;        // heldout.targets

// A CBMPI entry's learner config: its options, `features` as the policy's feature set, the
// experiment's rules.  Throws InputError for a bad option.
cbmpi::CbmpiConfig entry_cbmpi_config(const ExperimentConfig& c, const OptimizerSpec& s, std::uint64_t seed);

struct OptimizerSetup;  // optimizer.h
// The setup of a black-box entry's optimizer: its dimension on the training board, all-zero
// start, sigma0, init box and options; the caller sets the seed.
OptimizerSetup entry_setup(const ExperimentConfig& c, const OptimizerSpec& s);

struct ConfigError : InputError {
  using InputError::InputError;
};

// Throws ConfigError with one line naming the file, key and problem.
ExperimentConfig load_experiment(const std::string& path);
ExperimentConfig parse_experiment(const std::string& toml_text, const std::string& origin);

nlohmann::json to_json(const ExperimentConfig& c);

}  // namespace tb::opt
