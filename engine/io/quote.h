// How values from outside appear in messages.  Any of them may hold a newline, which would
// break the promise of a one-line error, or a terminal escape sequence, which would reach the
// user's terminal as a command (docs/threat-model.md).
#pragma once

#include <string>
#include <string_view>

namespace tb {

// Text quoted in a one-line message: at most 40 printable characters, then "...".
inline std::string shown(std::string_view text) {
  std::string out;
  for (char ch : text.substr(0, 40)) out += (ch >= 32 && ch < 127) ? ch : '?';
  return text.size() > 40 ? out + "..." : out;
}

// All of `text`, with its control characters (below 32, and 127) written as visible escapes
// (\n, \r, \t, \x1b), so that it prints as one line and sends the terminal no command.
inline std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if (byte >= 32 && byte != 127) out += ch;
    else if (ch == '\n') out += "\\n";
    else if (ch == '\r') out += "\\r";
    else if (ch == '\t') out += "\\t";
    else out += {'\\', 'x', "0123456789abcdef"[byte >> 4], "0123456789abcdef"[byte & 15]};
  }
  return out;
}

}  // namespace tb
