#include "cbmpi_value.h"

#include <cmath>

namespace tb::cbmpi {

std::array<double, kHeightRbfs> height_rbfs(const Board& b, Geometry g) {
  double sum = 0;
  for (int c = 0; c < g.width; ++c) sum += b.height_of(c);
  const double mean = sum / g.width;
  const double h = g.visible();
  const double width = h / 5;
  std::array<double, kHeightRbfs> out{};
  for (int i = 0; i < kHeightRbfs; ++i) {
    const double d = mean - i * h / 4;
    out[static_cast<std::size_t>(i)] = std::exp(-(d * d) / (2 * width * width));
  }
  return out;
}

ValueFeatures::ValueFeatures(const CbmpiConfig& c, FeatureKernel kernel)
    : base_(c.value_features, c.rules.geometry, kernel), rbf_(c.value_rbf), geometry_(c.rules.geometry) {}

void ValueFeatures::of_board(const Board& board, td::Active& out) const {
  base_.of_board(board, out);
  if (!rbf_) return;
  const auto rbfs = height_rbfs(board, geometry_);
  for (int i = 0; i < kHeightRbfs; ++i) {
    const double v = rbfs[static_cast<std::size_t>(i)];
    out.index.push_back(static_cast<std::uint32_t>(base_.size() + static_cast<std::size_t>(i)));
    out.value.push_back(v);
    out.norm2 += v * v;
  }
}

}  // namespace tb::cbmpi
