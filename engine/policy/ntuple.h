// An n-tuple network: the value of a board is the sum of weights looked up in tables, each
// indexed by the contents of one small group of cells (Lucas 2008; Szubert & Jaskowski 2014
// used it for 2048).  docs/ntuple.md has the layout, its table sizes and the weights file.
//
// Layout "v1" on a W x H board, h[c] = column height (0..H):
//   profile[c], c = 0 .. W-4   the height profile of columns c..c+3: three neighbour
//                              differences clipped to [-3, 3] and the highest of the four:
//                              index ((d0 * 7 + d1) * 7 + d2) * (H + 1) + max(h[c..c+3]),
//                              343 (H + 1) entries
//   surface[c], c = 0 .. W-3   the 3 x 4 cells of columns c..c+2 in the 4 rows under the
//                              highest of the three (t = max(h[c..c+2]), rows t-4 .. t-1;
//                              rows below the floor count as filled): bit 4i + j is column
//                              c+i, row t-4+j; 4,096 entries
//   holes                      min(holes, 15) * (H + 1) + max height; 16 (H + 1) entries
// Tables are laid out one after another in that order, so a board has (W-3) + (W-2) + 1
// active weights, one per tuple, and each is a global index into weights.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "board.h"

namespace tb {

inline constexpr std::string_view kNTupleLayout = "v1";

class NTupleNetwork {
 public:
  explicit NTupleNetwork(Geometry g);

  Geometry geometry() const { return geometry_; }
  int tuple_count() const { return geometry_.width - 3 + geometry_.width - 2 + 1; }
  std::size_t size() const { return weights_.size(); }  // all table entries

  // Writes tuple_count() global weight indices for board b, in layout order.
  void indices(const Board& b, std::uint32_t* out) const;
  double value(const Board& b) const;
  double value(const std::uint32_t* idx) const;

  std::vector<double>& weights() { return weights_; }
  const std::vector<double>& weights() const { return weights_; }

  // "profile[3]" etc. and its table's first global index, for documentation and tests.
  std::string tuple_name(int t) const;
  std::uint32_t table_offset(int t) const;
  std::uint32_t table_size(int t) const;

 private:
  Geometry geometry_;
  std::uint32_t profile_size_, surface_size_, holes_size_;
  std::vector<double> weights_;  // (size()) every table, zero-initialized
};

}  // namespace tb
