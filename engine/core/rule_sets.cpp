#include "rule_sets.h"

namespace tb {

Rules rule_set(RuleSet s) {
  Rules r;
  r.base = s;
  if (s == RuleSet::research) {
    r.geometry = {10, 10, 0};
    return r;
  }
  r.geometry = {10, 22, 2};
  r.generator = Generator::bag7;
  if (s == RuleSet::guideline) {
    r.placement = PlacementModel::reachable;
    r.overflow = Overflow::lock_out;
  } else {
    r.overflow = Overflow::hidden_rows;
    r.lookahead = 1;
    r.clear_between_plies = false;
  }
  return r;
}

void check_rules(const Rules& r) {
  if (std::string why = check_geometry(r.geometry); !why.empty()) throw RulesError("board", why);
  if (r.lookahead != 0 && r.lookahead != 1)
    throw RulesError("lookahead", "lookahead must be 0 or 1, not " + std::to_string(r.lookahead));
  const bool uses_hidden = r.overflow == Overflow::lock_out || r.overflow == Overflow::hidden_rows;
  if (uses_hidden && r.geometry.hidden < 1)
    throw RulesError("overflow", std::string("game-over rule ") + to_string(r.overflow) + " needs hidden rows");
  if (r.overflow == Overflow::lock_out && r.placement != PlacementModel::reachable)
    throw RulesError("overflow", "game-over rule lock-out needs reachable placements (a dropped piece may stick "
                                 "out above the board)");
  if (r.placement == PlacementModel::reachable && r.geometry.hidden > 8)
    throw RulesError("board", "reachable placements support at most 8 hidden rows");
}

namespace {

// "rule set lee fixes the board at 10x22 (20 visible and 2 hidden rows); leave it out"
std::string fixed(const Rules& preset, const std::string& what) {
  return std::string("rule set ") + to_string(preset.base) + " fixes " + what + "; leave it out";
}

Geometry choose_board(const Rules& preset, const std::string& text) {
  Geometry g;
  try {
    g = parse_board_size(text);
  } catch (const InputError& e) {
    throw RulesError("board", e.what());
  }
  if (preset.base == RuleSet::research) return g;
  const Geometry p = preset.geometry;
  if (g.width != p.width || g.height != p.height)
    throw RulesError("board", fixed(preset, "the board at " + size_name(p) + " (" + std::to_string(p.visible()) +
                                                " visible and " + std::to_string(p.hidden) + " hidden rows)"));
  return p;
}

Overflow choose_overflow(const Rules& preset, const std::string& text) {
  const Overflow v = parse_overflow(text);
  if (preset.base != RuleSet::research && v != preset.overflow)
    throw RulesError("overflow", fixed(preset, std::string("the game-over rule at ") + to_string(preset.overflow)));
  if (preset.base == RuleSet::research && v != Overflow::strict && v != Overflow::clear_first)
    for (int s = 0; s < static_cast<int>(RuleSet::RULE_SET_NB); ++s)
      if (rule_set(static_cast<RuleSet>(s)).overflow == v)
        throw RulesError("overflow", std::string(to_string(v)) + " belongs to rule set " +
                                         to_string(static_cast<RuleSet>(s)) + " (research: strict or clear-first)");
  return v;
}

}  // namespace

Rules choose_rules(const RuleChoices& c) {
  Rules r = rule_set(parse_rule_set(c.rules));
  const Rules preset = r;
  if (!c.board.empty()) r.geometry = choose_board(preset, c.board);
  if (!c.generator.empty()) {
    r.generator = parse_generator(c.generator);
    if (preset.base != RuleSet::research && r.generator != preset.generator)
      throw RulesError("generator", fixed(preset, std::string("the generator at ") + to_string(preset.generator)));
  }
  if (!c.overflow.empty()) r.overflow = choose_overflow(preset, c.overflow);
  if (c.lookahead != -1) {
    if (c.lookahead != 0 && c.lookahead != 1)
      throw RulesError("lookahead", "lookahead must be 0 or 1, not " + std::to_string(c.lookahead));
    if (preset.base == RuleSet::lee && c.lookahead != preset.lookahead)
      throw RulesError("lookahead", fixed(preset, "the lookahead at " + std::to_string(preset.lookahead) + " (one known next piece)"));
    r.lookahead = c.lookahead;
  }
  check_rules(r);
  return r;
}

}  // namespace tb
