#include "feature_set.h"

#include <array>

#include "feature_kernels.h"

namespace tb {
namespace {

using F = Feature;

constexpr std::array<std::string_view, static_cast<int>(F::FEATURE_NB)> kNames = {
    "landing_height", "eroded_cells", "lines",      "row_transitions", "col_transitions",
    "holes",          "wells",        "wells_fast", "hole_depth",      "rows_with_holes",
    "diversity",      "max_height",   "agg_height", "bumpiness",       "height",
    "diff",           "col_holes",    "col_wells",  "row_fill",        "constant"};

// In the order of docs/features.md's "Feature sets and sources" table, which cites the sources.
constexpr F kDellacherie[] = {F::landing_height, F::eroded_cells,    F::row_transitions,
                              F::col_transitions, F::holes, F::wells};
constexpr F kBcts[] = {F::landing_height, F::eroded_cells, F::row_transitions, F::col_transitions,
                       F::holes,          F::wells,        F::hole_depth,      F::rows_with_holes};
constexpr F kDt[] = {F::landing_height, F::eroded_cells, F::row_transitions,
                     F::col_transitions, F::holes,       F::wells_fast,
                     F::hole_depth,     F::rows_with_holes, F::diversity};
constexpr F kElTetris[] = {F::landing_height, F::lines, F::row_transitions,
                           F::col_transitions, F::holes, F::wells};
constexpr F kLee[] = {F::agg_height, F::lines, F::holes, F::bumpiness};
constexpr F kPso7[] = {F::landing_height, F::lines, F::row_transitions, F::col_transitions,
                       F::holes,          F::wells, F::max_height};
// Article 2's vector, 44 values at W = 10 (its text says 43).
constexpr F kTd44[] = {F::height, F::diff, F::col_holes, F::col_wells, F::row_fill};
// Bertsekas & Tsitsiklis (1996), 22 values at W = 10.
constexpr F kBertsekas[] = {F::max_height, F::height, F::diff, F::holes, F::constant};

constexpr std::array<FeatureSet, 8> kSets = {{
    {"dellacherie", kDellacherie},
    {"bcts", kBcts},
    {"dt", kDt},
    {"eltetris", kElTetris},
    {"lee", kLee},
    {"pso7", kPso7},
    {"td44", kTd44},
    {"bertsekas", kBertsekas},
}};

}  // namespace

std::string_view feature_name(Feature f) { return kNames[static_cast<int>(f)]; }

int feature_width(Feature f, int board_width) {
  switch (f) {
    case F::height:
    case F::col_holes:
    case F::col_wells: return board_width;
    case F::diff: return board_width - 1;
    case F::row_fill: return kRowFillBuckets;
    default: return 1;
  }
}

int FeatureSet::dimension(int board_width) const {
  int n = 0;
  for (F f : features) n += feature_width(f, board_width);
  return n;
}

const FeatureSet* find_feature_set(std::string_view name) {
  for (const FeatureSet& s : kSets)
    if (s.name == name) return &s;
  return nullptr;
}

std::span<const FeatureSet> feature_sets() { return kSets; }

std::string weight_name(const FeatureSet& set, int board_width, int k) {
  for (F f : set.features) {
    const int n = feature_width(f, board_width);
    if (k < n) {
      std::string name(feature_name(f));
      return n == 1 ? name : name + "[" + std::to_string(k) + "]";
    }
    k -= n;
  }
  return "?";
}

}  // namespace tb
