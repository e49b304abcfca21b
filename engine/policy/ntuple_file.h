// The n-tuple network weights file, version 1 (docs/policy-format.md):
//   tetrisbench-ntuple 1
//   name ntuple-run0
//   layout v1          # engine/policy/ntuple.h
//   board 10x10        # the network's board; it plays no other
//   rules research
//   source ...
//   reward lines       # optional, as in policy files
//   entries 2          # the nonzero weights that follow, one `index value` line each
//   17 0.25
//   4242 -1.5
//   end
// Weights are written with 17 significant digits, so a file loads back bit-identical.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "policy.h"

namespace tb {

inline constexpr std::string_view kNTupleMagic = "tetrisbench-ntuple";

// Throws PolicyError naming the file and line.
Policy parse_ntuple_policy(std::string_view text, std::string_view origin);
std::string format_ntuple_policy(const Policy& p);
// The same text, passed to `sink` in consecutive pieces of at most about 64 KB: a learner's
// file is about 1 MB, and a buffer of that size costs a page fault for every new page.
void write_ntuple_policy(const Policy& p, const std::function<void(std::string_view)>& sink);

}  // namespace tb
