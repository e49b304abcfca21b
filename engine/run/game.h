// One game under the research rules: draw, decide, drop, repeat (docs/architecture.md "One decision path").
#pragma once

#include <cstdint>
#include <vector>

#include "board.h"
#include "piece_stream.h"
#include "search.h"

namespace tb {

struct GameConfig {
  Rules rules;
  std::uint64_t seed = 1;        // run seed; game g's pieces come from (seed, g)
  std::int64_t max_pieces = 0;   // cap on pieces per game, 0 = none
  double tie_noise = 0.0;        // 0 = off (the default, docs/rules.md "Choosing a move")
};

// Per-game outputs.  `pieces` counts every piece locked, the game-ending one included (a
// block-out ends the game without locking the piece that could not spawn).
struct GameResult {
  std::uint64_t index = 0;        // game index within the run
  std::int64_t lines = 0;         // the score (docs/rules.md "Line clears, score, game over")
  std::int64_t pieces = 0;
  std::int64_t points = 0;        // classic 100/300/500/800
  std::int64_t tetrises = 0;      // 4-row clears
  std::int64_t holes_created = 0; // sum over moves of the rise in the hole count, if it rose
  std::int64_t height_sum = 0;    // sum over moves of the wall height after the move
  bool capped = false;            // stopped by max_pieces while still alive
  Board final_board;
};

// The tie-noise stream of a game, distinct from its piece stream: draw k of piece p is draw
// p * stride + k + 1 of the stream keyed by (seed ^ kTieNoiseStream, game index), where the
// stride is the most placements one piece can have: kMaxPlacements for the drop model,
// kMaxReachable for reachable placements.
inline constexpr std::uint64_t kTieNoiseStream = 0x7469656E6F697365ull;  // "tienoise"
inline std::uint64_t tie_noise_stride(const Rules& r) {
  return r.placement == PlacementModel::drop ? kMaxPlacements : kMaxReachable;
}

// One whole game on its own (a batch of one game; game_batch.h).  When `moves` is given, it
// receives every placement played, each with its row (CandidateBlock::placed).
GameResult play_game(Searcher& searcher, const GameConfig& config, std::uint64_t game_index,
                     std::vector<Placement>* moves = nullptr);

inline constexpr int kClassicPoints[5] = {0, 100, 300, 500, 800};

}  // namespace tb
