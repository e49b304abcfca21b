// Features a policy can weigh, and the named feature sets (docs/features.md "Feature sets and
// sources").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tb {

enum class Feature : std::uint8_t {
  // Move features: they describe the placement itself (computed by the engine).
  landing_height,
  eroded_cells,
  lines,
  // Board features (kernels/).
  row_transitions,
  col_transitions,
  holes,
  wells,
  wells_fast,
  hole_depth,
  rows_with_holes,
  diversity,
  max_height,
  agg_height,
  bumpiness,
  // Vector features: one value per column (diff: per adjacent pair; row_fill: one per
  // bucket, kRowFillBuckets of kernels/feature_kernels.h).
  height,
  diff,
  col_holes,
  col_wells,
  row_fill,
  constant,  // always 1 (Bertsekas-22's bias term)
  FEATURE_NB
};

std::string_view feature_name(Feature f);
// Values the feature expands to on a board of the given width.
int feature_width(Feature f, int board_width);

struct FeatureSet {
  std::string_view name;
  std::span<const Feature> features;
  int dimension(int board_width) const;  // total weights
};

// dellacherie, bcts, dt, eltetris, lee, pso7, td44, bertsekas; nullptr if unknown.
const FeatureSet* find_feature_set(std::string_view name);
std::span<const FeatureSet> feature_sets();

// The name of weight k of the set at this width, e.g. "holes" or "height[3]".
std::string weight_name(const FeatureSet& set, int board_width, int k);

}  // namespace tb
