// Plays games [0, n) of a run in parallel on oneTBB.  Game g is a pure function of
// (policy, config, g), and its result lands in slot g, so the output is identical for any
// thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "game.h"

namespace tb {

struct PlayProgress {
  std::atomic<std::int64_t> games_done{0};
  std::atomic<std::int64_t> pieces_done{0};  // of finished games
};

// threads <= 0 uses every core.  `progress` may be null.
std::vector<GameResult> play_games(const Policy& policy, const GameConfig& config,
                                   std::int64_t games, int threads, FeatureKernel kernel,
                                   PlayProgress* progress);

}  // namespace tb
