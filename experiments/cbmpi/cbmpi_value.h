// CBMPI's value function features (steps 2 and 3 of cbmpi.h): a board-only feature set with
// its constant (td/'s LinearModel), and with `value_rbf` the five radial basis functions of the
// mean column height c that Scherrer et al. (JMLR 2015, section 6.2) add to theirs:
//   exp(-(c - i h / 4)^2 / (2 (h / 5)^2)),  i = 0 .. 4,  h = the board's visible rows.
// They let a linear value function bend with the height, which the linear height features
// alone cannot (a low and a high board of one shape are worth very different amounts).
#pragma once

#include <array>
#include <cstddef>

#include "board.h"
#include "cbmpi_config.h"
#include "value_model.h"

namespace tb::cbmpi {

inline constexpr int kHeightRbfs = 5;

// The five RBFs of b's mean column height on geometry g, in the order i = 0 .. 4.
std::array<double, kHeightRbfs> height_rbfs(const Board& b, Geometry g);

class ValueFeatures {
 public:
  // Throws InputError for an unknown set or one with move features (LinearModel's checks).
  ValueFeatures(const CbmpiConfig& c, FeatureKernel kernel);
  std::size_t size() const { return base_.size() + (rbf_ ? kHeightRbfs : 0); }
  // The features of `board`: the set's (indices 0 .. set size - 1), then the RBFs.
  void of_board(const Board& board, td::Active& out) const;

 private:
  td::LinearModel base_;
  bool rbf_;
  Geometry geometry_;
};

}  // namespace tb::cbmpi
