// Fuzz target: linear policy files ("tetrisbench-policy 1", engine/policy/policy.h).
//
// Whatever parse_policy accepts, format_policy must write back as a file that parses to the
// same policy: the same name, feature set, rules, source and reward, and bit-identical
// weights; and formatting that second policy gives the same text.  PolicyError is the only
// exception parse_policy may throw.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "policy.h"

namespace {
constexpr std::string_view kOrigin = "fuzz.policy";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using tb::fuzz::check;
  tb::Policy p;
  try {
    p = tb::parse_policy(tb::fuzz::as_text(data, size), kOrigin);
  } catch (const tb::PolicyError&) {
    return 0;
  }
  check(p.features != nullptr && !p.network, "a parsed policy has a feature set and no network");
  check(!p.name.empty(), "a parsed policy has a name");
  (void)tb::feature_label(p);
  try {  // what a caller does next with a loaded policy
    tb::check_dimension(p, tb::Geometry{});
  } catch (const tb::PolicyError&) {
  }

  const std::string once = tb::format_policy(p);
  tb::Policy q;
  try {
    q = tb::parse_policy(once, kOrigin);
  } catch (const tb::PolicyError& e) {
    tb::fuzz::fail(std::string("parse_policy rejects what format_policy wrote: ") + e.what(), once);
  }
  check(q.name == p.name, "name changed in the round trip", p.name, q.name);
  check(q.features == p.features, "feature set changed in the round trip", once);
  check(q.rules == p.rules, "rules changed in the round trip", p.rules, q.rules);
  check(q.source == p.source, "source changed in the round trip", p.source, q.source);
  check(q.reward_lines == p.reward_lines, "reward changed in the round trip", once);
  check(!q.network, "a network appeared in the round trip", once);
  check(tb::fuzz::same_bits(q.weights, p.weights), "weights are not bit-identical after the round trip", once);
  const std::string twice = tb::format_policy(q);
  check(twice == once, "format_policy(parse_policy(format_policy(p))) != format_policy(p)", once, twice);
  return 0;
}
