// One run of one optimizer in a comparison: ask -> play -> tell, one checkpoint per
// generation, then the held-out evaluation of the best weights.
//
// Files in the run's folder: checkpoint.json (atomic, every generation), generations.csv,
// final.policy, and result.json when the run is complete.  A folder with result.json is not
// run again; one with only checkpoint.json continues from it and reaches exactly the state
// an uninterrupted run would have.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "experiment_config.h"
#include "feature_kernels.h"
#include "policy.h"
#include "summary.h"

namespace tb::opt {

struct RunProgress {
  std::string label;
  int run = 0;
  std::int64_t generation = 0;
  std::int64_t pieces = 0;
  double best = 0;  // best training statistic so far
};
using ProgressFn = std::function<void(const RunProgress&)>;

// What a finished run leaves for result.json, whoever trained it.
struct FinishedRun {
  nlohmann::json records = nlohmann::json::array();  // generation_row()s
  std::int64_t pieces = 0, games = 0, generations = 0;
  double seconds = 0, best_training = 0;
  std::vector<std::string> reasons;  // why it stopped
};

// Plays the held-out games of `final` and writes the run's final.policy and result.json (and,
// for an external entry, generations.csv) into `dir`, as compare does; returns result.json.
nlohmann::json finish_run(const ExperimentConfig& c, int spec_index, int run, const std::string& dir, Policy final,
                          const FinishedRun& t, int threads, FeatureKernel kernel);

// One generation's row of generations.csv and result.json's records.
nlohmann::json generation_row(std::int64_t generation, std::int64_t evaluations, std::int64_t pieces,
                              std::int64_t games, double best, double gen_best, double gen_mean, double spread,
                              std::int64_t capped_games, double seconds);

// The per-game cap of the next generation of lambda candidates after `pieces` and `games` of
// the budget, so that it cannot pass the budget: with a fitness cap, a generation runs only if
// its worst case (lambda x G x cap) fits in what is left; without one, the cap is what is left
// divided among its games.  0 = stop (the budget is spent), -1 = no cap.
std::int64_t generation_cap(const ExperimentConfig& c, std::int64_t pieces, std::int64_t games, std::int64_t lambda);

// A held-out summary as result.json and report.json hold it.
nlohmann::json summary_json(const PlaySummary& s);
// result.json's held-out entry of one board: summary_json of the games plus "lines" (per game,
// in game order) and "capped" (the indices of the games stopped by the piece cap).
nlohmann::json heldout_json(std::span<const GameResult> games);

// "runs/<label>/run-<r>": where run r of entry spec_index lives inside a results folder
// (labels are slugs, experiment_config.h).  compare and the Python module's write_run open it
// with file_io.h folder_inside, which refuses a link at any step.
std::string run_folder_name(const ExperimentConfig& c, int spec_index, int run);

// The training streams of run r are shared by every optimizer (common random numbers).
std::uint64_t run_seed(const ExperimentConfig& c, int run);

// Checks, without running anything, what a resumed run would read from its folder: the
// result.json if there is one, else the checkpoint.json if there is one (run_checkpoint.h).
// Throws InputError naming the file and field.  compare --resume calls it for every run
// before any work.
void check_run_folder(const ExperimentConfig& c, int spec_index, int run, const std::string& dir,
                      FeatureKernel kernel);

// Returns result.json's contents: label, run, pieces, games, generations, seconds,
// stop_reasons, best_training, weights, records, held_out (one summary per board).  An
// external entry (is_external) is never run: its result.json if it exists, else null.
nlohmann::json run_one(const ExperimentConfig& c, int spec_index, int run, const std::string& dir,
                       int threads, FeatureKernel kernel, const ProgressFn& progress);

}  // namespace tb::opt
