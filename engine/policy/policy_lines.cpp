#include "policy_lines.h"

#include <algorithm>
#include <sstream>

#include "checked_number.h"
#include "text_lines.h"

namespace tb {
namespace {

// Control characters (a newline or carriage return above all) are refused on both sides: a
// writer's would start another line, and a reader refuses them so that whatever it accepts
// can be written back.
bool printable(std::string_view value) {
  return std::all_of(value.begin(), value.end(), [](char ch) { return static_cast<unsigned char>(ch) >= 32 && ch != 127; });
}

// The reader's own rules decide: the line `key value` must split back into this value.  That
// refuses a '#' (a comment) and blanks at either end (trimmed).
void check_line_value(std::string_view key, std::string_view value) {
  const std::string line = std::string(key) + " " + std::string(value);
  if (!printable(value) || split_line(line).value != value)
    throw PolicyError("policy " + std::string(key) + " '" + shown(value) +
                      "' cannot be written: it must be one line of printable text without '#' or blanks at either end");
}

}  // namespace

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
  if ((key == "name" || key == "rules" || key == "source") && !printable(value))
    throw PolicyError(where + ": " + std::string(key) + " has a control character");
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

void check_common_keys(const Policy& p) {
  check_line_value("name", p.name);
  check_line_value("rules", p.rules);
  check_line_value("source", p.source);
}

}  // namespace tb
