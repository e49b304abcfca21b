#include "summary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tb {

double t_quantile_975(std::int64_t dof) {
  // Exact table for small dof; beyond it the Cornish-Fisher expansion around z (Abramowitz &
  // Stegun 26.7.5) is accurate to better than 1e-4.
  static constexpr double kTable[] = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706,
                                      2.4469,  2.3646, 2.3060, 2.2622, 2.2281};
  if (dof <= 10) return kTable[std::max<std::int64_t>(dof, 1) - 1];
  const double z = 1.959963984540054, n = static_cast<double>(dof);
  const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
  return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * n * n * n);
}

PlaySummary summarize(std::span<const GameResult> games) {
  PlaySummary s;
  s.games = static_cast<std::int64_t>(games.size());
  if (games.empty()) return s;
  std::vector<std::int64_t> lines;
  std::int64_t holes = 0, height = 0, moves_measured = 0;
  for (const GameResult& g : games) {  // index order: the sums are the same on every run
    lines.push_back(g.lines);
    s.lines += g.lines;
    s.pieces += g.pieces;
    s.tetrises += g.tetrises;
    s.capped_games += g.capped;
    holes += g.holes_created;
    height += g.height_sum;
    moves_measured += g.pieces - (g.capped ? 0 : 1);  // the game-ending move is not measured
  }
  const double n = static_cast<double>(s.games);
  s.mean_lines = static_cast<double>(s.lines) / n;
  double ss = 0;
  for (std::int64_t v : lines) ss += (v - s.mean_lines) * (v - s.mean_lines);
  s.stddev_lines = s.games > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
  if (s.games > 1) {
    const double half = t_quantile_975(s.games - 1) * s.stddev_lines / std::sqrt(n);
    s.ci95_low = s.mean_lines - half;
    s.ci95_high = s.mean_lines + half;
  } else {
    s.ci95_low = s.ci95_high = std::numeric_limits<double>::quiet_NaN();
  }
  std::sort(lines.begin(), lines.end());
  const std::size_t m = lines.size();
  s.median_lines = m % 2 ? static_cast<double>(lines[m / 2])
                         : 0.5 * static_cast<double>(lines[m / 2 - 1] + lines[m / 2]);
  s.min_lines = lines.front();
  s.max_lines = lines.back();
  s.holes_per_100_pieces = s.pieces ? 100.0 * static_cast<double>(holes) / static_cast<double>(s.pieces) : 0;
  s.mean_wall_height = moves_measured ? static_cast<double>(height) / static_cast<double>(moves_measured) : 0;
  s.tetrises_per_100_lines = s.lines ? 100.0 * static_cast<double>(s.tetrises) / static_cast<double>(s.lines) : 0;
  return s;
}

}  // namespace tb
