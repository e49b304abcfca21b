// `tetrisbench play`: plays games of one policy and reports them (README.md "Commands"; the
// rule sets: docs/rules.md "Choosing a rule set on the command line").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli_common.h"
#include "game.h"
#include "policy.h"
#include "summary.h"

namespace tb {

// --board, --generator, --overflow and --lookahead left empty (-1) take the rule set's value;
// given, they refine `research` and must equal the preset's for `guideline` and `lee`
// (docs/rules.md "Choosing a rule set on the command line").
struct PlayOptions {
  std::string policy = "bcts";
  std::string rules = "research";
  std::string board;      // research default 10x10 (rule_sets.h)
  std::string generator;  // research default uniform
  std::string overflow;   // research default strict
  std::string format = "table";
  std::string out;     // empty: stdout
  std::string kernel;  // empty: $TETRISBENCH_KERNEL, else the best the CPU has
  std::string record;  // write the replay of game --show-game (default the first) here
  int lookahead = -1;
  std::int64_t games = 100;
  std::int64_t first_game = 0;
  std::int64_t max_pieces = 0;
  std::uint64_t seed = 1;
  int threads = 0;
  double tie_noise = 0.0;
  bool show = false;
  std::int64_t show_game = -1;  // -1: the first game of the run
};

// Everything a report needs about one run.
struct PlayRun {
  Policy policy;
  GameConfig config;
  std::int64_t first_game = 0;
  int threads = 0;
  std::string kernel;
  double seconds = 0;
  std::vector<GameResult> results;  // (games) in game-index order
  PlaySummary summary;
};

// Throws UsageError (bad options) or PolicyError (bad policy); returns the exit code.
int run_play(const PlayOptions& options);

std::string play_json(const PlayRun& run);
std::string play_csv(const PlayRun& run);
std::string play_table(const PlayRun& run);

}  // namespace tb
