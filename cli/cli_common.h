// What the commands share: the bad-input error of the command line, the output-path check,
// the kernel choice and the rule set the flags choose.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "error.h"
#include "kernel_variants.h"
#include "rule_sets.h"

namespace tb {

// Bad input from the user: exit code 2 with this one-line message.
struct UsageError : InputError {
  using InputError::InputError;
};

// Throws UsageError if two of the non-empty paths name the same file (an output must never
// overwrite an input or another output).
void check_distinct(std::initializer_list<std::pair<std::string_view, std::string>> paths);

// The one override (choose_isa, engine/search/isa.h): InputError for an unknown name or a
// level this CPU lacks.
const KernelVariant& choose_kernel(const std::string& forced);

// choose_rules() with UsageError naming the flag: "--board: rule set lee fixes ...".
Rules rules_from_flags(const RuleChoices& choices);

}  // namespace tb
