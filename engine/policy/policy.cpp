#include "policy.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "checked_number.h"  // shown
#include "file_io.h"
#include "ntuple_file.h"
#include "policy_lines.h"
#include "text_lines.h"

namespace tb {

// Generated from results/policies/*.policy (results/CMakeLists.txt).
struct BuiltinPolicyText {
  std::string_view name;
  std::string_view text;
};
extern const BuiltinPolicyText kBuiltinPolicies[];
extern const int kBuiltinPolicyCount;

namespace {

constexpr std::string_view kMagic = "tetrisbench-policy";

std::vector<double> parse_weights(std::string_view rest, const std::string& where) {
  std::vector<double> w;
  while (!(rest = trim(rest)).empty()) {
    const auto end = rest.find_first_of(" \t");
    const std::string_view tok = rest.substr(0, end);
    double v = 0;
    const auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (ec != std::errc{} || ptr != tok.data() + tok.size() || !std::isfinite(v))
      throw PolicyError(where + ": weight '" + std::string(tok) + "' is not a finite number");
    w.push_back(v);
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
  }
  return w;
}

}  // namespace

Policy parse_policy(std::string_view text, std::string_view origin) {
  Policy p;
  bool has_weights = false;
  read_policy_lines(text, origin, {kMagic, "a tetrisbench policy", "policy"},
                    [&](std::string_view key, std::string_view value, const std::string& where) {
                      if (read_common_key(p, key, value, where)) return false;
                      if (key == "end") return true;
                      if (key == "features") {
                        p.features = find_feature_set(value);
                        if (!p.features)
                          throw PolicyError(where + ": unknown feature set '" + std::string(value) + "'");
                      } else if (key == "weights") {
                        p.weights = parse_weights(value, where);
                        has_weights = true;
                      } else {
                        throw PolicyError(where + ": unknown key '" + std::string(key) + "'");
                      }
                      return false;
                    });
  const std::string o(origin);
  if (!p.features) throw PolicyError(o + ": no 'features' line");
  if (!has_weights) throw PolicyError(o + ": no 'weights' line");
  if (p.name.empty()) p.name = o;
  return p;
}

void write_policy(const Policy& p, const std::function<void(std::string_view)>& sink) {
  if (p.network) {
    write_ntuple_policy(p, sink);
  } else {
    sink(format_policy(p));
  }
}

std::string format_policy(const Policy& p) {
  if (p.network) return format_ntuple_policy(p);
  check_common_keys(p);
  std::ostringstream out;
  out.precision(17);
  out << kMagic << " 1\nname " << p.name << "\nfeatures " << p.features->name << "\nrules "
      << p.rules << "\n";
  if (!p.source.empty()) out << "source " << p.source << "\n";
  if (p.reward_lines) out << "reward lines\n";
  out << "weights";
  for (double w : p.weights) out << ' ' << w;
  out << "\nend\n";
  return out.str();
}

std::string feature_label(const Policy& p) {
  return p.network ? "ntuple-" + std::string(kNTupleLayout) : std::string(p.features->name);
}

void check_dimension(const Policy& p, Geometry board) {
  if (p.network) {
    const Geometry g = p.network->geometry();
    if (g.width != board.width || g.height != board.height)
      throw PolicyError("policy '" + p.name + "' is an n-tuple network for " + size_name(g) + ", not " +
                        size_name(board));
    return;
  }
  const int board_width = board.width;
  const int need = p.features->dimension(board_width);
  if (static_cast<int>(p.weights.size()) != need)
    throw PolicyError("policy '" + p.name + "' has " + std::to_string(p.weights.size()) +
                      " weights but feature set '" + std::string(p.features->name) + "' needs " +
                      std::to_string(need) + " on a " + std::to_string(board_width) + "-wide board");
}

std::vector<std::string_view> builtin_policy_names() {
  std::vector<std::string_view> names;
  for (int i = 0; i < kBuiltinPolicyCount; ++i) names.push_back(kBuiltinPolicies[i].name);
  return names;
}

Policy load_policy(std::string_view name_or_path) {
  for (int i = 0; i < kBuiltinPolicyCount; ++i)
    if (kBuiltinPolicies[i].name == name_or_path)
      return parse_policy(kBuiltinPolicies[i].text, kBuiltinPolicies[i].name);
  const std::string path(name_or_path);
  const bool looks_like_path = path.find('/') != std::string::npos || path.find('.') != std::string::npos;
  if (!looks_like_path && !path_exists(path)) {
    std::string known;
    for (auto n : builtin_policy_names()) known += (known.empty() ? "" : ", ") + std::string(n);
    throw PolicyError("unknown policy '" + shown(path) + "' (built-in: " + known + "; or give a file path)");
  }
  std::string body;
  try {
    body = read_input_file(path, "policy file", kMaxPolicyBytes);
  } catch (const InputError& e) {
    throw PolicyError(e.what());
  }
  // The first key decides the format (comments and blank lines may come first).
  std::istringstream lines(body);
  for (std::string raw; std::getline(lines, raw);) {
    const KeyValue kv = split_line(raw);
    if (kv.key.empty()) continue;
    if (kv.key == kNTupleMagic) return parse_ntuple_policy(body, path);
    break;
  }
  return parse_policy(body, path);
}

}  // namespace tb
