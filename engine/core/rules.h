// The rule set a game is played under (docs/rules.md "Rule sets").  Three named
// presets (engine/core/rule_sets.h): `research`, the default of every field; `guideline` (SRS,
// move-reachable placements, hidden rows, block-out and lock-out); `lee` (article 4).  Any
// field that differs from its preset is a named variant and appears in the rule-set name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "board.h"
#include "error.h"

namespace tb {

// Game over (docs/rules.md "Line clears, score, game over"): research's `strict` and `clear-first`, the
// guideline's lock-out (block-out is decided at spawn), and article 4's hidden-row rule.
enum class Overflow : std::uint8_t { strict, clear_first, lock_out, hidden_rows };
enum class Generator : std::uint8_t { uniform, bag7 };  // docs/rules.md "Piece generators"
// drop: docs/rules.md "Placement model `drop`"; reachable: every lock position a sequence of inputs
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
  // 2-ply: the first ply's full rows are removed before the second ply (docs/rules.md); `false` rates
  // the pair on the grid with nothing cleared, as article 4's code does.
  bool clear_between_plies = true;
  RuleSet base = RuleSet::research;  // the preset the name starts from
};

// A rule-set name, token or choice that is not valid: bad input (exit 2), one line.  `field`
// is what was wrong, spelled as the config key and the flag without "--": rules, board,
// generator, overflow, lookahead, placement or rotation.
struct RulesError : InputError {
  RulesError(std::string field_name, const std::string& what) : InputError(what), field(std::move(field_name)) {}
  std::string field;
};

// The names of the fields' values, each the inverse of the other: parse_x(to_string(v)) == v.
// A parse function throws RulesError naming the choices.  The rotation system's token is
// "srs" or "simple-kicks" (engine/moves/srs.h names it for the JSON report).
const char* to_string(Overflow o);         // strict, clear-first, lock-out, hidden-rows
const char* to_string(Generator g);        // uniform, bag7
const char* to_string(PlacementModel p);   // drop, reachable
const char* to_string(RuleSet s);          // research, guideline, lee
const char* rotation_token(RotationSystem r);  // srs, simple-kicks
Overflow parse_overflow(std::string_view text);
Generator parse_generator(std::string_view text);
PlacementModel parse_placement(std::string_view text);
RuleSet parse_rule_set(std::string_view text);
RotationSystem parse_rotation(std::string_view text);

// "research", "research+bag7+clear-first+lookahead1", "guideline+lookahead1", "lee": the
// preset, then `+token` for every field that differs from it (variant_tokens, in a fixed order).
std::string rule_set_name(const Rules& r);
std::vector<std::string> variant_tokens(const Rules& r);
// The inverse of rule_set_name(): the preset, then every token applied.  The geometry is the
// preset's except for research, where it is `research_board` (its name does not hold it).
// The result passes check_rules (rule_sets.h); otherwise throws RulesError.
Rules parse_rule_set_name(std::string_view name, Geometry research_board);

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
