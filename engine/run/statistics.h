// Sample statistics shared by the `play` summary (summary.h) and the comparison reports
// (experiments/compare/stats.h): mean, sample standard deviation, median and the Student t 95%
// interval of the mean (docs/rules.md "Summary statistics").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace tb {

// Two-sided 95% quantile of Student's t with `dof` degrees of freedom (dof >= 1).
double t_quantile_975(std::int64_t dof);

double median(std::vector<double> v);  // NaN when empty

struct MeanCi {
  double mean = 0, low = 0, high = 0;  // Student t 95% interval; NaN bounds for n < 2
  double stddev = 0;                   // sample standard deviation (n - 1); NaN for n < 2
};
// The values are summed in index order; every field is NaN when `v` is empty.
MeanCi mean_ci95(std::span<const double> v);

}  // namespace tb
