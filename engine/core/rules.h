// The rule set a game is played under (RULES.md, docs/rules.md "Rule sets").  Three named
// presets (engine/core/rule_sets.h): `research`, the default of every field; `guideline` (SRS,
// move-reachable placements, hidden rows, block-out and lock-out); `lee` (article 4).  Any
// field that differs from its preset is a named variant and appears in the rule-set name.
#pragma once

#include <cstdint>
#include <string>

#include "board.h"

namespace tb {

// Game over (RULES "Game over"; docs/rules.md): research's `strict` and `clear-first`, the
// guideline's lock-out (block-out is decided at spawn), and article 4's hidden-row rule.
enum class Overflow : std::uint8_t { strict, clear_first, lock_out, hidden_rows };
enum class Generator : std::uint8_t { uniform, bag7 };  // RULES "Piece generators"
// drop: RULES "Placement model `drop`"; reachable: every lock position a sequence of inputs
// reaches from the spawn (engine/moves/reachable.h).
enum class PlacementModel : std::uint8_t { drop, reachable };
// The kick lists of reachable placements (engine/moves/srs.h).
enum class RotationSystem : std::uint8_t { srs, simple };
enum class RuleSet : std::uint8_t { research, guideline, lee, RULE_SET_NB };

struct Rules {
  Geometry geometry{};  // hidden rows included in the height (geometry.hidden)
  Overflow overflow = Overflow::strict;
  Generator generator = Generator::uniform;
  int lookahead = 0;  // 0: one-piece controller; 1: the next piece is known
  PlacementModel placement = PlacementModel::drop;
  RotationSystem rotation = RotationSystem::srs;  // used by reachable placements only
  // 2-ply: the first ply's full rows are removed before the second ply (RULES); `false` rates
  // the pair on the grid with nothing cleared, as article 4's code does.
  bool clear_between_plies = true;
  RuleSet base = RuleSet::research;  // the preset the name starts from
};

// "research", "research+bag7+clear-first+lookahead1", "guideline+lookahead1", "lee": the
// preset, then every field that differs from it (engine/core/rule_sets.cpp has the tokens).
std::string rule_set_name(const Rules& r);
const char* to_string(Overflow o);
const char* to_string(Generator g);
const char* to_string(PlacementModel p);
const char* to_string(RuleSet s);

// The game-over rule at lock, before any clear: strict with a cell at row H or above, or
// lock-out with every cell of the piece in the hidden rows.  Then no rows are cleared.
// `bottom` is the row of the piece's lowest cell, `top` one past its highest.
constexpr bool ends_at_lock(Overflow o, Geometry g, int bottom, int top) {
  return (o == Overflow::strict && top > g.height) ||
         (o == Overflow::lock_out && bottom >= g.height - g.hidden);
}
// After the clears, the game is over when the wall height exceeds this.
constexpr int wall_limit(Overflow o, Geometry g) {
  return o == Overflow::hidden_rows ? g.height - g.hidden : g.height;
}
// A piece whose top is above this row needs the slow path (ends_at_lock or wall_limit).
constexpr int quiet_top(Overflow o, Geometry g) {
  return o == Overflow::strict || o == Overflow::clear_first ? g.height : g.height - g.hidden;
}

}  // namespace tb
