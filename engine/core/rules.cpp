#include "rules.h"

#include "rule_sets.h"

namespace tb {

const char* to_string(Overflow o) {
  switch (o) {
    case Overflow::strict: return "strict";
    case Overflow::clear_first: return "clear-first";
    case Overflow::lock_out: return "lock-out";
    case Overflow::hidden_rows: return "hidden-rows";
  }
  return "?";
}
const char* to_string(Generator g) { return g == Generator::uniform ? "uniform" : "bag7"; }
const char* to_string(PlacementModel p) { return p == PlacementModel::drop ? "drop" : "reachable"; }
const char* to_string(RuleSet s) {
  switch (s) {
    case RuleSet::research: return "research";
    case RuleSet::guideline: return "guideline";
    case RuleSet::lee: return "lee";
    case RuleSet::RULE_SET_NB: break;
  }
  return "?";
}

std::string rule_set_name(const Rules& r) {
  std::string name = to_string(r.base);
  for (const std::string& token : variant_tokens(r)) name += "+" + token;
  return name;
}

}  // namespace tb
