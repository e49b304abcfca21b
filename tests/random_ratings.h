// Random linear ratings and random boards for the drop scorer's tests (test_drop_scorer.cpp,
// test_quiet_bound.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "board.h"
#include "feature_set.h"
#include "policy.h"
#include "rng.h"

namespace tb::test_util {

constexpr Feature kSupported[] = {
    Feature::landing_height, Feature::eroded_cells, Feature::lines,     Feature::row_transitions,
    Feature::col_transitions, Feature::holes,       Feature::wells,     Feature::wells_fast,
    Feature::hole_depth,     Feature::rows_with_holes, Feature::diversity, Feature::max_height,
    Feature::agg_height,     Feature::bumpiness,    Feature::constant};

// A random board whose wall height is at most `top`: columns of random heights, each with
// random holes below its top (so covered wells, overhangs and deep wells all occur).
inline Board random_board(CounterRng& rng, Geometry g, int top) {
  Board b;
  const int style = static_cast<int>(rng.below(4));
  for (int c = 0; c < g.width; ++c) {
    const int h = style == 0 ? static_cast<int>(rng.below(top + 1))
                             : static_cast<int>(rng.below(std::min(top, 3 + 2 * style) + 1));
    Word col = 0;
    for (int r = 0; r < h; ++r)
      if (r == h - 1 || rng.below(10) < static_cast<std::uint64_t>(5 + 2 * style)) col |= Word{1} << r;
    b.cols[c] = col;
  }
  return b;
}

// A random board whose wall height is at most `top` and whose columns each hold at most one
// run of holes: filled below their top but for one run of random rows, which the mostly full
// neighbours make well cells (the drop scorer weighs those by the run's first row alone unless
// some column has two runs: engine/search/drop_pass/columns.h, lowest_run).  With `second`, one
// random column gets a second run.
inline Board random_board_one_run(CounterRng& rng, Geometry g, int top, bool second = false) {
  Board b;
  for (int c = 0; c < g.width; ++c) {
    const int h = static_cast<int>(rng.below(top + 1));
    Word col = low_mask(h);
    if (h >= 2 && rng.below(4) != 0) {  // rows [s, e) empty, below the top cell
      const int s = static_cast<int>(rng.below(h - 1)), e = s + 1 + static_cast<int>(rng.below(h - 1 - s));
      col &= ~(low_mask(e) & ~low_mask(s));
    }
    b.cols[c] = col;
  }
  if (second) {
    const int c = static_cast<int>(rng.below(g.width));
    const int h = column_height(b.cols[c]);
    if (h >= 3) b.cols[c] &= ~(Word{1} << rng.below(h - 1));  // (may join or split a run)
  }
  return b;
}

struct Rating {
  std::vector<Feature> features;
  FeatureSet set;
  Policy policy;
};

// A linear policy over `features` with random weights (some zero, some integers, most not).
inline Rating random_rating(CounterRng& rng, std::vector<Feature> features, Geometry g) {
  Rating r;
  r.features = std::move(features);
  r.set = FeatureSet{"test", r.features};
  r.policy.name = "test";
  r.policy.features = &r.set;
  r.policy.reward_lines = rng.below(4) == 0;
  for (int i = 0; i < r.set.dimension(g.width); ++i) {
    const int kind = static_cast<int>(rng.below(5));
    const double u = rng.unit() * 2.0 - 1.0;
    r.policy.weights.push_back(kind == 0 ? 0.0 : kind == 1 ? std::round(u * 8.0) : u * 37.0);
  }
  return r;
}

inline std::vector<Feature> random_features(CounterRng& rng) {
  std::vector<Feature> f;
  for (Feature x : kSupported)
    if (rng.below(2)) f.push_back(x);
  if (f.empty()) f.push_back(Feature::wells);
  return f;
}

}  // namespace tb::test_util
