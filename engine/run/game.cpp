#include "game.h"

#include "game_batch.h"

namespace tb {

GameResult play_game(Searcher& searcher, const GameConfig& config, std::uint64_t game_index,
                     std::vector<Placement>* moves) {
  GameBatch batch(0, 1, 1, game_index, config);
  while (batch.alive(0)) {
    const int k = step_game(batch, 0, searcher);
    if (moves && k >= 0) moves->push_back(searcher.first_ply().placed(k));
  }
  return batch.result(0);
}

}  // namespace tb
