// Statistics for comparison reports: the Mann-Whitney U test, a bootstrap interval of the mean,
// Holm's adjustment, the design floor of the U test's p-value, a sample-size estimate, a
// summary of games stopped at the piece cap and the log-rank test of times to a target.  The
// mean, its t interval and the median are engine/run/statistics.h's, the same code as the `play`
// summary.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "statistics.h"

namespace tb::opt {

struct MannWhitney {
  double u = 0;       // U of the first sample: pairs (a, b) with a > b, ties count 1/2
  double p = 1;       // two-sided p-value
  bool exact = true;  // exact permutation distribution (n1 + n2 <= 20), else normal approx.
};

// Two-sided Mann-Whitney U test (Mann & Whitney 1947).  Exact: all C(n1+n2, n1) splits of the
// pooled values (ties handled by the same half-count rule); larger samples use the normal
// approximation with tie correction and continuity correction.
MannWhitney mann_whitney(std::span<const double> a, std::span<const double> b);

// 95% bootstrap interval of the mean (Efron & Tibshirani 1993, "An Introduction to the
// Bootstrap", ch. 14): BCa, bias-corrected and accelerated, with the bias correction z0 from the
// share of resampled means below the sample mean (ties count 1/2) and the acceleration from the
// jackknife.  Falls back to the percentile interval when the BCa corrections are undefined: all
// resampled means equal, all on one side of the mean, or the jackknife degenerate.
// Resample b draws v.size() indices with Random::from_seed(seed) (experiments/common/random.h: the
// counter-based generator with Lemire's unbiased bounded draws), so the same seed and data give
// the same interval on every machine.  Each bound is one resampled mean (the order statistic
// nearest to rank alpha (B + 1)), so it never leaves [min(v), max(v)].
// NaN bounds when v.size() < 2 or a value is not finite; for all-equal data low == high == the
// value.  Throws std::invalid_argument when resamples < 1.
struct BootstrapCi {
  double low = 0, high = 0;
  int resamples = 0;            // resampled means drawn (0 when no interval could be formed)
  std::uint64_t seed = 0;
  const char* method = "bca";   // "bca" or "percentile" (what was actually used)
};
BootstrapCi bootstrap_mean_ci95(std::span<const double> v, std::uint64_t seed, int resamples = 10000);

// Holm (1979, "A simple sequentially rejective multiple test procedure", Scand. J. Statist. 6)
// step-down adjustment: with the m non-NaN p-values sorted, p_(1) <= ... <= p_(m), adjusted
// p_(i) = max over j <= i of min(1, (m - j + 1) p_(j)); returned in the input's order.  NaN
// inputs stay NaN and do not count in m.  Throws std::invalid_argument for a p outside [0, 1].
std::vector<double> holm_adjust(std::span<const double> p);

// The smallest two-sided p-value mann_whitney can return for n1 against n2 values (all values
// distinct, the most extreme split; Mann & Whitney 1947): exactly min(1, 2 / C(n1 + n2, n1)) for
// n1 + n2 <= 20, e.g. 1 vs 1: 1; 3 vs 3: 0.1; 4 vs 4: 2/70.  Above 20, where mann_whitney uses
// the normal approximation, that approximation's p at U = 0 (or n1 n2) with its continuity
// correction, computed as mann_whitney computes it, so the two agree bit for bit.
// 1 when n1 or n2 is 0; throws std::invalid_argument when either is negative.
double mann_whitney_min_p(int n1, int n2);

// The fewest runs per entry n with mann_whitney_min_p(n, n) <= alpha (at most `cap`): fewer
// runs cannot give a p at or below alpha whatever they show.
int mann_whitney_min_runs(double alpha, int cap = 1'000'000);

// Runs per entry needed so that a two-sided Mann-Whitney test at level `alpha` of two entries
// with these observed means and sample standard deviations has the given power: the
// normal-approximation sample size of the two-sample t test (e.g. Chow, Shao & Wang 2008,
// "Sample Size Calculations in Clinical Research", 3.2), n = 2 (z_{1-alpha/2} + z_power)^2 / d^2
// with d = |mean_a - mean_b| / sqrt((sd_a^2 + sd_b^2) / 2), divided by the U test's asymptotic
// relative efficiency against the t test under normality, 3/pi (Lehmann 1975, "Nonparametrics:
// Statistical Methods Based on Ranks"; Noether 1987, JASA 82), rounded up.  Never fewer than
// the smallest n with mann_whitney_min_p(n, n) <= alpha, since fewer runs cannot reach alpha at
// all.  Capped at 1'000'000.  Returns 0 when the effect is zero or undefined (a NaN input,
// equal means, an infinite sd); when both sd are 0 but the means differ, the min-p floor.
// Throws std::invalid_argument when alpha or power is outside (0, 1) or an sd is negative.
int runs_needed(double mean_a, double sd_a, double mean_b, double sd_b, double alpha, double power = 0.8);

// Right-censored sample (Kaplan & Meier 1958, "Nonparametric estimation from incomplete
// observations", JASA 53): values[i] is a game's lines, capped[i] != 0 says the game was stopped
// at the piece cap (its true value is >= values[i]).  Product-limit survival estimate over the
// distinct values; games capped at a value equal to an event's are still at risk at that event
// and leave after it.  Throws std::invalid_argument when the spans' sizes differ or a value is
// negative or not finite.  Empty input: n = 0, NaN mean and median, median_reached false.
struct CensoredSummary {
  std::int64_t n = 0, capped = 0;
  double restricted_mean = 0;   // area under the KM survival curve from 0 to tau = max(values)
                                // (restricted mean).  Equals the plain mean when no game is
                                // capped or every capped game has the largest value; otherwise
                                // it is never below the plain mean (KM moves a capped game's
                                // weight to the larger values).
  double median = 0;            // KM median: smallest value t with S(t) <= 0.5; when S is exactly
                                // 0.5 up to the next event, the midpoint of the two (as R's
                                // survival package does), so with no capping it equals tb::median
  bool median_reached = true;   // false when S never drops to 0.5 (then median = the largest
                                // value, a lower bound)
};
CensoredSummary censored_summary(std::span<const double> values, std::span<const std::uint8_t> capped);

// Right-censored times to an event, one per observation: time[i] is when the event was seen
// (event[i] != 0) or when observation stopped without it (event[i] == 0, censored there).
struct TimesToEvent {
  std::vector<double> time;
  std::vector<std::uint8_t> event;
};

// Two-sided two-sample log-rank test (Mantel 1966, "Evaluation of survival data and two new rank
// order statistics arising in its consideration", Cancer Chemother. Rep. 50; Peto & Peto 1972,
// "Asymptotically efficient rank invariant test procedures", JRSS A 135).  At each distinct event
// time t with n_a + n_b = n observations at risk (time >= t: one censored at t is still at risk,
// as in censored_summary) and d of them events, d_a in a: O - E adds d_a - d n_a / n and the
// hypergeometric variance V adds n_a n_b d (n - d) / (n^2 (n - 1)) (nothing when n = 1).
// chi2 = (O - E)^2 / V with 1 degree of freedom, p = P(chi2_1 > chi2) = erfc(sqrt(chi2 / 2)).
// V = 0 (no events at all, an empty sample, or at every event time everyone at risk is from one
// sample or has the event) makes O - E zero too: the data cannot tell the samples apart, so
// chi2 = 0 and p = 1.  Identical samples give O - E = 0 exactly, so p = 1.
// Throws std::invalid_argument when a sample's spans differ in size or a time is negative or not
// finite.
struct LogRank {
  double chi2 = 0;
  double p = 1;
  double observed_minus_expected = 0;  // O - E of sample a: > 0 when a's events come sooner
  double variance = 0;                 // V
  std::int64_t events = 0;             // in both samples
};
LogRank log_rank(const TimesToEvent& a, const TimesToEvent& b);

using tb::mean_ci95;
using tb::MeanCi;
using tb::median;

}  // namespace tb::opt
