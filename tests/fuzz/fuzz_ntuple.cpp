// Fuzz target: n-tuple network files ("tetrisbench-ntuple 1", engine/policy/ntuple_file.h).
//
// Whatever parse_ntuple_policy accepts, format_ntuple_policy (and format_policy, which
// dispatches to it) must write back as a file that parses to the same network: the same
// name, rules, source, reward and board, and the same weights (bit-identical, except that a
// weight of -0.0 may come back as 0.0: the writer lists only nonzero entries).  Formatting
// the second network gives the same text.  PolicyError is the only exception it may throw.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "ntuple_file.h"

namespace {

constexpr std::string_view kOrigin = "fuzz.ntuple";

bool same_weights(const tb::NTupleNetwork& a, const tb::NTupleNetwork& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = a.weights()[i], y = b.weights()[i];
    if (x == 0.0 && y == 0.0) continue;
    if (std::bit_cast<std::uint64_t>(x) != std::bit_cast<std::uint64_t>(y)) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using tb::fuzz::check;
  tb::Policy p;
  try {
    p = tb::parse_ntuple_policy(tb::fuzz::as_text(data, size), kOrigin);
  } catch (const tb::PolicyError&) {
    return 0;
  }
  check(p.network != nullptr && p.features == nullptr, "a parsed n-tuple file has a network and no feature set");
  check(!p.name.empty(), "a parsed n-tuple file has a name");
  const tb::Geometry g = p.network->geometry();
  try {  // what a caller does next with a loaded policy
    tb::check_dimension(p, g);
  } catch (const tb::PolicyError& e) {
    tb::fuzz::fail(std::string("check_dimension rejects the network on its own board: ") + e.what());
  }

  const std::string once = tb::format_ntuple_policy(p);
  check(tb::format_policy(p) == once, "format_policy and format_ntuple_policy differ", once);
  tb::Policy q;
  try {
    q = tb::parse_ntuple_policy(once, kOrigin);
  } catch (const tb::PolicyError& e) {
    tb::fuzz::fail(std::string("parse_ntuple_policy rejects what format_ntuple_policy wrote: ") + e.what(), once);
  }
  check(q.name == p.name, "name changed in the round trip", p.name, q.name);
  check(q.rules == p.rules, "rules changed in the round trip", p.rules, q.rules);
  check(q.source == p.source, "source changed in the round trip", p.source, q.source);
  check(q.reward_lines == p.reward_lines, "reward changed in the round trip", once);
  check(q.network && q.features == nullptr, "the round trip lost the network", once);
  const tb::Geometry h = q.network->geometry();
  check(h.width == g.width && h.height == g.height, "board changed in the round trip", once);
  check(same_weights(*p.network, *q.network), "weights changed in the round trip", once);
  const std::string twice = tb::format_ntuple_policy(q);
  check(twice == once, "format(parse(format(p))) != format(p)", once, twice);
  return 0;
}
