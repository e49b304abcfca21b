#include "rollout_batch.h"

#include <memory>
#include <string>

#include "reachable.h"
#include "rule_sets.h"

namespace tb {

std::vector<Placement> rollout_actions(const Rules& rules, const Board& board, Piece piece) {
  std::vector<Placement> out;
  if (rules.placement == PlacementModel::drop) {
    out.resize(kMaxPlacements);
    out.resize(static_cast<std::size_t>(generate_drops(piece, rules.geometry.width, out.data()) - out.data()));
    return out;
  }
  auto set = std::make_unique<ReachableSet>();  // ~20 KB: not on the stack
  const int count = find_reachable_placements(board, rules.geometry, piece, spawn_row(rules), rules.rotation, *set);
  for (int i = 0; i < count; ++i) {
    Placement pl = set->placements[i].placement;
    pl.row = static_cast<std::uint8_t>(set->placements[i].row);
    out.push_back(pl);
  }
  return out;
}

void check_rollouts(const Rules& rules, std::span<const RolloutState> states, std::span<const Rollout> rollouts) {
  for (std::size_t i = 0; i < rollouts.size(); ++i) {
    const Rollout& r = rollouts[i];
    const auto fail = [&](const std::string& why) {
      throw InputError("rollout " + std::to_string(i) + ": " + why);
    };
    if (r.state >= states.size())
      fail("state " + std::to_string(r.state) + " of " + std::to_string(states.size()));
    if (!r.forced) continue;
    const Placement pl = r.first;
    if (pl.piece != states[r.state].current) fail("its first move is not a placement of its state's piece");
    if (pl.orientation >= kShapes[pl.piece].count ||
        pl.column + kShapes[pl.piece].orientation[pl.orientation].width > rules.geometry.width)
      fail("its first move does not fit the board");
    if ((pl.row == kDropRow) != (rules.placement == PlacementModel::drop))
      fail("its first move's row does not match the placement model");
  }
}

GameConfig rollout_game_config(const RolloutConfig& config) {
  GameConfig g;
  g.rules = config.rules;
  g.seed = config.seed;
  g.max_pieces = config.length;
  return g;
}

RolloutResult play_rollout(Searcher& searcher, const RolloutConfig& config, const RolloutState& state,
                           const Rollout& rollout) {
  const Rules& rules = config.rules;
  RolloutResult r;
  r.final_board = state.board;
  PieceStream stream = PieceStream::make(rules.generator, config.seed, rollout.stream_id);
  Piece current = state.current;
  if (rollout.forced) {
    const Move m = drop(r.final_board, rollout.first, rules.geometry, rules.overflow);
    r.lines = m.lines;
    r.pieces = 1;
    if (m.game_over) {
      r.game_over = true;
      return r;
    }
    current = stream.next();
  }
  Piece next = stream.next();
  for (std::int64_t i = 0; i < config.length; ++i) {
    const Decision d = searcher.decide(r.final_board, current, next);
    if (d.blocked_out) {  // nothing placed
      r.game_over = true;
      return r;
    }
    r.pieces += 1;
    r.lines += d.lines;
    r.final_board = d.board;
    if (d.game_over) {
      r.game_over = true;
      return r;
    }
    current = next;
    next = stream.next();
  }
  return r;
}

void run_rollout_block(GameBatch& batch, Searcher& searcher, const RolloutConfig& config,
                       std::span<const RolloutState> states, std::span<const Rollout> rollouts,
                       std::span<RolloutResult> out) {
  const Rules& rules = config.rules;
  const auto n = static_cast<std::int64_t>(rollouts.size());
  // The forced moves, by the reference drop(); the policy's pieces then start a game each,
  // from the board after the forced move and the stream's first piece.
  for (std::int64_t g = 0; g < n; ++g) {
    const Rollout& r = rollouts[g];
    const RolloutState& s = states[r.state];
    RolloutResult& o = out[g];
    o = RolloutResult{};
    PieceStream stream = PieceStream::make(rules.generator, config.seed, r.stream_id);
    if (!r.forced) {
      batch.start(g, s.board, s.current, r.stream_id, stream);
      continue;
    }
    Board after = s.board;
    const Move m = drop(after, r.first, rules.geometry, rules.overflow);
    o.lines = m.lines;
    o.pieces = 1;
    const Piece piece = stream.next();  // the piece after the forced one
    batch.start(g, after, piece, r.stream_id, stream);
    if (m.game_over) batch.status[g] = GameStatus::over;
  }
  if (config.length > 0)  // a cap of 0 pieces would mean none
    for (std::int64_t live = n; live > 0;) {
      live = 0;
      for (std::int64_t g = 0; g < n; ++g)
        if (step_game(batch, g, searcher) && batch.alive(g)) ++live;
    }
  const int width = rules.geometry.width;
  for (std::int64_t g = 0; g < n; ++g) {
    RolloutResult& o = out[g];
    o.lines += batch.lines[g];
    o.pieces += batch.pieces[g];
    o.game_over = batch.status[g] == GameStatus::over;
    for (int c = 0; c < width; ++c) o.final_board.cols[c] = batch.cols[c * batch.size() + g];
  }
}

}  // namespace tb
