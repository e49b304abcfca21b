#include "policy_lines.h"

#include <sstream>

#include "text_lines.h"

namespace tb {

void read_policy_lines(
    std::string_view text, std::string_view origin, const LineFormat& format,
    const std::function<bool(std::string_view key, std::string_view value, const std::string& where)>& on_line) {
  bool magic = false, ended = false;
  int line_no = 0;
  std::istringstream in{std::string(text)};
  for (std::string raw; std::getline(in, raw);) {
    ++line_no;
    const std::string where = std::string(origin) + ":" + std::to_string(line_no);
    const auto [key, value] = split_line(raw);
    if (key.empty()) continue;
    if (ended) throw PolicyError(where + ": text after 'end'");
    if (!magic) {
      if (key != format.magic || value != "1")
        throw PolicyError(where + ": not " + std::string(format.noun) + " file (expected '" +
                          std::string(format.magic) + " 1')");
      magic = true;
      continue;
    }
    ended = on_line(key, value, where);
  }
  const std::string o(origin);
  if (!magic) throw PolicyError(o + ": empty file, not " + std::string(format.noun));
  if (!ended) throw PolicyError(o + ": truncated " + std::string(format.short_noun) + " file (no 'end' line)");
}

bool read_common_key(Policy& p, std::string_view key, std::string_view value, const std::string& where) {
  if (key == "name") {
    p.name = value;
  } else if (key == "rules") {
    p.rules = value;
  } else if (key == "source") {
    p.source = value;
  } else if (key == "reward") {
    if (value != "lines") throw PolicyError(where + ": reward must be 'lines'");
    p.reward_lines = true;
  } else {
    return false;
  }
  return true;
}

}  // namespace tb
