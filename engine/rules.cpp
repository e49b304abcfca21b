#include "rules.h"

namespace tb {

const char* to_string(Overflow o) { return o == Overflow::strict ? "strict" : "clear-first"; }
const char* to_string(Generator g) { return g == Generator::uniform ? "uniform" : "bag7"; }

std::string rule_set_name(const Rules& r) {
  std::string name = "research";
  if (r.generator != Generator::uniform) name += std::string("+") + to_string(r.generator);
  if (r.overflow != Overflow::strict) name += std::string("+") + to_string(r.overflow);
  if (r.lookahead != 0) name += "+lookahead" + std::to_string(r.lookahead);
  return name;
}

}  // namespace tb
