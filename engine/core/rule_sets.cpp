#include "rule_sets.h"

#include <array>

namespace tb {

Rules rule_set(RuleSet s) {
  Rules r;
  r.base = s;
  if (s == RuleSet::research) return r;
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

std::optional<RuleSet> find_rule_set(std::string_view name) {
  for (int s = 0; s < static_cast<int>(RuleSet::RULE_SET_NB); ++s)
    if (name == to_string(static_cast<RuleSet>(s))) return static_cast<RuleSet>(s);
  return std::nullopt;
}

std::string rule_set_names() { return "research, guideline or lee"; }

namespace {

constexpr std::string_view kClearBetween = "clear-between-plies";
constexpr std::string_view kNoClearBetween = "no-clear-between-plies";

// Applies one token to `r`; false when it is not a token.
bool apply_token(std::string_view t, Rules& r) {
  if (t == "uniform" || t == "bag7") {
    r.generator = t == "bag7" ? Generator::bag7 : Generator::uniform;
    return true;
  }
  for (Overflow o : {Overflow::strict, Overflow::clear_first, Overflow::lock_out, Overflow::hidden_rows})
    if (t == to_string(o)) {
      r.overflow = o;
      return true;
    }
  if (t == "lookahead0" || t == "lookahead1") {
    r.lookahead = t.back() - '0';
    return true;
  }
  if (t == "drop" || t == "reachable") {
    r.placement = t == "drop" ? PlacementModel::drop : PlacementModel::reachable;
    return true;
  }
  if (t == "srs" || t == "simple-kicks") {
    r.rotation = t == "srs" ? RotationSystem::srs : RotationSystem::simple;
    return true;
  }
  if (t == kClearBetween || t == kNoClearBetween) {
    r.clear_between_plies = t == kClearBetween;
    return true;
  }
  if (t.starts_with("hidden") && t.size() == 7 && t[6] >= '0' && t[6] <= '9') {
    r.geometry.hidden = t[6] - '0';
    return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> variant_tokens(const Rules& r) {
  const Rules p = rule_set(r.base);
  std::vector<std::string> t;
  if (r.generator != p.generator) t.emplace_back(to_string(r.generator));
  if (r.overflow != p.overflow) t.emplace_back(to_string(r.overflow));
  if (r.lookahead != p.lookahead) t.push_back("lookahead" + std::to_string(r.lookahead));
  if (r.placement != p.placement) t.emplace_back(to_string(r.placement));
  if (r.rotation != p.rotation) t.emplace_back(r.rotation == RotationSystem::srs ? "srs" : "simple-kicks");
  if (r.clear_between_plies != p.clear_between_plies)
    t.emplace_back(r.clear_between_plies ? kClearBetween : kNoClearBetween);
  if (r.geometry.hidden != p.geometry.hidden) t.push_back("hidden" + std::to_string(r.geometry.hidden));
  return t;
}

std::string parse_rule_set_name(std::string_view name, Geometry research_board, Rules& out) {
  const auto plus = name.find('+');
  const auto base = find_rule_set(name.substr(0, plus));
  if (!base) return "unknown rule set '" + std::string(name.substr(0, plus)) + "' (" + rule_set_names() + ")";
  Rules r = rule_set(*base);
  if (*base == RuleSet::research) r.geometry = {research_board.width, research_board.height, 0};
  for (std::string_view rest = plus == std::string_view::npos ? "" : name.substr(plus + 1); !rest.empty();) {
    const auto next = rest.find('+');
    const std::string_view token = rest.substr(0, next);
    if (!apply_token(token, r)) return "unknown rule-set variant '" + std::string(token) + "' in '" + std::string(name) + "'";
    rest = next == std::string_view::npos ? "" : rest.substr(next + 1);
  }
  out = r;
  return check_rules(r);
}

std::string check_rules(const Rules& r) {
  if (auto e = check_geometry(r.geometry); !e.empty()) return e;
  if (r.lookahead != 0 && r.lookahead != 1) return "lookahead must be 0 or 1";
  const bool uses_hidden = r.overflow == Overflow::lock_out || r.overflow == Overflow::hidden_rows;
  if (uses_hidden && r.geometry.hidden < 1)
    return std::string("game-over rule ") + to_string(r.overflow) + " needs hidden rows";
  if (r.overflow == Overflow::lock_out && r.placement != PlacementModel::reachable)
    return "game-over rule lock-out needs reachable placements (a dropped piece may stick out above the board)";
  if (r.placement == PlacementModel::reachable && r.geometry.hidden > 8)
    return "reachable placements support at most 8 hidden rows";
  return {};
}

}  // namespace tb
