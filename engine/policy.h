// A policy: a named feature set and one weight per feature value.
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
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "feature_set.h"

namespace tb {

struct Policy {
  std::string name;
  const FeatureSet* features = nullptr;
  std::vector<double> weights;  // (features->dimension(W))
  std::string rules = "research";
  std::string source;
};

// Bad input: a one-line message naming the problem.
struct PolicyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `origin` names the file in messages.  Throws PolicyError.
Policy parse_policy(std::string_view text, std::string_view origin);
std::string format_policy(const Policy& p);

// Throws PolicyError unless the weight count fits the feature set on this board width.
void check_dimension(const Policy& p, int board_width);

// The reference policies of results/policies/, compiled in: dellacherie, bcts, dt20,
// eltetris, lee, article3.
std::vector<std::string_view> builtin_policy_names();
// A built-in name, else a path to a weight file.  Throws PolicyError.
Policy load_policy(std::string_view name_or_path);

}  // namespace tb
