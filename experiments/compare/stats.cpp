#include "stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "random.h"

namespace tb::opt {
namespace {

double u_statistic(std::span<const double> a, std::span<const double> b) {
  double u = 0;
  for (double x : a)
    for (double y : b) u += x > y ? 1.0 : x == y ? 0.5 : 0.0;
  return u;
}

// The normal approximation's two-sided p for |U - n1 n2 / 2| = observed, with the tie-corrected
// variance (`ties` = sum of t^3 - t over groups of equal values) and the continuity correction.
double normal_p(double observed, std::size_t n1, std::size_t n2, double ties) {
  const double nn = static_cast<double>(n1 + n2);
  const double var = static_cast<double>(n1 * n2) / 12.0 * ((nn + 1) - ties / (nn * (nn - 1)));
  const double z = var > 0 ? std::max(0.0, observed - 0.5) / std::sqrt(var) : 0.0;
  return std::erfc(z / std::sqrt(2.0));
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
  r.p = normal_p(observed, n1, n2, ties);
  r.exact = false;
  return r;
}

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); }

// Standard normal quantile by bisection on erfc: slow but accurate to the last bits of erfc,
// with no table of constants to get wrong.  Solved on the lower half only, where erfc keeps
// full relative precision; 1 - p is exact for p >= 0.5 (Sterbenz), so the mirror loses nothing.
double normal_quantile(double p) {
  if (!(p > 0 && p < 1)) return p == 0 ? -INFINITY : p == 1 ? INFINITY : kNaN;
  if (p > 0.5) return -normal_quantile(1 - p);
  double lo = -40, hi = 0;  // Phi(-40) underflows to 0, below any double p > 0
  for (;;) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) return mid;
    (normal_cdf(mid) < p ? lo : hi) = mid;
  }
}

// The resampled mean nearest to rank alpha (B + 1) (Efron & Tibshirani ch. 13 take the
// B alpha-th); an order statistic rather than an interpolation, so a last-bit difference in
// erfc between machines cannot move the bound.
double bootstrap_quantile(const std::vector<double>& sorted, double alpha) {
  const double b = static_cast<double>(sorted.size());
  const double rank = std::clamp(std::round(alpha * (b + 1)), 1.0, b);
  return sorted[static_cast<std::size_t>(rank) - 1];
}

// Jackknife acceleration (Efron & Tibshirani ch. 14).  For the mean the leave-one-out deviation
// mean - mean_(i) is (v_i - mean) / (n - 1); the (n - 1) factors cancel in the ratio, so the
// plain deviations give the same a without the cancellation of (sum - v_i) / (n - 1).
double jackknife_acceleration(std::span<const double> v, double mean) {
  double s2 = 0, s3 = 0;
  for (double x : v) {
    const double d = x - mean;
    s2 += d * d;
    s3 += d * d * d;
  }
  return s3 / (6 * std::pow(s2, 1.5));  // NaN when all values are equal
}

std::uint64_t binomial(int n, int k) {
  std::uint64_t c = 1;
  for (int i = 1; i <= k; ++i) c = c * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
  return c;  // exact: each partial product is C(n - k + i, i) times i
}

}  // namespace

BootstrapCi bootstrap_mean_ci95(std::span<const double> v, std::uint64_t seed, int resamples) {
  if (resamples < 1) throw std::invalid_argument("bootstrap_mean_ci95: resamples must be at least 1");
  if (v.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("bootstrap_mean_ci95: more than 2^32 - 1 values");
  BootstrapCi r;
  r.seed = seed;
  r.low = r.high = kNaN;
  if (v.size() < 2 || !std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }))
    return r;

  const auto n = static_cast<std::uint32_t>(v.size());
  double sum = 0;
  for (double x : v) sum += x;
  const double mean = sum / n;

  Random rng = Random::from_seed(seed);
  std::vector<double> means(static_cast<std::size_t>(resamples));
  for (double& m : means) {
    double s = 0;
    for (std::uint32_t i = 0; i < n; ++i) s += v[rng.below(n)];
    m = s / n;
  }
  std::sort(means.begin(), means.end());
  r.resamples = resamples;

  // Bias correction from the share below the sample mean; ties count half, which matters for
  // integer line counts, where resampled means often equal the mean exactly.
  const auto below = std::lower_bound(means.begin(), means.end(), mean) - means.begin();
  const auto at_or_below = std::upper_bound(means.begin(), means.end(), mean) - means.begin();
  const double z0 = normal_quantile(0.5 * static_cast<double>(below + at_or_below) / resamples);
  const double a = jackknife_acceleration(v, mean);

  // BCa levels (Efron & Tibshirani ch. 14); undefined when z0 is infinite, a is NaN, or the
  // denominator is not positive (the transformation would no longer be monotone).
  auto level = [&](double alpha) {
    const double w = z0 + normal_quantile(alpha);
    const double denominator = 1 - a * w;
    return denominator > 0 ? normal_cdf(z0 + w / denominator) : kNaN;
  };
  double lo_level = kNaN, hi_level = kNaN;
  if (means.front() != means.back() && std::isfinite(z0) && std::isfinite(a)) {
    lo_level = level(0.025);
    hi_level = level(0.975);
  }
  if (std::isnan(lo_level) || std::isnan(hi_level)) {
    r.method = "percentile";
    lo_level = 0.025;
    hi_level = 0.975;
  }
  // A mean of values can round a last bit outside their range; the bounds may not.
  const auto [vmin, vmax] = std::minmax_element(v.begin(), v.end());
  r.low = std::clamp(bootstrap_quantile(means, lo_level), *vmin, *vmax);
  r.high = std::clamp(bootstrap_quantile(means, hi_level), *vmin, *vmax);
  return r;
}

std::vector<double> holm_adjust(std::span<const double> p) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (std::isnan(p[i])) continue;
    if (p[i] < 0 || p[i] > 1) throw std::invalid_argument("holm_adjust: a p-value is outside [0, 1]");
    order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
  std::vector<double> adjusted(p.begin(), p.end());  // NaN entries stay as they are
  const std::size_t m = order.size();
  double running = 0;  // the max over j <= i keeps the adjusted values in the order of the raw ones
  for (std::size_t j = 0; j < m; ++j) {
    running = std::max(running, std::min(1.0, static_cast<double>(m - j) * p[order[j]]));
    adjusted[order[j]] = running;
  }
  return adjusted;
}

double mann_whitney_min_p(int n1, int n2) {
  if (n1 < 0 || n2 < 0) throw std::invalid_argument("mann_whitney_min_p: negative sample size");
  if (n1 == 0 || n2 == 0) return 1;
  // Only the two splits U = 0 and U = n1 n2 are as extreme as a perfect separation.
  if (n1 + n2 <= 20) return std::min(1.0, 2.0 / static_cast<double>(binomial(n1 + n2, n1)));
  // mann_whitney's normal branch with no ties and |U - n1 n2 / 2| = n1 n2 / 2: the same function,
  // so the two give the same double.
  const std::size_t s1 = static_cast<std::size_t>(n1), s2 = static_cast<std::size_t>(n2);
  return normal_p(0.5 * static_cast<double>(s1 * s2), s1, s2, 0.0);
}

int mann_whitney_min_runs(double alpha, int cap) {
  int n = 1;
  while (n < cap && mann_whitney_min_p(n, n) > alpha) ++n;
  return n;
}

int runs_needed(double mean_a, double sd_a, double mean_b, double sd_b, double alpha, double power) {
  for (double x : {mean_a, sd_a, mean_b, sd_b, alpha, power})
    if (std::isnan(x)) return 0;
  if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
    throw std::invalid_argument("runs_needed: alpha and power must be in (0, 1)");
  if (sd_a < 0 || sd_b < 0) throw std::invalid_argument("runs_needed: negative standard deviation");
  const double d = std::fabs(mean_a - mean_b) / std::sqrt(0.5 * (sd_a * sd_a + sd_b * sd_b));
  if (!(d > 0)) return 0;  // equal means (0/0 when both sd are 0), or an infinite spread

  constexpr int kCap = 1'000'000;
  const int min_runs = mann_whitney_min_runs(alpha, kCap);  // fewer runs cannot reach alpha

  const double z = -normal_quantile(0.5 * alpha) + normal_quantile(power);
  const double t_test_n = z > 0 ? 2 * z * z / (d * d) : 0;  // 0 when d is infinite (both sd 0)
  const double u_test_n = std::ceil(t_test_n / (3 / std::numbers::pi));
  return static_cast<int>(std::min<double>(kCap, std::max<double>(min_runs, u_test_n)));
}

CensoredSummary censored_summary(std::span<const double> values, std::span<const std::uint8_t> capped) {
  if (values.size() != capped.size())
    throw std::invalid_argument("censored_summary: values and capped differ in size");
  CensoredSummary r;
  r.n = static_cast<std::int64_t>(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!(values[i] >= 0) || !std::isfinite(values[i]))
      throw std::invalid_argument("censored_summary: a value is negative or not finite");
    r.capped += capped[i] ? 1 : 0;
  }
  if (values.empty()) {
    r.restricted_mean = r.median = kNaN;
    r.median_reached = false;
    return r;
  }

  std::vector<std::size_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return values[x] < values[y]; });

  // One step per distinct value t: everyone with a value >= t is at risk, capped games
  // included, so a game capped at an event's value leaves after that event.
  constexpr double kTolerance = 1e-12;  // products of (1 - d/r) land a few ulps off 1/2
  double survival = 1, area = 0, previous = 0;
  bool found = false, at_half = false;  // at_half: S is exactly 1/2 since r.median
  std::size_t at_risk = values.size();
  for (std::size_t i = 0; i < order.size();) {
    const double t = values[order[i]];
    std::size_t j = i, events = 0;
    for (; j < order.size() && values[order[j]] == t; ++j) events += capped[order[j]] ? 0 : 1;
    area += survival * (t - previous);
    previous = t;
    if (events > 0) {
      if (at_half) {  // S is 1/2 on [median, t): take the midpoint, as the uncapped median does
        r.median = 0.5 * (r.median + t);
        at_half = false;
      }
      survival *= 1 - static_cast<double>(events) / static_cast<double>(at_risk);
      if (!found && survival <= 0.5 + kTolerance) {
        found = true;
        r.median = t;
        at_half = survival >= 0.5 - kTolerance;
      }
    }
    at_risk -= j - i;
    i = j;
  }
  r.median_reached = found;
  if (!found) r.median = previous;  // the largest value: the median is at least that
  r.restricted_mean = area;
  return r;
}

namespace {

struct Observation {
  double time;
  bool event;
  bool in_a;
};

// Both samples in one list sorted by time; throws on a malformed sample.
std::vector<Observation> pooled_by_time(const TimesToEvent& a, const TimesToEvent& b) {
  std::vector<Observation> pooled;
  for (const bool in_a : {true, false}) {  // a flag, not the address: a and b may be one object
    const TimesToEvent& s = in_a ? a : b;
    if (s.time.size() != s.event.size())
      throw std::invalid_argument("log_rank: times and event flags differ in size");
    for (std::size_t i = 0; i < s.time.size(); ++i) {
      if (!(s.time[i] >= 0) || !std::isfinite(s.time[i]))
        throw std::invalid_argument("log_rank: a time is negative or not finite");
      pooled.push_back({s.time[i], s.event[i] != 0, in_a});
    }
  }
  std::sort(pooled.begin(), pooled.end(), [](const Observation& x, const Observation& y) { return x.time < y.time; });
  return pooled;
}

}  // namespace

LogRank log_rank(const TimesToEvent& a, const TimesToEvent& b) {
  const std::vector<Observation> pooled = pooled_by_time(a, b);
  LogRank r;
  double at_risk_a = static_cast<double>(a.time.size()), at_risk_b = static_cast<double>(b.time.size());
  for (std::size_t i = 0; i < pooled.size();) {
    double events = 0, events_a = 0, leaving_a = 0, leaving_b = 0;
    std::size_t j = i;
    for (; j < pooled.size() && pooled[j].time == pooled[i].time; ++j) {
      events += pooled[j].event;
      events_a += pooled[j].event && pooled[j].in_a;
      (pooled[j].in_a ? leaving_a : leaving_b) += 1;
    }
    const double n = at_risk_a + at_risk_b;
    if (events > 0) {
      r.events += static_cast<std::int64_t>(events);
      r.observed_minus_expected += events_a - events * at_risk_a / n;
      if (n > 1) r.variance += at_risk_a * at_risk_b * events * (n - events) / (n * n * (n - 1));
    }
    at_risk_a -= leaving_a;  // censored at t: at risk at t's events, gone after them
    at_risk_b -= leaving_b;
    i = j;
  }
  if (r.variance > 0) {
    r.chi2 = r.observed_minus_expected * r.observed_minus_expected / r.variance;
    r.p = std::erfc(std::sqrt(0.5 * r.chi2));
  }
  return r;
}

}  // namespace tb::opt
