#include "cli_common.h"

#include <stdexcept>

#include "file_io.h"
#include "isa.h"

namespace tb {

void check_distinct(std::initializer_list<std::pair<std::string_view, std::string>> paths) {
  for (auto a = paths.begin(); a != paths.end(); ++a)
    for (auto b = a + 1; b != paths.end(); ++b)
      if (!a->second.empty() && !b->second.empty() && same_file(a->second, b->second))
        throw UsageError(std::string(a->first) + " and " + std::string(b->first) + " name the same file '" +
                         b->second + "'");
}

const KernelVariant& choose_kernel(const std::string& forced) { return choose_isa(forced).variant(); }

Rules rules_from_flags(const RuleChoices& choices) {
  try {
    return choose_rules(choices);
  } catch (const RulesError& e) {
    throw UsageError("--" + e.field + ": " + e.what());
  }
}

}  // namespace tb
