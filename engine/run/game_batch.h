// N games stored struct-of-arrays in one aligned arena (docs/decisions.md "Threads live in one place").
//
// A batch holds the games of several policies: game i plays policy i / games_per_policy on
// piece stream first_stream + i % games_per_policy.  With games_per_policy = G, every policy
// plays the same G streams (common random numbers).  Games advance one piece per step
// (step_game); the executor (parallel_play.cpp) steps blocks of games in lock step.  Each
// game's evolution depends only on (its policy, its stream, the config), never on the batch.
// The executor gives each task a batch of its own games, so no two threads share a cache line.
// A batch can also hold games that start from given states (start(): the rollouts of
// rollout_batch.h), which stop at the config's cap like any game.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "game.h"

namespace tb {

enum class GameStatus : std::uint8_t { alive, over, capped };

class GameBatch {
 public:
  // Games [begin, end) of a population (see above); game i of the batch is game begin + i.
  GameBatch(std::int64_t begin, std::int64_t end, std::int64_t games_per_policy,
            std::uint64_t first_stream, const GameConfig& config);
  // N games of policy 0 that have not started: start() each one before stepping it.
  GameBatch(std::int64_t n, const GameConfig& config);

  // (Re)starts game g from `board` with `current` to place, its counters at 0.  `rest` is the
  // stream (config.seed, stream_id) at the piece after `current` (its next draw).
  void start(std::int64_t g, const Board& board, Piece current, std::uint64_t stream_id, PieceStream rest);

  std::int64_t size() const { return n_; }
  std::uint32_t policy_of(std::int64_t g) const { return policy[g]; }
  bool alive(std::int64_t g) const { return status[g] == GameStatus::alive; }
  GameResult result(std::int64_t g) const;

  // Bytes of arena per game on a board of this width (the arrays below, no padding).
  static std::size_t bytes_per_game(int width);

  // Arrays, shape (N) unless noted.
  Word* cols;                   // (W, N): column c of game g at cols[c * N + g]
  std::uint64_t* stream_id;     // piece stream id: its pieces are a function of (seed, id)
  std::uint64_t* piece_key;     // piece stream key, stream_key(seed, stream id) (CounterRng::key)
  std::uint64_t* draws;         // piece stream position (CounterRng::counter)
  std::uint32_t* bag;           // bag7 state (PieceStream::bag)
  std::uint8_t* bag_left;       // bag7 state (PieceStream::bag_left)
  std::uint8_t* current;        // Piece to place
  std::uint8_t* next;           // Piece after it
  GameStatus* status;
  std::uint32_t* policy;        // index of the policy this game plays
  std::int32_t* holes;          // hole count after the last move
  std::int64_t* lines;
  std::int64_t* pieces;
  std::int64_t* points;
  std::int64_t* tetrises;
  std::int64_t* holes_created;
  std::int64_t* height_sum;

 private:
  friend bool step_game(GameBatch&, std::int64_t, Searcher&, Placement*);
  void allocate(int width);
  std::int64_t n_;
  GameConfig config_;
  std::unique_ptr<std::byte[]> arena_;
};

// Places one piece in game g (if it is alive), applying the cap, the rules and the counters.
// Returns whether a piece was placed (not when the game had ended, reached its cap, or met a
// block-out); `played`, if given, then receives the placement with its row.
bool step_game(GameBatch& batch, std::int64_t g, Searcher& searcher, Placement* played = nullptr);

}  // namespace tb
