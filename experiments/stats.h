// Statistics for comparison reports.
#pragma once

#include <span>
#include <vector>

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

double median(std::vector<double> v);  // NaN when empty

struct MeanCi {
  double mean = 0, low = 0, high = 0;  // Student t 95% interval; NaN bounds for n < 2
};
MeanCi mean_ci95(std::span<const double> v);

}  // namespace tb::opt
