// Small helpers for the line-oriented text files (policies, n-tuple networks).
#pragma once

#include <string_view>

namespace tb {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A line without its `#` comment and surrounding blanks, split into key and value.
struct KeyValue {
  std::string_view key, value;
};
inline KeyValue split_line(std::string_view line) {
  if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
  line = trim(line);
  const auto sp = line.find_first_of(" \t");
  return {line.substr(0, sp), sp == std::string_view::npos ? std::string_view{} : trim(line.substr(sp))};
}

}  // namespace tb
