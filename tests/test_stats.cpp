// Report statistics on synthetic data with known answers: the bootstrap interval of the mean,
// Holm's adjustment, the smallest Mann-Whitney p-value, runs needed, Kaplan-Meier
// summaries of games stopped at the piece cap, and the log-rank test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <utility>
#include <vector>

#include "random.h"
#include "stats.h"

namespace tb::opt {
namespace {

double plain_mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

// exp(1.5 N(0, 1)): a long right tail like the line counts of a strong player.
std::vector<double> lognormal_sample(int n) {
  Random rng = Random::from_seed(11);
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(std::exp(1.5 * rng.normal()));
  return v;
}

void expect_valid(const BootstrapCi& ci, const std::vector<double>& v) {
  const double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
  EXPECT_GE(ci.low, lo);
  EXPECT_LE(ci.high, hi);
  EXPECT_LE(ci.low, plain_mean(v));
  EXPECT_GE(ci.high, plain_mean(v));
}

// ---- bootstrap_mean_ci95 ----

TEST(Bootstrap, SameSeedSameIntervalOtherSeedOtherInterval) {
  const std::vector<double> v = lognormal_sample(30);
  const BootstrapCi a = bootstrap_mean_ci95(v, 42), b = bootstrap_mean_ci95(v, 42);
  EXPECT_EQ(a.low, b.low);
  EXPECT_EQ(a.high, b.high);
  EXPECT_STREQ(a.method, b.method);
  EXPECT_EQ(a.seed, 42u);
  EXPECT_EQ(a.resamples, 10000);
  const BootstrapCi c = bootstrap_mean_ci95(v, 43);
  EXPECT_TRUE(c.low != a.low || c.high != a.high);
  expect_valid(a, v);
  expect_valid(c, v);
}

TEST(Bootstrap, SkewedSamplesStayInsideTheirRange) {
  const std::vector<double> three = {3.1, 0.5, 498};
  const BootstrapCi a = bootstrap_mean_ci95(three, 1);
  expect_valid(a, three);
  EXPECT_GE(a.low, 0.5);  // a t interval would go far below 0 here
  EXPECT_LT(mean_ci95(three).low, 0);

  const std::vector<double> tail = lognormal_sample(30);
  const BootstrapCi b = bootstrap_mean_ci95(tail, 2);
  expect_valid(b, tail);
  EXPECT_STREQ(b.method, "bca");
  // Right skew: BCa leans the interval to the right of the mean.
  const double m = plain_mean(tail);
  EXPECT_GT(b.high - m, m - b.low);
}

TEST(Bootstrap, LargeSymmetricSampleMatchesTheTInterval) {
  Random rng = Random::from_seed(5);
  std::vector<double> v;
  for (int i = 0; i < 400; ++i) v.push_back(100 + 15 * rng.normal());
  const BootstrapCi b = bootstrap_mean_ci95(v, 9);
  const MeanCi t = mean_ci95(v);
  EXPECT_STREQ(b.method, "bca");
  const double half = t.high - t.mean;  // about 1.5
  EXPECT_NEAR(b.low, t.low, 0.05 * half);
  EXPECT_NEAR(b.high, t.high, 0.05 * half);
}

TEST(Bootstrap, IntegerCountsWithTies) {
  // Line counts: many resampled means equal the sample mean exactly (ties count 1/2 in z0).
  const std::vector<double> v = {0, 0, 1, 1, 1, 2, 2, 3, 5, 8};
  const BootstrapCi b = bootstrap_mean_ci95(v, 3);
  expect_valid(b, v);
  EXPECT_STREQ(b.method, "bca");
}

TEST(Bootstrap, DegenerateInputs) {
  const std::vector<double> one = {7};
  const BootstrapCi a = bootstrap_mean_ci95(one, 1);
  EXPECT_TRUE(std::isnan(a.low) && std::isnan(a.high));
  EXPECT_TRUE(std::isnan(bootstrap_mean_ci95(std::vector<double>{}, 1).low));
  EXPECT_TRUE(std::isnan(bootstrap_mean_ci95(std::vector<double>{1, NAN, 3}, 1).high));

  // 0.1 summed five times is not 0.5 exactly, but the bounds stay at the value.
  const std::vector<double> same(5, 0.1);
  const BootstrapCi b = bootstrap_mean_ci95(same, 1);
  EXPECT_EQ(b.low, 0.1);
  EXPECT_EQ(b.high, 0.1);
  EXPECT_STREQ(b.method, "percentile");

  EXPECT_THROW(bootstrap_mean_ci95(same, 1, 0), std::invalid_argument);
}

TEST(Bootstrap, FewResamplesFallBackToPercentile) {
  // One resample: every resampled mean is on one side of (or equal to) the mean, so z0 is
  // infinite or the levels collapse; the interval is that one resampled mean.
  const std::vector<double> v = {1, 2, 3, 4};
  const BootstrapCi b = bootstrap_mean_ci95(v, 8, 1);
  EXPECT_STREQ(b.method, "percentile");
  EXPECT_EQ(b.low, b.high);
  EXPECT_EQ(b.resamples, 1);
}

// ---- holm_adjust ----

TEST(Holm, HandComputedExample) {
  // Sorted: 0.005 * 4 = 0.02, 0.01 * 3 = 0.03, 0.03 * 2 = 0.06, 0.04 * 1 = 0.04 -> max 0.06.
  const std::vector<double> adj = holm_adjust(std::vector<double>{0.01, 0.04, 0.03, 0.005});
  ASSERT_EQ(adj.size(), 4u);
  EXPECT_DOUBLE_EQ(adj[0], 0.03);
  EXPECT_DOUBLE_EQ(adj[1], 0.06);
  EXPECT_DOUBLE_EQ(adj[2], 0.06);
  EXPECT_DOUBLE_EQ(adj[3], 0.02);
}

TEST(Holm, MonotoneAndNeverBelowTheRawP) {
  Random rng = Random::from_seed(17);
  std::vector<double> p;
  for (int i = 0; i < 50; ++i) p.push_back(0.2 * rng.uniform());
  const std::vector<double> adj = holm_adjust(p);
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_GE(adj[i], p[i]);
    EXPECT_LE(adj[i], 1.0);
    for (std::size_t j = 0; j < p.size(); ++j) {
      if (p[i] <= p[j]) {
        EXPECT_LE(adj[i], adj[j]) << i << " " << j;
      }
    }
  }
}

TEST(Holm, CapsAtOne) {
  // 0.5 * 3 and 0.6 * 2 cap at 1; 0.9 * 1 is raised to the running maximum 1.
  EXPECT_EQ(holm_adjust(std::vector<double>{0.9, 0.5, 0.6}), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(holm_adjust(std::vector<double>{0, 1}), (std::vector<double>{0, 1}));
}

TEST(Holm, NaNStaysAndDoesNotCount) {
  // m = 2: 0.01 * 2 = 0.02, 0.04 * 1 = 0.04.
  const std::vector<double> adj = holm_adjust(std::vector<double>{0.04, NAN, 0.01});
  EXPECT_DOUBLE_EQ(adj[0], 0.04);
  EXPECT_TRUE(std::isnan(adj[1]));
  EXPECT_DOUBLE_EQ(adj[2], 0.02);
  EXPECT_TRUE(holm_adjust(std::vector<double>{}).empty());
  EXPECT_THROW(holm_adjust(std::vector<double>{0.5, 1.5}), std::invalid_argument);
  EXPECT_THROW(holm_adjust(std::vector<double>{-0.1}), std::invalid_argument);
}

// ---- mann_whitney_min_p ----

TEST(MinP, ExactValues) {
  EXPECT_EQ(mann_whitney_min_p(1, 1), 1.0);      // 2 / C(2, 1)
  EXPECT_EQ(mann_whitney_min_p(3, 3), 0.1);      // 2 / 20
  EXPECT_EQ(mann_whitney_min_p(4, 4), 2.0 / 70);
  EXPECT_EQ(mann_whitney_min_p(6, 6), 2.0 / 924);
  EXPECT_EQ(mann_whitney_min_p(2, 5), 2.0 / 21);
  EXPECT_EQ(mann_whitney_min_p(0, 5), 1.0);
  EXPECT_EQ(mann_whitney_min_p(5, 0), 1.0);
  EXPECT_THROW(mann_whitney_min_p(-1, 3), std::invalid_argument);
  // 11 vs 10, normal approximation: z = (55 - 0.5) / sqrt(110 / 12 * 22) = 3.83777, p = 1.24154e-4.
  EXPECT_NEAR(mann_whitney_min_p(11, 10), 1.24154e-4, 1e-9);
}

TEST(MinP, AgreesWithMannWhitneyOnSeparatedSamples) {
  auto separated = [](int n1, int n2) {
    std::vector<double> a, b;
    for (int i = 0; i < n1; ++i) a.push_back(100 + i);
    for (int i = 0; i < n2; ++i) b.push_back(i);
    return mann_whitney(a, b);
  };
  for (auto [n1, n2] : {std::pair{1, 1}, {3, 3}, {4, 4}, {6, 6}, {2, 7}, {10, 10}, {11, 10}, {15, 25}, {40, 40}}) {
    const MannWhitney mw = separated(n1, n2);
    EXPECT_EQ(mw.exact, n1 + n2 <= 20);
    EXPECT_EQ(mw.p, mann_whitney_min_p(n1, n2)) << n1 << " vs " << n2;
  }
}

// ---- runs_needed ----

TEST(RunsNeeded, HandComputedValue) {
  // d = 1 / sqrt((1 + 1) / 2) = 1; t test: n = 2 (1.959964 + 0.841621)^2 / 1 = 15.698;
  // divided by 3/pi: 16.439 -> 17.
  EXPECT_EQ(runs_needed(1, 1, 0, 1, 0.05, 0.8), 17);
  EXPECT_EQ(runs_needed(0, 1, 1, 1, 0.05), 17);  // symmetric, power 0.8 by default
  // d = 0.5 (means 10 and 11, sd 2): 4 x 15.698 / (3/pi) = 65.755 -> 66.
  EXPECT_EQ(runs_needed(10, 2, 11, 2, 0.05), 66);
  // Unequal sd: sqrt((1 + 9) / 2) = sqrt(5), d = 2 / sqrt(5), d^2 = 0.8: 15.698 / 0.8 / (3/pi) = 20.55 -> 21.
  EXPECT_EQ(runs_needed(0, 1, 2, 3, 0.05), 21);
  // alpha 0.01, power 0.9, d = 1: 2 (2.575829 + 1.281552)^2 = 29.759, / (3/pi) = 31.16 -> 32.
  EXPECT_EQ(runs_needed(0, 1, 1, 1, 0.01, 0.9), 32);
}

TEST(RunsNeeded, QuantileAccuracyAtARoundingBoundary) {
  // Choose d so that the exact answer is 100 -/+ 1e-6: a quantile off by more than about 5e-9
  // (relative) would round to the other side.
  const double z = 1.959963984540054 + 0.8416212335729143;  // z_0.975 + z_0.8
  auto d_for = [&](double n) { return z * std::sqrt(2 * std::numbers::pi / (3 * n)); };
  EXPECT_EQ(runs_needed(d_for(100 - 1e-6), 1, 0, 1, 0.05), 100);
  EXPECT_EQ(runs_needed(d_for(100 + 1e-6), 1, 0, 1, 0.05), 101);
}

TEST(RunsNeeded, ZeroOrUndefinedEffect) {
  EXPECT_EQ(runs_needed(5, 1, 5, 2, 0.05), 0);
  EXPECT_EQ(runs_needed(5, 0, 5, 0, 0.05), 0);
  EXPECT_EQ(runs_needed(NAN, 1, 5, 2, 0.05), 0);
  EXPECT_EQ(runs_needed(4, NAN, 5, 2, 0.05), 0);
  EXPECT_EQ(runs_needed(4, 1, 5, 2, NAN), 0);
  EXPECT_EQ(runs_needed(4, INFINITY, 5, 2, 0.05), 0);
  EXPECT_THROW(runs_needed(4, 1, 5, 2, 0.0), std::invalid_argument);
  EXPECT_THROW(runs_needed(4, 1, 5, 2, 0.05, 1.0), std::invalid_argument);
  EXPECT_THROW(runs_needed(4, -1, 5, 2, 0.05), std::invalid_argument);
}

TEST(RunsNeeded, MinPFloorAndCap) {
  // Huge effect: the formula gives 1, but min_p(3, 3) = 0.1 > 0.05 and min_p(4, 4) = 0.0286.
  EXPECT_EQ(runs_needed(100, 1, 0, 1, 0.05), 4);
  EXPECT_EQ(runs_needed(100, 0, 0, 0, 0.05), 4);  // both sd 0, means differ
  EXPECT_EQ(runs_needed(100, 1, 0, 1, 0.1), 3);   // min_p(3, 3) = 0.1 <= 0.1
  EXPECT_EQ(runs_needed(100, 1, 0, 1, 0.01), 5);  // 2/70 > 0.01 >= 2/252
  EXPECT_EQ(runs_needed(1e-6, 1, 0, 1, 0.05), 1'000'000);
}

// ---- censored_summary ----

TEST(Censored, NoCappingIsThePlainMeanAndMedian) {
  const std::vector<double> even = {3, 1, 4, 1, 5, 9, 2, 6};  // S = 1/2 on [3, 4): median 3.5
  const CensoredSummary a = censored_summary(even, std::vector<std::uint8_t>(even.size(), 0));
  EXPECT_EQ(a.n, 8);
  EXPECT_EQ(a.capped, 0);
  EXPECT_NEAR(a.restricted_mean, plain_mean(even), 1e-12);
  EXPECT_EQ(a.median, median(even));
  EXPECT_TRUE(a.median_reached);

  const std::vector<double> odd = {3.5, 1.25, 4, 1.25, 5};
  const CensoredSummary b = censored_summary(odd, std::vector<std::uint8_t>(odd.size(), 0));
  EXPECT_NEAR(b.restricted_mean, plain_mean(odd), 1e-12);
  EXPECT_EQ(b.median, median(odd));

  const std::vector<double> lines = lognormal_sample(40);
  const CensoredSummary c = censored_summary(lines, std::vector<std::uint8_t>(lines.size(), 0));
  EXPECT_NEAR(c.restricted_mean, plain_mean(lines), 1e-9);
  EXPECT_DOUBLE_EQ(c.median, median(lines));
}

TEST(Censored, HandComputedKaplanMeier) {
  // 10, 20, 30+, 40, 50, 60 (30 capped):
  //   t = 10: at risk 6, S = 5/6;  t = 20: at risk 5, S = 5/6 * 4/5 = 2/3;
  //   t = 30: capped, S stays 2/3;  t = 40: at risk 3, S = 2/3 * 2/3 = 4/9 <= 1/2 -> median 40;
  //   t = 50: at risk 2, S = 2/9;  t = 60: S = 0.
  // Area: 10 (1 + 5/6 + 2/3 + 2/3 + 4/9 + 2/9) = 10 * 69/18 = 115/3 = 38.33 (plain mean 35).
  const std::vector<double> v = {40, 10, 60, 30, 20, 50};
  const std::vector<std::uint8_t> cap = {0, 0, 0, 1, 0, 0};
  const CensoredSummary s = censored_summary(v, cap);
  EXPECT_EQ(s.n, 6);
  EXPECT_EQ(s.capped, 1);
  EXPECT_NEAR(s.restricted_mean, 115.0 / 3, 1e-12);
  EXPECT_EQ(s.median, 40);
  EXPECT_TRUE(s.median_reached);
}

TEST(Censored, CappedAtAnEventValueLeavesAfterIt) {
  // 1, 2, 2+, 3, 4: at t = 2 the capped game is still at risk (4), S = 4/5 * 3/4 = 3/5;
  // at t = 3 at risk 2, S = 3/10 -> median 3; area 1 + 4/5 + 3/5 + 3/10 = 2.7.
  // (Leaving before the event would give S(2) = 8/15 and area 2.6.)
  const CensoredSummary s = censored_summary(std::vector<double>{2, 1, 3, 2, 4}, std::vector<std::uint8_t>{1, 0, 0, 0, 0});
  EXPECT_NEAR(s.restricted_mean, 2.7, 1e-12);
  EXPECT_EQ(s.median, 3);
}

TEST(Censored, AllCappedAtTheTopIsThePlainMean) {
  // 1, 2, 3, 9+, 9+: S = 4/5, 3/5, 2/5 -> median 3; area 1 + 4/5 + 3/5 + 6 * 2/5 = 4.8 = 24/5.
  const std::vector<double> v = {9, 1, 9, 3, 2};
  const CensoredSummary s = censored_summary(v, std::vector<std::uint8_t>{1, 0, 1, 0, 0});
  EXPECT_EQ(s.capped, 2);
  EXPECT_NEAR(s.restricted_mean, plain_mean(v), 1e-12);
  EXPECT_EQ(s.median, 3);
  EXPECT_TRUE(s.median_reached);
}

TEST(Censored, CappedAboveUncappedButSpreadExceedsThePlainMean) {
  // 1, 2, 5+, 7+: S = 3/4, then 1/2 from 2 to the end (capped games do not lower it).
  // Area 1 + 3/4 + 5 * 1/2 = 4.25 > plain mean 3.75: KM keeps the capped game at 5 at risk up
  // to 7.  S is exactly 1/2 with no later event, so the median is 2.
  const CensoredSummary s = censored_summary(std::vector<double>{5, 1, 7, 2}, std::vector<std::uint8_t>{1, 0, 1, 0});
  EXPECT_NEAR(s.restricted_mean, 4.25, 1e-12);
  EXPECT_EQ(s.median, 2);
  EXPECT_TRUE(s.median_reached);
}

TEST(Censored, MoreThanHalfCappedHasNoMedian) {
  // 1, 2, 5+, 6+, 7+: S = 4/5, 3/5, then flat: never 1/2.  Area 1 + 4/5 + 5 * 3/5 = 4.8.
  const CensoredSummary s =
      censored_summary(std::vector<double>{5, 6, 7, 1, 2}, std::vector<std::uint8_t>{1, 1, 1, 0, 0});
  EXPECT_FALSE(s.median_reached);
  EXPECT_EQ(s.median, 7);
  EXPECT_NEAR(s.restricted_mean, 4.8, 1e-12);
  EXPECT_EQ(s.capped, 3);
}

TEST(Censored, BadAndEmptyInput) {
  EXPECT_THROW(censored_summary(std::vector<double>{1, 2}, std::vector<std::uint8_t>{0}), std::invalid_argument);
  EXPECT_THROW(censored_summary(std::vector<double>{-1}, std::vector<std::uint8_t>{0}), std::invalid_argument);
  EXPECT_THROW(censored_summary(std::vector<double>{NAN}, std::vector<std::uint8_t>{0}), std::invalid_argument);
  const CensoredSummary s = censored_summary(std::vector<double>{}, std::vector<std::uint8_t>{});
  EXPECT_EQ(s.n, 0);
  EXPECT_TRUE(std::isnan(s.restricted_mean));
  EXPECT_TRUE(std::isnan(s.median));
  EXPECT_FALSE(s.median_reached);
}

// ---- log_rank ----

TimesToEvent sample(std::vector<double> time, std::vector<std::uint8_t> event) { return {std::move(time), std::move(event)}; }

double chi2_survival(double x) { return std::erfc(std::sqrt(x / 2)); }

TEST(LogRank, HandComputedExample) {
  // a: 10, 20, 20, 50+   b: 20, 40, 60+, 60+   (+: censored)
  //   t = 10: n_a 4, n_b 4, d 1 (a): E_a = 1 * 4/8 = 1/2,  V += 4*4*1*7 / (8^2 * 7) = 1/4
  //   t = 20: n_a 3, n_b 4, d 3 (2 in a): E_a = 3 * 3/7 = 9/7,  V += 3*4*3*4 / (7^2 * 6) = 24/49
  //   t = 40: n_a 1 (50+ still at risk), n_b 3, d 1 (b): E_a = 1/4,  V += 1*3*1*3 / (4^2 * 3) = 3/16
  // O_a - E_a = 3 - (1/2 + 9/7 + 1/4) = 3 - 57/28 = 27/28;  V = (196 + 384 + 147) / 784 = 727/784;
  // chi2 = (729/784) / (727/784) = 729/727 = 1.0027510...;  p = erfc(sqrt(729/1454)) = 0.316646.
  const TimesToEvent a = sample({10, 20, 20, 50}, {1, 1, 1, 0}), b = sample({20, 40, 60, 60}, {1, 1, 0, 0});
  const LogRank r = log_rank(a, b);
  EXPECT_NEAR(r.observed_minus_expected, 27.0 / 28, 1e-14);
  EXPECT_NEAR(r.variance, 727.0 / 784, 1e-14);
  EXPECT_NEAR(r.chi2, 729.0 / 727, 1e-13);
  EXPECT_NEAR(r.p, 0.3166457531255087, 1e-12);
  EXPECT_EQ(r.events, 5);
  // Swapping the samples negates O - E and keeps the test.
  const LogRank s = log_rank(b, a);
  EXPECT_NEAR(s.observed_minus_expected, -27.0 / 28, 1e-14);
  EXPECT_NEAR(s.chi2, r.chi2, 1e-13);
  EXPECT_NEAR(s.p, r.p, 1e-13);
}

TEST(LogRank, AgreesWithABruteForceReference) {
  // The numbers below come from one run of an independent computation in exact fractions (the
  // at-risk sets recounted from scratch at every event time) with scipy's chi-square survival:
  //   /usr/bin/python3 -c '
  //   from fractions import Fraction as F; from scipy.stats import chi2
  //   def lr(a, b):
  //     o = v = F(0)
  //     for t in sorted({x for x, e in a + b if e}):
  //       n1 = sum(x >= t for x, _ in a); n = n1 + sum(x >= t for x, _ in b)
  //       d1 = sum(x == t and e for x, e in a); d = d1 + sum(x == t and e for x, e in b)
  //       o += d1 - F(d * n1, n); v += F(n1 * (n - n1) * d * (n - d), n * n * (n - 1)) if n > 1 else 0
  //     return repr(float(o)), repr(float(v)), repr(float(o * o / v)), repr(chi2.sf(float(o * o / v), 1))
  //   print(lr([(10,1),(20,1),(20,1),(50,0)], [(20,1),(40,1),(60,0),(60,0)]))
  //   print(lr([(1200,1),(1500,1),(1500,1),(2400,1),(3000,0),(2950,0)],
  //            [(1500,1),(2700,1),(3000,0),(3000,1),(2900,0)]))
  //   print(lr([(100*k,1) for k in range(1,9)], [(500,1),(900,1)]+[(1000,0)]*6))'
  // printed (O - E, V, chi2, p; the first is the hand-computed example above):
  //   ('0.9642857142857143', '0.9272959183673469', '1.0027510316368637', '0.3166457531255087')
  //   ('0.8593073593073594', '1.520609621258972', '0.4856007271270778', '0.4858963100584439')
  //   ('4.906257631257631', '1.8767281488183503', '12.82623909031783', '0.000341792082122128')
  struct Case {
    TimesToEvent a, b;
    double o_minus_e, variance, chi2, p;
  };
  const std::vector<Case> cases = {
      {sample({10, 20, 20, 50}, {1, 1, 1, 0}), sample({20, 40, 60, 60}, {1, 1, 0, 0}), 0.9642857142857143,
       0.9272959183673469, 1.0027510316368637, 0.3166457531255087},
      // Ties across the samples, and an event and a censoring at the same time (3000) in b.
      {sample({1200, 1500, 1500, 2400, 3000, 2950}, {1, 1, 1, 1, 0, 0}),
       sample({1500, 2700, 3000, 3000, 2900}, {1, 1, 0, 1, 0}), 0.8593073593073594, 1.520609621258972,
       0.4856007271270778, 0.4858963100584439},
      {sample({100, 200, 300, 400, 500, 600, 700, 800}, std::vector<std::uint8_t>(8, 1)),
       sample({500, 900, 1000, 1000, 1000, 1000, 1000, 1000}, {1, 1, 0, 0, 0, 0, 0, 0}), 4.906257631257631,
       1.8767281488183503, 12.82623909031783, 0.000341792082122128}};
  for (const Case& c : cases) {
    const LogRank r = log_rank(c.a, c.b);
    EXPECT_NEAR(r.observed_minus_expected, c.o_minus_e, 1e-12);
    EXPECT_NEAR(r.variance, c.variance, 1e-12);
    EXPECT_NEAR(r.chi2, c.chi2, 1e-11);
    EXPECT_NEAR(r.p, c.p, 1e-12 + 1e-9 * c.p);
  }
}

TEST(LogRank, NoEventsAtAllIsPOne) {
  // Every run failed the target: censored at the pieces each spent, nothing to compare.
  const LogRank r = log_rank(sample({300, 300}, {0, 0}), sample({200, 400, 500}, {0, 0, 0}));
  EXPECT_EQ(r.events, 0);
  EXPECT_EQ(r.variance, 0);
  EXPECT_EQ(r.chi2, 0);
  EXPECT_EQ(r.p, 1);
  const LogRank empty = log_rank(sample({}, {}), sample({}, {}));
  EXPECT_EQ(empty.p, 1);
  // An empty sample against events: no one from it is ever at risk.
  EXPECT_EQ(log_rank(sample({}, {}), sample({5, 6}, {1, 1})).p, 1);
}

TEST(LogRank, IdenticalSamplesArePOne) {
  const TimesToEvent a = sample({1200, 1500, 1500, 2400, 3000, 2950}, {1, 1, 1, 1, 0, 0});
  const TimesToEvent copy = a;
  for (const LogRank& r : {log_rank(a, copy), log_rank(a, a)}) {  // also one object passed twice
    EXPECT_EQ(r.observed_minus_expected, 0);  // at each time d_a = d / 2 and n_a = n / 2 exactly
    EXPECT_GT(r.variance, 0);
    EXPECT_EQ(r.chi2, 0);
    EXPECT_EQ(r.p, 1);
  }
}

TEST(LogRank, OneRunEach) {
  // 10 against 20: at t = 10, n = 2, E_a = 1/2, V = 1*1*1*1 / (4 * 1) = 1/4; at t = 20 only b is
  // at risk (n = 1: no variance).  chi2 = (1/2)^2 / (1/4) = 1, p = erfc(sqrt(1/2)) = 0.3173.
  const LogRank r = log_rank(sample({10}, {1}), sample({20}, {1}));
  EXPECT_DOUBLE_EQ(r.chi2, 1);
  EXPECT_DOUBLE_EQ(r.p, chi2_survival(1));
  EXPECT_NEAR(r.p, 0.31731, 1e-5);
  // b censored at 20 instead: the same, since only the event at 10 has both samples at risk.
  EXPECT_DOUBLE_EQ(log_rank(sample({10}, {1}), sample({20}, {0})).chi2, 1);
  // One run each is the most a single pair can show: p never drops below 0.3173.
}

TEST(LogRank, ZeroVarianceIsPOne) {
  // Each event time has everyone at risk from one sample (a censored at 5 leaves before b's
  // events), or everyone at risk has the event (both at 7): V = 0, and O - E = 0 with it.
  EXPECT_EQ(log_rank(sample({5}, {0}), sample({10, 12}, {1, 1})).p, 1);
  const LogRank both = log_rank(sample({7}, {1}), sample({7}, {1}));
  EXPECT_EQ(both.events, 2);
  EXPECT_EQ(both.variance, 0);
  EXPECT_EQ(both.observed_minus_expected, 0);
  EXPECT_EQ(both.chi2, 0);
  EXPECT_EQ(both.p, 1);
}

TEST(LogRank, FarApartSamplesGiveASmallP) {
  // 10 runs all reaching early against 10 that never reach it: the p of a clear difference.
  std::vector<double> early, late;
  for (int i = 0; i < 10; ++i) {
    early.push_back(100 + i);
    late.push_back(5000);
  }
  const LogRank r =
      log_rank(sample(early, std::vector<std::uint8_t>(10, 1)), sample(late, std::vector<std::uint8_t>(10, 0)));
  EXPECT_GT(r.observed_minus_expected, 0);
  EXPECT_LT(r.p, 1e-3);
  EXPECT_DOUBLE_EQ(r.p, chi2_survival(r.chi2));
}

TEST(LogRank, BadInput) {
  EXPECT_THROW(log_rank(sample({1, 2}, {1}), sample({}, {})), std::invalid_argument);
  EXPECT_THROW(log_rank(sample({}, {}), sample({-1}, {1})), std::invalid_argument);
  EXPECT_THROW(log_rank(sample({NAN}, {1}), sample({}, {})), std::invalid_argument);
  EXPECT_THROW(log_rank(sample({INFINITY}, {0}), sample({}, {})), std::invalid_argument);
}

}  // namespace
}  // namespace tb::opt
