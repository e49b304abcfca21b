// Summary statistics of a run of games (the `play` report; docs/json-schema.md).
#pragma once

#include <cstdint>
#include <span>

#include "game.h"

namespace tb {

struct PlaySummary {
  std::int64_t games = 0;
  double mean_lines = 0;
  double ci95_low = 0, ci95_high = 0;  // Student t interval of the mean; NaN for one game
  double stddev_lines = 0;             // NaN for one game (undefined)
  double median_lines = 0;
  std::int64_t min_lines = 0, max_lines = 0;
  std::int64_t lines = 0, pieces = 0, tetrises = 0;
  std::int64_t capped_games = 0;
  double holes_per_100_pieces = 0;
  double mean_wall_height = 0;        // over all moves of all games
  double tetrises_per_100_lines = 0;
};

// The mean, interval, standard deviation and median of the lines are statistics.h's.
PlaySummary summarize(std::span<const GameResult> games);

}  // namespace tb
