#include "state_sample.h"

namespace tb {

std::vector<RolloutState> sample_states(Searcher& searcher, const GameConfig& config, std::int64_t games,
                                        std::int64_t every, std::uint64_t first_game, std::int64_t* pieces) {
  std::vector<RolloutState> out;
  if (pieces) *pieces = 0;
  if (games <= 0) return out;
  GameBatch batch(0, games, games, first_game, config);
  const int width = config.rules.geometry.width;
  const auto capped = [&](std::int64_t g) { return config.max_pieces > 0 && batch.pieces[g] >= config.max_pieces; };
  for (std::int64_t g = 0; g < games; ++g)
    while (batch.alive(g)) {
      if (batch.pieces[g] % every == 0 && !capped(g)) {
        RolloutState s;
        for (int c = 0; c < width; ++c) s.board.cols[c] = batch.cols[c * games + g];
        s.current = static_cast<Piece>(batch.current[g]);
        out.push_back(s);
      }
      step_game(batch, g, searcher);
    }
  if (pieces)
    for (std::int64_t g = 0; g < games; ++g) *pieces += batch.pieces[g];
  return out;
}

}  // namespace tb
