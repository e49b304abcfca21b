// The named rule sets (docs/rules.md "Rule sets"): the presets, the check of a combination,
// and the one function that builds Rules from a preset and a user's choices (rules.h has the
// names).
//   research   docs/rules.md's default: drop placements, strict, uniform, greedy, any board.
//   guideline  Tetris Guideline: 10x22 (20 visible rows + 2 hidden), SRS move-reachable
//              placements, bag7, spawn on row 20, block-out and lock-out end the game.
//   lee        article 4: 10x22 (2 hidden), drop placements (hard drops of every rotation at
//              every column), bag7, one known next piece, any block in the hidden rows ends
//              the game, and the 2-ply pair is rated without clearing lines between plies.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "rules.h"

namespace tb {

// The preset's every field; research's board is its default, 10x10 (10x20 games last
// millions of pieces).
Rules rule_set(RuleSet s);

// Throws RulesError when the combination is not playable.
void check_rules(const Rules& r);

// A preset and what a user refines of it (the `play` flags, a config's [rules] table).  An
// empty string or lookahead -1 keeps the preset's value.
struct RuleChoices {
  std::string rules = "research";
  std::string board;      // "WxH"
  std::string generator;  // uniform, bag7
  std::string overflow;   // strict, clear-first, lock-out, hidden-rows
  int lookahead = -1;     // 0 or 1
};
// The rules a user chose (docs/rules.md "Choosing a rule set"): `research` takes any board,
// strict or clear-first, uniform or bag7, lookahead 0 or 1; `guideline` and `lee` accept a
// refinement only when it is their own value, except guideline's lookahead 0 or 1.  Throws
// RulesError naming the field.
Rules choose_rules(const RuleChoices& c);

// The spawn row of reachable placements: the lowest cell of the spawn state (srs.h
// spawn_state).  The first hidden row when there are 2 or more, else H - 2, the highest row
// from which every piece can turn in place.
constexpr int spawn_row(const Rules& r) {
  return r.geometry.height - (r.geometry.hidden > 2 ? r.geometry.hidden : 2);
}

}  // namespace tb
