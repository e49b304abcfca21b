#include "replay_check.h"

#include <memory>

#include "piece_stream.h"
#include "rule_sets.h"

namespace tb {

namespace {

constexpr std::string_view kInputTokens[INPUT_NB] = {"L", "R", "CW", "CCW", "D", "H"};  // Input order

std::string describe(Placement pl) {
  return std::string(1, kPieceChar[pl.piece]) + " orientation " + std::to_string(pl.orientation) + " column " +
         std::to_string(pl.column) + " row " + std::to_string(pl.row);
}

// Empty when `text` played from the spawn locks the piece exactly on `want`.
std::string check_inputs(std::string_view text, const Board& board, const Rules& rules, Placement want) {
  std::vector<Input> inputs;
  if (auto e = parse_inputs(text, inputs); !e.empty()) return e;
  if (inputs.empty() || inputs.back() != Input::hard) return "the inputs do not end with a hard drop (H)";
  Playfield field(board, rules.geometry, rules.rotation);
  if (!field.spawn(static_cast<Piece>(want.piece), spawn_row(rules))) return "the piece cannot spawn";
  for (std::size_t i = 0; i + 1 < inputs.size(); ++i) {
    if (inputs[i] == Input::hard) return "a hard drop before the last input";
    if (!field.apply(inputs[i])) return "input " + std::to_string(i + 1) + " (" + std::string(kInputTokens[static_cast<int>(inputs[i])]) + ") is blocked";
  }
  const Landing landing = to_landing([&] {
    PieceState s = field.piece();
    while (field.fits({s.piece, s.rotation, s.x, static_cast<std::int8_t>(s.y - 1)})) --s.y;
    return s;
  }());
  Placement got = landing.placement;
  got.row = static_cast<std::uint8_t>(landing.row);
  if (got != want) return "the inputs lock the piece at " + describe(got);
  return {};
}

// Where the recorded move is among the legal placements; the problem when it is not legal.
struct Legality {
  std::string problem;
  int reachable_index = -1;
};

Legality check_legal(const Board& board, const Rules& rules, Placement pl, ReachableSet* set) {
  if (!set) {  // drop: every placement is legal, and it rests where it falls
    const Orientation& o = kShapes[pl.piece].orientation[pl.orientation];
    int heights[kMaxWidth];
    for (int c = 0; c < rules.geometry.width; ++c) heights[c] = board.height_of(c);
    const int rest = landing_row(heights, o, pl.column);
    if (rest != pl.row) return {"a dropped piece there rests on row " + std::to_string(rest), -1};
    return {};
  }
  const int n = find_reachable(board, rules.geometry, static_cast<Piece>(pl.piece), spawn_row(rules),
                               rules.rotation, *set);
  if (n == 0) return {"block-out: the piece cannot spawn, so there is no move", -1};
  for (int i = 0; i < n; ++i) {
    const ReachablePlacement& rp = set->placements[i];
    if (rp.placement.orientation == pl.orientation && rp.placement.column == pl.column && rp.row == pl.row)
      return {{}, i};
  }
  return {"not reachable from the spawn under " + rule_set_name(rules), -1};
}

}  // namespace

Rules replay_rules(const Replay& r) {
  const Geometry board{r.width, r.height, 0};
  Rules rules;
  try {
    rules = parse_rule_set_name(r.rules, board);
  } catch (const InputError& e) {
    throw ReplayError("rules '" + r.rules + "': " + e.what());
  }
  if (rules.geometry.width != r.width || rules.geometry.height != r.height)
    throw ReplayError("rules '" + r.rules + "' are played on " + size_name(rules.geometry) + ", not on the file's board " +
                      size_name(board));
  return rules;
}

ReplayVerdict check_replay(const Replay& r, Searcher* policy,
                           const std::function<void(const ReplayStep&)>& on_move) {
  const Rules rules = replay_rules(r);
  const Geometry g = rules.geometry;
  auto set = rules.placement == PlacementModel::reachable ? std::make_unique<ReachableSet>() : nullptr;
  PieceStream stream = PieceStream::make(rules.generator, r.seed, static_cast<std::uint64_t>(r.game));
  Piece current = stream.next(), next = stream.next();
  ReplayVerdict v;
  Board board;
  auto diverge = [&](std::size_t i, const std::string& why) {
    v.reproduces = false;
    v.problem = "move " + std::to_string(i) + " (" + format_move(r.moves[i]) + "): " + why;
    return v;
  };
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    Placement pl = r.moves[i].placement;
    pl.row = r.moves[i].row;
    if (v.game_over) return diverge(i, "the game ended at the move before");
    if (pl.piece != current)
      return diverge(i, std::string("the stream deals ") + kPieceChar[current] + " here, not " + kPieceChar[pl.piece]);
    const Legality legal = check_legal(board, rules, pl, set.get());
    if (!legal.problem.empty()) return diverge(i, legal.problem);
    if (set && !r.inputs.empty())
      if (auto e = check_inputs(r.inputs[i], board, rules, pl); !e.empty()) return diverge(i, "inputs '" + r.inputs[i] + "': " + e);
    if (policy) {
      const Decision d = policy->decide(board, current, next);
      if (d.blocked_out || d.locked() != pl)
        return diverge(i, "policy '" + r.policy + "' picks " + (d.blocked_out ? std::string("no move") : describe(d.locked())));
    }
    const Move m = drop(board, pl, g, rules.overflow);
    v.lines += m.lines;
    v.pieces += 1;
    v.game_over = m.game_over;
    if (on_move) {
      ReplayStep step{static_cast<int>(i), next, pl, m.lines, &board, set.get(), legal.reachable_index};
      on_move(step);
    }
    current = next;
    next = stream.next();
  }
  if (!v.game_over && set && r.game_over)  // a block-out ends the game without a move
    v.game_over = find_reachable(board, g, current, spawn_row(rules), rules.rotation, *set) == 0;
  v.hash = board_hash(board, g.width);
  v.final_board = board;
  if (v.lines != r.lines || v.pieces != r.pieces || v.game_over != r.game_over || v.hash != r.final_board_hash) {
    auto text = [](std::int64_t lines, std::int64_t pieces, bool over, std::uint64_t hash) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "lines %lld pieces %lld over %s hash %016llx", static_cast<long long>(lines),
                    static_cast<long long>(pieces), over ? "yes" : "no", static_cast<unsigned long long>(hash));
      return std::string(buf);
    };
    v.reproduces = false;
    v.problem = "outcome: recorded " + text(r.lines, r.pieces, r.game_over, r.final_board_hash) + ", replayed " +
                text(v.lines, v.pieces, v.game_over, v.hash);
  }
  return v;
}

std::string format_inputs(const std::vector<Input>& inputs) {
  std::string s;
  for (Input in : inputs) {
    if (!s.empty()) s += ' ';
    s += kInputTokens[static_cast<int>(in)];
  }
  return s;
}

std::string parse_inputs(std::string_view text, std::vector<Input>& out) {
  out.clear();
  while (!text.empty()) {
    const auto start = text.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    text.remove_prefix(start);
    const auto end = text.find(' ');
    const std::string_view token = text.substr(0, end);
    int found = -1;
    for (int i = 0; i < INPUT_NB; ++i)
      if (token == kInputTokens[i]) found = i;
    if (found < 0) return "unknown input '" + std::string(token) + "' (L R CW CCW D H)";
    out.push_back(static_cast<Input>(found));
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end);
  }
  return {};
}

}  // namespace tb
