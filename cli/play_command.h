// `tetrisbench play`: plays games of one policy and reports them (docs/cli.md).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <stdexcept>
#include <string>
#include <vector>

#include "game.h"
#include "input_error.h"
#include "kernel_variants.h"
#include "policy.h"
#include "summary.h"

namespace tb {

// Bad input from the user: exit code 2 with this one-line message.
struct UsageError : InputError {
  using InputError::InputError;
};

// --board, --generator, --overflow and --lookahead left empty (-1) take the rule set's value;
// given, they refine `research` and must equal the preset's for `guideline` and `lee`
// (docs/rules.md "Choosing a rule set on the command line").
struct PlayOptions {
  std::string policy = "bcts";
  std::string rules = "research";
  std::string board;      // research default 10x10: 10x20 games last millions of pieces
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

// Throws UsageError if two of the non-empty paths name the same file (an output must never
// overwrite an input or another output).
void check_distinct(std::initializer_list<std::pair<std::string_view, std::string>> paths);
Geometry parse_board(const std::string& text);  // "WxH"; throws UsageError
// The rules the options select (see PlayOptions); throws UsageError.
Rules play_rules(const PlayOptions& o);
// select_kernel() with UsageError for an unknown or unsupported name.
const KernelVariant& choose_kernel(const std::string& forced);

std::string play_json(const PlayRun& run);
std::string play_csv(const PlayRun& run);
std::string play_table(const PlayRun& run);

}  // namespace tb
