// `tetrisbench learn`: trains a value function by TD learning from self-play (docs/td.md), or a
// policy by CBMPI (experiments/cbmpi/cbmpi.h), writes it as a weights file that `tetrisbench play
// --policy FILE` plays, and reports its held-out games.
#pragma once

#include <cstdint>
#include <string>

namespace tb {

struct LearnOptions {
  std::string learner = "tdlambda";  // td0, tdlambda, ntuple or cbmpi
  std::string features = "td44";     // linear learners: td44 or bertsekas
  std::string preset;                // "article2": article 2's own settings
  std::string board;  // empty: the research preset's, 10x10 (rule_sets.h)
  std::string generator = "uniform";
  std::string overflow = "strict";
  std::string out;                   // the weights file (required)
  std::string checkpoint;            // resume from it if it exists
  std::string log;                   // per-period CSV
  std::string kernel;
  std::string options_json;          // the options given on the command line, as JSON
  std::string cbmpi_options;         // cbmpi: its options as a JSON object (cbmpi_config.h)
  std::int64_t pieces = 2'000'000;   // training budget
  std::int64_t record_every = 0;     // 0: budget / 100
  std::int64_t eval_games = 100;
  std::int64_t eval_max_pieces = 0;
  std::uint64_t seed = 1;
  int threads = 0;
};

// Throws UsageError (cli_common.h) on bad input; returns the exit code.
int run_learn(const LearnOptions& options);

}  // namespace tb
