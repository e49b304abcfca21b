#include "rules.h"

#include <array>

#include "checked_number.h"  // shown
#include "rule_sets.h"

namespace tb {
namespace {

// One table of names per field, in enum order: both directions read it.
constexpr std::array<std::string_view, 4> kOverflowNames = {"strict", "clear-first", "lock-out", "hidden-rows"};
constexpr std::array<std::string_view, 2> kGeneratorNames = {"uniform", "bag7"};
constexpr std::array<std::string_view, 2> kPlacementNames = {"drop", "reachable"};
constexpr std::array<std::string_view, static_cast<int>(RuleSet::RULE_SET_NB)> kRuleSetNames = {
    "research", "guideline", "lee"};
constexpr std::array<std::string_view, 2> kRotationNames = {"srs", "simple-kicks"};
constexpr std::array<std::string_view, 2> kClearBetweenNames = {"no-clear-between-plies", "clear-between-plies"};
constexpr std::array<std::string_view, 2> kLookaheadNames = {"lookahead0", "lookahead1"};
constexpr std::string_view kHiddenToken = "hidden";  // hiddenN: N hidden rows

template <std::size_t N>
const char* name_of(const std::array<std::string_view, N>& names, std::size_t value) {
  return value < N ? names[value].data() : "?";  // string literals: NUL-terminated
}

// The index of `text` in `names`, or -1.
template <std::size_t N>
int index_of(const std::array<std::string_view, N>& names, std::string_view text) {
  for (std::size_t i = 0; i < N; ++i)
    if (text == names[i]) return static_cast<int>(i);
  return -1;
}

// "a, b or c"
template <std::size_t N>
std::string choices(const std::array<std::string_view, N>& names) {
  std::string s;
  for (std::size_t i = 0; i < N; ++i) s += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(names[i]);
  return s;
}

template <class E, std::size_t N>
E parse_name(const std::array<std::string_view, N>& names, std::string_view text, const char* field,
             const char* what) {
  const int i = index_of(names, text);
  if (i < 0) throw RulesError(field, std::string("unknown ") + what + " '" + shown(text) + "' (" + choices(names) + ")");
  return static_cast<E>(i);
}

// hiddenN with N in 0..99 written as to_string writes it; -1 when `t` is not such a token.
int hidden_rows_of(std::string_view t) {
  if (!t.starts_with(kHiddenToken)) return -1;
  const std::string_view digits = t.substr(kHiddenToken.size());
  if (digits.empty() || digits.size() > 2 || (digits.size() == 2 && digits[0] == '0')) return -1;
  int n = 0;
  for (char ch : digits) {
    if (ch < '0' || ch > '9') return -1;
    n = n * 10 + (ch - '0');
  }
  return n;
}

// Applies one variant token to `r`; false when it is not a token.
bool apply_token(std::string_view t, Rules& r) {
  if (int i = index_of(kGeneratorNames, t); i >= 0) r.generator = static_cast<Generator>(i);
  else if (int i = index_of(kOverflowNames, t); i >= 0) r.overflow = static_cast<Overflow>(i);
  else if (int i = index_of(kLookaheadNames, t); i >= 0) r.lookahead = i;
  else if (int i = index_of(kPlacementNames, t); i >= 0) r.placement = static_cast<PlacementModel>(i);
  else if (int i = index_of(kRotationNames, t); i >= 0) r.rotation = static_cast<RotationSystem>(i);
  else if (int i = index_of(kClearBetweenNames, t); i >= 0) r.clear_between_plies = i == 1;
  else if (int n = hidden_rows_of(t); n >= 0) r.geometry.hidden = n;
  else return false;
  return true;
}

}  // namespace

const char* to_string(Overflow o) { return name_of(kOverflowNames, static_cast<std::size_t>(o)); }
const char* to_string(Generator g) { return name_of(kGeneratorNames, static_cast<std::size_t>(g)); }
const char* to_string(PlacementModel p) { return name_of(kPlacementNames, static_cast<std::size_t>(p)); }
const char* to_string(RuleSet s) { return name_of(kRuleSetNames, static_cast<std::size_t>(s)); }
const char* rotation_token(RotationSystem r) { return name_of(kRotationNames, static_cast<std::size_t>(r)); }

Overflow parse_overflow(std::string_view text) {
  return parse_name<Overflow>(kOverflowNames, text, "overflow", "overflow rule");
}
Generator parse_generator(std::string_view text) {
  return parse_name<Generator>(kGeneratorNames, text, "generator", "generator");
}
PlacementModel parse_placement(std::string_view text) {
  return parse_name<PlacementModel>(kPlacementNames, text, "placement", "placement model");
}
RuleSet parse_rule_set(std::string_view text) {
  return parse_name<RuleSet>(kRuleSetNames, text, "rules", "rule set");
}
RotationSystem parse_rotation(std::string_view text) {
  return parse_name<RotationSystem>(kRotationNames, text, "rotation", "rotation system");
}

std::vector<std::string> variant_tokens(const Rules& r) {
  const Rules p = rule_set(r.base);
  std::vector<std::string> t;
  if (r.generator != p.generator) t.emplace_back(to_string(r.generator));
  if (r.overflow != p.overflow) t.emplace_back(to_string(r.overflow));
  if (r.lookahead != p.lookahead) t.push_back("lookahead" + std::to_string(r.lookahead));
  if (r.placement != p.placement) t.emplace_back(to_string(r.placement));
  if (r.rotation != p.rotation) t.emplace_back(rotation_token(r.rotation));
  if (r.clear_between_plies != p.clear_between_plies) t.emplace_back(kClearBetweenNames[r.clear_between_plies]);
  if (r.geometry.hidden != p.geometry.hidden) t.push_back(std::string(kHiddenToken) + std::to_string(r.geometry.hidden));
  return t;
}

std::string rule_set_name(const Rules& r) {
  std::string name = to_string(r.base);
  for (const std::string& token : variant_tokens(r)) name += "+" + token;
  return name;
}

Rules parse_rule_set_name(std::string_view name, Geometry research_board) {
  const auto plus = name.find('+');
  const RuleSet base = parse_rule_set(name.substr(0, plus));
  Rules r = rule_set(base);
  if (base == RuleSet::research) r.geometry = {research_board.width, research_board.height, 0};
  for (std::string_view rest = plus == std::string_view::npos ? "" : name.substr(plus + 1); !rest.empty();) {
    const auto next = rest.find('+');
    const std::string_view token = rest.substr(0, next);
    if (!apply_token(token, r))
      throw RulesError("rules", "unknown rule-set variant '" + shown(token) + "' in '" + shown(name) + "'");
    rest = next == std::string_view::npos ? "" : rest.substr(next + 1);
  }
  check_rules(r);
  return r;
}

}  // namespace tb
