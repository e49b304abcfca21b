#include "summary.h"

#include <algorithm>
#include <vector>

#include "statistics.h"

namespace tb {

PlaySummary summarize(std::span<const GameResult> games) {
  PlaySummary s;
  s.games = static_cast<std::int64_t>(games.size());
  if (games.empty()) return s;
  std::vector<double> lines;  // exact: line counts and their sums are far below 2^53
  std::int64_t holes = 0, height = 0, moves_measured = 0;
  s.min_lines = s.max_lines = games.front().lines;
  for (const GameResult& g : games) {  // index order: the sums are the same on every run
    lines.push_back(static_cast<double>(g.lines));
    s.lines += g.lines;
    s.min_lines = std::min(s.min_lines, g.lines);
    s.max_lines = std::max(s.max_lines, g.lines);
    s.pieces += g.pieces;
    s.tetrises += g.tetrises;
    s.capped_games += g.capped;
    holes += g.holes_created;
    height += g.height_sum;
    moves_measured += g.pieces - (g.capped ? 0 : 1);  // the game-ending move is not measured
  }
  const MeanCi m = mean_ci95(lines);
  s.mean_lines = m.mean;
  s.ci95_low = m.low;
  s.ci95_high = m.high;
  s.stddev_lines = m.stddev;
  s.median_lines = median(lines);
  s.holes_per_100_pieces = s.pieces ? 100.0 * static_cast<double>(holes) / static_cast<double>(s.pieces) : 0;
  s.mean_wall_height = moves_measured ? static_cast<double>(height) / static_cast<double>(moves_measured) : 0;
  s.tetrises_per_100_lines = s.lines ? 100.0 * static_cast<double>(s.tetrises) / static_cast<double>(s.lines) : 0;
  return s;
}

}  // namespace tb
