// Statistics for comparison reports: the Mann-Whitney U test here; the mean, its t interval
// and the median are engine/run/statistics.h's, the same code as the `play` summary.
#pragma once

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

using tb::mean_ci95;
using tb::MeanCi;
using tb::median;

}  // namespace tb::opt
