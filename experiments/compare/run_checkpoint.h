// What a comparison run keeps between generations (checkpoint.json) and after it ends
// (result.json), written by compare_run.cpp and read back on --resume as untrusted input:
// every field is checked for type and range, and errors are InputError naming the file
// (`where`) and the field (docs/threat-model.md).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "experiment_config.h"
#include "optimizer.h"

namespace tb::opt {

inline constexpr int kCheckpointVersion = 1;

// A black-box run after some generations.  The optimizer's own state travels beside it.
struct BlackboxCheckpoint {
  nlohmann::json records = nlohmann::json::array();  // one per generation
  std::int64_t pieces = 0, games = 0, generation = 0;
  double seconds = 0;
  double best_training = -HUGE_VAL;  // best training statistic so far (-inf: none yet)
  Vector best_x;                     // its weights
};

nlohmann::json blackbox_checkpoint_json(const BlackboxCheckpoint& ck, const Optimizer& opt);

// Reads `j` into a checkpoint and restores `opt` (built for dimension `dim`) from it.  The
// optimizer's state must restore and write back to exactly what was read, so a value that
// would wrap or be clamped is refused; a run already past the config's budget is refused.
BlackboxCheckpoint restore_blackbox_checkpoint(const nlohmann::json& j, const ExperimentConfig& c, Optimizer& opt,
                                               int dim, const std::string& where);


// Throws InputError unless `r` is the result.json of entry `spec_index`, run `run` of `c`
// with every field the report reads.
// The per-generation records of a checkpoint or result (the columns csv() and the report read):
// an array of `generations` records, each count and number in range; InputError naming `where`.
void check_records(const nlohmann::json& records, std::int64_t generations, const std::string& where);

void check_run_result(const nlohmann::json& r, const ExperimentConfig& c, int spec_index, int run,
                      const std::string& where);

}  // namespace tb::opt
