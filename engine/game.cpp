#include "game.h"

#include "game_batch.h"

namespace tb {

GameResult play_game(Searcher& searcher, const GameConfig& config, std::uint64_t game_index) {
  GameBatch batch(0, 1, 1, game_index, config);
  while (batch.alive(0)) step_game(batch, 0, searcher);
  return batch.result(0);
}

}  // namespace tb
