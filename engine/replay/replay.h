// The replay file: one game's stream, policy, moves and recorded outcome, as line-oriented
// text (docs/replay-format.md).  Data and strict parsing only; replaying the moves is the
// caller's job.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "board.h"
#include "error.h"
#include "placement.h"

namespace tb {

// A replay file that does not parse: bad input (exit 2).
struct ReplayError : InputError {
  using InputError::InputError;
};

inline constexpr int kReplayVersion = 1;
// A replay file is read up to this size (a million moves with input strings is about 30 MB).
inline constexpr std::size_t kMaxReplayBytes = std::size_t{64} << 20;

struct ReplayMove {
  Placement placement;
  std::uint8_t row;  // lowest row of the piece after it locked, before clears; 0..height
  bool operator==(const ReplayMove&) const = default;
};

struct Replay {
  int version = kReplayVersion;
  std::string rules;          // rule-set name, e.g. "research+bag7"
  int width = 10;             // board size in rows and columns of the board words,
  int height = 20;            // hidden rows included
  std::uint64_t seed = 0;     // the stream: run seed ...
  std::int64_t game = 0;      // ... and game index
  std::string policy;         // policy name or path as given
  std::vector<std::string> inputs;  // empty, or one input string per move ("L L CW H")
  std::vector<ReplayMove> moves;
  // The recorded outcome, so a replay can check that it reproduces.
  std::int64_t lines = 0;
  std::int64_t pieces = 0;
  bool game_over = false;
  std::uint64_t final_board_hash = 0;  // board_hash() of the final board
  bool operator==(const Replay&) const = default;
};

// Throws ReplayError when `r` holds something the parser would reject (a move off the
// board, a text field with a line break or surrounding blanks), so every written file reads.
std::string format_replay(const Replay& r);

// Throws ReplayError with one line: "<origin>:<line>: <problem>".
Replay parse_replay(std::string_view text, std::string_view origin);

// A move as the file writes it: the piece letter, then orientation, column and row as base-36
// digits ("T14a"; docs/replay-format.md).
std::string format_move(const ReplayMove& m);

// FNV-1a (64-bit, engine/io/fnv1a.h) over the column words 0 .. width-1, each as 4 bytes,
// least significant first.
std::uint64_t board_hash(const Board& b, int width);

}  // namespace tb
