#include "stats.h"

#include <algorithm>
#include <cmath>

namespace tb::opt {
namespace {

double u_statistic(std::span<const double> a, std::span<const double> b) {
  double u = 0;
  for (double x : a)
    for (double y : b) u += x > y ? 1.0 : x == y ? 0.5 : 0.0;
  return u;
}

}  // namespace

MannWhitney mann_whitney(std::span<const double> a, std::span<const double> b) {
  MannWhitney r;
  const std::size_t n1 = a.size(), n2 = b.size(), n = n1 + n2;
  if (n1 == 0 || n2 == 0) return r;
  r.u = u_statistic(a, b);
  const double centre = 0.5 * static_cast<double>(n1 * n2);
  const double observed = std::fabs(r.u - centre);
  if (n <= 20) {
    std::vector<double> pooled(a.begin(), a.end());
    pooled.insert(pooled.end(), b.begin(), b.end());
    std::vector<bool> pick(n, false);
    std::fill(pick.begin(), pick.begin() + static_cast<long>(n1), true);
    std::sort(pick.begin(), pick.end());  // start from the lexicographically first split
    long total = 0, extreme = 0;
    std::vector<double> x, y;
    do {
      x.clear();
      y.clear();
      for (std::size_t i = 0; i < n; ++i) (pick[i] ? x : y).push_back(pooled[i]);
      ++total;
      if (std::fabs(u_statistic(x, y) - centre) >= observed - 1e-9) ++extreme;
    } while (std::next_permutation(pick.begin(), pick.end()));
    r.p = static_cast<double>(extreme) / static_cast<double>(total);
    return r;
  }
  // Normal approximation with the tie-corrected variance.
  std::vector<double> pooled(a.begin(), a.end());
  pooled.insert(pooled.end(), b.begin(), b.end());
  std::sort(pooled.begin(), pooled.end());
  double ties = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && pooled[j] == pooled[i]) ++j;
    const double t = static_cast<double>(j - i);
    ties += t * t * t - t;
    i = j;
  }
  const double nn = static_cast<double>(n);
  const double var = static_cast<double>(n1 * n2) / 12.0 * ((nn + 1) - ties / (nn * (nn - 1)));
  const double z = var > 0 ? std::max(0.0, observed - 0.5) / std::sqrt(var) : 0.0;
  r.p = std::erfc(z / std::sqrt(2.0));
  r.exact = false;
  return r;
}

}  // namespace tb::opt
