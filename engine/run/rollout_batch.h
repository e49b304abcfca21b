// Rollout batches: many short games from given start states, the unit of work of CBMPI
// (the design card's "Learning where games are long"; Scherrer et al., JMLR 2015, section 3).
//
// A rollout starts from a state (a board and the piece to place on it), optionally plays a
// forced first move of that piece (the action whose value is estimated), then lets the policy
// play `length` more pieces (m), or fewer if the game ends.  The pieces after the state's
// piece are draws 1, 2, ... of stream (seed, the rollout's stream id), so a rollout is a pure
// function of (policy, config, state, rollout): no batch, block or thread changes it.  The
// caller bootstraps from the final board (its features) unless the rollout ended the game.
//
// The rollouts of a block are the games of one GameBatch (game_batch.h), stepped in lock step
// by the same step_game and Searcher::decide as play, so a rollout piece costs what a game
// piece does; the executor is play_rollouts (parallel_play.h).  play_rollout is the reference:
// one rollout at a time, piece by piece, without a batch.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "game_batch.h"

namespace tb {

struct RolloutConfig {
  Rules rules;
  std::uint64_t seed = 1;    // run seed of every rollout's piece stream
  std::int64_t length = 10;  // m: pieces the policy plays after the start (and the forced move), >= 0
};

// A start state: `current` is the piece to place on `board`.
struct RolloutState {
  Board board;
  Piece current = I;
};

struct Rollout {
  std::uint32_t state = 0;     // index of its start state
  std::uint64_t stream_id = 0; // the pieces after the state's piece: stream (seed, stream_id)
  bool forced = false;         // play `first` before the policy
  // A placement of the state's piece (rollout_actions): a drop placement (row kDropRow) under
  // drop rules, a reachable one (with its row) under reachable rules.  Reachability is the
  // caller's promise; only the piece, orientation and column are checked.
  Placement first{};
};

struct RolloutResult {
  std::int64_t lines = 0;   // rows cleared, the forced move's included: the sum of rewards
  std::int64_t pieces = 0;  // pieces locked, the forced one included
  bool game_over = false;   // the game ended (else it played every piece of its length)
  Board final_board;        // after the last move (a game-ending move keeps its piece, as drop() does)
  bool operator==(const RolloutResult&) const = default;
};

// The placements of `piece` on `board` under `rules`, in enumeration order: the actions of a
// state, each a valid Rollout::first.  None when the piece cannot spawn (reachable rules).
std::vector<Placement> rollout_actions(const Rules& rules, const Board& board, Piece piece);

// Throws InputError unless every rollout names a state and its forced move (if any) is a
// placement of the state's piece that fits the board.
void check_rollouts(const Rules& rules, std::span<const RolloutState> states, std::span<const Rollout> rollouts);

// The reference: one rollout on its own, piece by piece with searcher.decide().
RolloutResult play_rollout(Searcher& searcher, const RolloutConfig& config, const RolloutState& state,
                           const Rollout& rollout);

// `rollouts` (checked) in lock step in `batch`, the result of rollouts[i] into out[i].  `batch`
// is scratch of at least rollouts.size() games made with rollout_game_config(config), which
// blocks may reuse: its first rollouts.size() games are restarted here.
void run_rollout_block(GameBatch& batch, Searcher& searcher, const RolloutConfig& config,
                       std::span<const RolloutState> states, std::span<const Rollout> rollouts,
                       std::span<RolloutResult> out);

// The GameConfig of the rollouts' batches: the config's rules and seed, capped at `length`
// pieces of the policy, no tie noise.
GameConfig rollout_game_config(const RolloutConfig& config);

}  // namespace tb
