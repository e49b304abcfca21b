#include "game.h"

namespace tb {
namespace {

struct Measure {
  int holes;
  int wall_height;
};

Measure measure(const Board& b, Geometry g, FeatureKernel kernel) {
  std::int32_t out[SLOT_NB];
  const BoardBlock one{b.cols.data(), 1, 1, g.width, g.height};
  kernel(one, G_HOLES | G_MAX_HEIGHT, out);
  return {out[SLOT_HOLES], out[SLOT_MAX_HEIGHT]};
}

}  // namespace

GameResult play_game(Searcher& searcher, const GameConfig& config, std::uint64_t game_index,
                     FeatureKernel kernel) {
  const Rules& rules = config.rules;
  const Geometry g = rules.geometry;
  PieceStream stream = PieceStream::make(rules.generator, config.seed, game_index);
  CounterRng noise{stream_key(config.seed ^ kTieNoiseStream, game_index), 0};

  GameResult r;
  r.index = game_index;
  Board board;
  int holes = 0;
  Piece current = stream.next();
  Piece next = stream.next();
  for (;;) {
    if (config.max_pieces > 0 && r.pieces >= config.max_pieces) {
      r.capped = true;
      break;
    }
    const Placement pl = searcher.choose(board, current, next, config.tie_noise, &noise);
    const Move m = drop(board, pl, g, rules.overflow);
    ++r.pieces;
    r.lines += m.lines;
    r.points += kClassicPoints[m.lines];
    r.tetrises += m.lines == 4;
    if (m.game_over) break;
    const Measure after = measure(board, g, kernel);
    r.holes_created += after.holes > holes ? after.holes - holes : 0;
    r.height_sum += after.wall_height;
    holes = after.holes;
    current = next;
    next = stream.next();
  }
  r.final_board = board;
  return r;
}

}  // namespace tb
