#include "statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size();
  return m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
}

MeanCi mean_ci95(std::span<const double> v) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (v.empty()) return {nan, nan, nan, nan};
  MeanCi r;
  double sum = 0;
  for (double x : v) sum += x;
  const double n = static_cast<double>(v.size());
  r.mean = sum / n;
  if (v.size() < 2) {
    r.low = r.high = r.stddev = nan;  // undefined from one value, not 0
    return r;
  }
  double ss = 0;
  for (double x : v) ss += (x - r.mean) * (x - r.mean);
  r.stddev = std::sqrt(ss / (n - 1));
  const double half = t_quantile_975(static_cast<std::int64_t>(v.size()) - 1) * r.stddev / std::sqrt(n);
  r.low = r.mean - half;
  r.high = r.mean + half;
  return r;
}

}  // namespace tb
