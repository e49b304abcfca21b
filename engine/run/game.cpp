#include "game.h"

#include "game_batch.h"

namespace tb {

GameResult play_game(Searcher& searcher, const GameConfig& config, std::uint64_t game_index,
                     std::vector<Placement>* moves) {
  GameBatch batch(0, 1, 1, game_index, config);
  Placement played;
  while (batch.alive(0))
    if (step_game(batch, 0, searcher, &played) && moves) moves->push_back(played);
  return batch.result(0);
}

}  // namespace tb
