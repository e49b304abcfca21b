// Fuzz target: replay files ("tetrisbench-replay 1", engine/replay/replay.h).
//
// Whatever parse_replay accepts, format_replay must write without complaint (it refuses only
// what the parser would reject), and that text must parse to an equal Replay and format to
// the same text again.  ReplayError is the only exception parse_replay may throw.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_check.h"
#include "replay.h"

namespace {
constexpr std::string_view kOrigin = "fuzz.replay";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using tb::fuzz::check;
  tb::Replay r;
  try {
    r = tb::parse_replay(tb::fuzz::as_text(data, size), kOrigin);
  } catch (const tb::ReplayError&) {
    return 0;
  }
  check(r.inputs.empty() || r.inputs.size() == r.moves.size(), "a parsed replay has one input per move, or none");

  std::string once;
  try {
    once = tb::format_replay(r);
  } catch (const tb::ReplayError& e) {
    tb::fuzz::fail(std::string("format_replay refuses a replay that parse_replay accepted: ") + e.what(),
                   tb::fuzz::as_text(data, size));
  }
  tb::Replay q;
  try {
    q = tb::parse_replay(once, kOrigin);
  } catch (const tb::ReplayError& e) {
    tb::fuzz::fail(std::string("parse_replay rejects what format_replay wrote: ") + e.what(), once);
  }
  check(q == r, "the replay changed in the round trip", tb::fuzz::as_text(data, size), once);
  const std::string twice = tb::format_replay(q);
  check(twice == once, "format(parse(format(r))) != format(r)", once, twice);
  return 0;
}
