#include "board.h"

#include <algorithm>

#include "checked_number.h"  // shown
#include "error.h"

namespace tb {

std::string check_geometry(Geometry g) {
  if (g.width < kMinWidth || g.width > kMaxWidth)
    return "board width " + std::to_string(g.width) + " is out of range " +
           std::to_string(kMinWidth) + ".." + std::to_string(kMaxWidth);
  if (g.height < kMinHeight || g.height > kMaxHeight)
    return "board height " + std::to_string(g.height) + " is out of range " +
           std::to_string(kMinHeight) + ".." + std::to_string(kMaxHeight);
  if (g.hidden < 0 || g.visible() < kMinHeight)
    return std::to_string(g.hidden) + " hidden rows leave " + std::to_string(g.visible()) +
           " visible rows (at least " + std::to_string(kMinHeight) + ")";
  return {};
}

std::optional<Geometry> parse_size(std::string_view text) {
  const auto x = text.find('x');
  if (x == std::string_view::npos) return std::nullopt;
  auto number = [](std::string_view digits, int& out) {
    if (digits.empty() || digits.size() > 3) return false;
    out = 0;
    for (char ch : digits) {
      if (ch < '0' || ch > '9') return false;
      out = out * 10 + (ch - '0');
    }
    return true;
  };
  Geometry g;
  if (!number(text.substr(0, x), g.width) || !number(text.substr(x + 1), g.height)) return std::nullopt;
  return g;
}

std::string size_name(Geometry g) { return std::to_string(g.width) + "x" + std::to_string(g.height); }

Geometry parse_board_size(std::string_view text) {
  const std::optional<Geometry> g = parse_size(text);
  if (!g) throw InputError("'" + shown(text) + "' is not WxH (for example 10x20)");
  if (std::string why = check_geometry(*g); !why.empty()) throw InputError(why);
  return *g;
}

int Board::wall_height(int width) const {
  Word any = 0;
  for (int c = 0; c < width; ++c) any |= cols[c];
  return column_height(any);
}

std::string to_text(const Board& b, Geometry g) {
  std::string s;
  for (int r = g.height - 1; r >= 0; --r) {
    for (int c = 0; c < g.width; ++c) s += b.filled(c, r) ? '#' : '.';
    s += '\n';
  }
  return s;
}

Board board_from_rows(const std::vector<std::string_view>& rows_top_first) {
  Board b;
  int r = static_cast<int>(rows_top_first.size());
  for (std::string_view row : rows_top_first) {
    --r;
    for (int c = 0; c < static_cast<int>(row.size()) && c < kMaxWidth; ++c)
      if (row[c] == '#') b.cols[c] |= Word{1} << r;
  }
  return b;
}

}  // namespace tb
