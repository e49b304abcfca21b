// A policy: a named feature set and one weight per feature value (a linear evaluation), or an
// n-tuple network (engine/policy/ntuple.h).  Either may add the lines cleared by the move to its
// rating (`reward lines`): then the evaluation is an afterstate value, as TD learning makes.
//
// Weight file format, version 1 (docs/policy-format.md).  One `key value...` per line, `#`
// starts a comment, and the file must end with `end` so that a truncated file is caught:
//   tetrisbench-policy 1
//   name bcts
//   features bcts
//   rules research
//   source Thiery & Scherrer (2009) ...
//   weights -12.629 6.601974 ...
//   end
// Optional: `reward lines`.  N-tuple networks have their own file, "tetrisbench-ntuple 1"
// (engine/policy/ntuple_file.h); load_policy() reads both.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "feature_set.h"
#include "error.h"
#include "ntuple.h"

namespace tb {

struct Policy {
  std::string name;
  const FeatureSet* features = nullptr;  // a linear policy's set; null for an n-tuple network
  std::vector<double> weights;           // (features->dimension(W))
  bool reward_lines = false;             // rating = lines cleared by the move + evaluation
  std::shared_ptr<const NTupleNetwork> network;  // an n-tuple policy's tables
  std::string rules = "research";
  std::string source;
};

// A policy or n-tuple file is read up to this size (an n-tuple file on 16x28 is a few MB).
inline constexpr std::size_t kMaxPolicyBytes = std::size_t{64} << 20;

// Bad input: a one-line message naming the problem.
struct PolicyError : InputError {
  using InputError::InputError;
};

// `origin` names the file in messages.  Throws PolicyError.
Policy parse_policy(std::string_view text, std::string_view origin);
std::string format_policy(const Policy& p);
// format_policy's text, passed to `sink` in consecutive pieces (an n-tuple network's file in
// pieces of about 64 KB, so that writing it needs no buffer of its size).
void write_policy(const Policy& p, const std::function<void(std::string_view)>& sink);

// "bcts", or "ntuple-v1" for an n-tuple network.
std::string feature_label(const Policy& p);

// Throws PolicyError unless the weight count fits the feature set on this board (an n-tuple
// network only plays the board it was made for).
void check_dimension(const Policy& p, Geometry board);

// The reference policies of results/policies/, compiled in: dellacherie, bcts, dt20,
// eltetris, lee, article3.
std::vector<std::string_view> builtin_policy_names();
// A built-in name, else a path to a weight file.  Throws PolicyError.
Policy load_policy(std::string_view name_or_path);

}  // namespace tb
