// The named rule sets (docs/rules.md "Rule sets"), their names and their checks.
//   research   RULES.md's default: drop placements, strict, uniform, greedy, any board.
//   guideline  Tetris Guideline: 10x22 (20 visible rows + 2 hidden), SRS move-reachable
//              placements, bag7, spawn on row 20, block-out and lock-out end the game.
//   lee        article 4: 10x22 (2 hidden), drop placements (hard drops of every rotation at
//              every column), bag7, one known next piece, any block in the hidden rows ends
//              the game, and the 2-ply pair is rated without clearing lines between plies.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules.h"

namespace tb {

Rules rule_set(RuleSet s);
// A preset by name, or nullopt.
std::optional<RuleSet> find_rule_set(std::string_view name);
// "research, guideline or lee"
std::string rule_set_names();

// The fields of `r` that differ from its preset, as name tokens, in a fixed order.
std::vector<std::string> variant_tokens(const Rules& r);
// The inverse of rule_set_name(): the preset, then every token applied.  The geometry is the
// preset's except for research, where it is `research_board` (its name does not hold it).
// Empty string on success, else a one-line reason.
std::string parse_rule_set_name(std::string_view name, Geometry research_board, Rules& out);

// Empty when the combination is playable, else a one-line reason.
std::string check_rules(const Rules& r);

// The spawn row of reachable placements: the lowest cell of the spawn state (srs.h
// spawn_state).  The first hidden row when there are 2 or more, else H - 2, the highest row
// from which every piece can turn in place.
constexpr int spawn_row(const Rules& r) {
  return r.geometry.height - (r.geometry.hidden > 2 ? r.geometry.hidden : 2);
}

}  // namespace tb
