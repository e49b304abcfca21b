// Re-simulating a replay file (docs/replay-format.md): the pieces of (seed, game), every
// recorded move checked legal for its piece and rule set and applied, the recorded input
// strings checked, optionally the policy's own choice compared, and the recorded outcome
// checked.  No pictures: the caller sees each move through a callback (cli/replay_command.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "reachable.h"
#include "replay.h"
#include "rules.h"
#include "search.h"

namespace tb {

// The rules a replay names, on its board.  Throws ReplayError (a bad file, not a divergence)
// when the rule set is unknown or does not fit the board.
Rules replay_rules(const Replay& r);

struct ReplayStep {
  int index = 0;            // move number, from 0
  Piece next = I;           // the piece after this one
  Placement placement;      // with its row
  int lines = 0;            // rows this move cleared
  const Board* board = nullptr;  // after the move and its clears
  // Reachable rules: the piece's reachable placements on the board before the move, and the
  // index of this move among them (input_sequence() gives its shortest inputs).
  const ReachableSet* reachable = nullptr;
  int reachable_index = -1;
};

struct ReplayVerdict {
  bool reproduces = true;
  std::string problem;  // when it does not: "move 17 (T04a): ..." or "outcome: ..."
  std::int64_t lines = 0;
  std::int64_t pieces = 0;
  bool game_over = false;
  std::uint64_t hash = 0;
  Board final_board;
};

// `policy` (may be null) must have been made for replay_rules(r); then its choice at every
// move must be the recorded one.  `on_move` (may be empty) is called after each move.
ReplayVerdict check_replay(const Replay& r, Searcher* policy,
                           const std::function<void(const ReplayStep&)>& on_move);

// Input strings: one token per input, blank-separated: L R CW CCW D (soft drop) H (hard drop).
std::string format_inputs(const std::vector<Input>& inputs);
// Empty string on success, else the problem; `out` gets the inputs.
std::string parse_inputs(std::string_view text, std::vector<Input>& out);

}  // namespace tb
