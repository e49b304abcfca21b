// The line mechanics both weight-file formats share (policy files and n-tuple files): a
// `MAGIC 1` first line, `key value` lines with `#` comments and blank lines, and a final
// `end`, so that a truncated file is caught.  Errors are PolicyError, one line naming the
// file and line.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "policy.h"

namespace tb {

// How a format names itself in messages, e.g. {"tetrisbench-policy", "a tetrisbench policy",
// "policy"} gives "not a tetrisbench policy file (expected 'tetrisbench-policy 1')",
// "empty file, not a tetrisbench policy" and "truncated policy file (no 'end' line)".
struct LineFormat {
  std::string_view magic;
  std::string_view noun;
  std::string_view short_noun;
};

// Calls on_line(key, value, where) for every line after the magic line, where = "origin:N";
// on_line returns true for the line that ends the file.  Throws PolicyError for a missing or
// wrong magic line, text after the end, and a file without its end.
void read_policy_lines(
    std::string_view text, std::string_view origin, const LineFormat& format,
    const std::function<bool(std::string_view key, std::string_view value, const std::string& where)>& on_line);

// The keys both formats have: name, rules, source and `reward lines`.  Returns false for any
// other key.  A name, rules or source with a control character is refused, as the writers
// refuse it.
bool read_common_key(Policy& p, std::string_view key, std::string_view value, const std::string& where);

// The writers' side of read_common_key: throws PolicyError unless name, rules and source each
// read back as themselves from their `key value` line, so that no value (a name from the
// command line or Python) can end its line early and add lines that change how the file plays.
void check_common_keys(const Policy& p);

}  // namespace tb
