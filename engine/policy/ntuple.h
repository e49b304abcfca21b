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
//
// Rating a block of candidate boards (block_values) is the hot loop of the n-tuple learner and
// of play with a network.  indices() is the reference; the AVX-512 kernel computes the same
// integers for 16 boards at once (one board per 32-bit lane) and sums the same weights in the
// same tuple order per board, so every kernel gives bit-identical values (tests/test_ntuple.cpp
// checks them against indices() on random blocks).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "board.h"

namespace tb {

inline constexpr std::string_view kNTupleLayout = "v1";

// How block_values computes: board by board through indices() (any CPU), or 16 boards at a
// time (AVX-512 F, BW, CD, VL and VPOPCNTDQ: per-lane leading-zero and bit counts; only on a
// CPU with the avx512 level, kernels/kernel_variants.h).  The caller passes its level's
// (engine/search/isa.h IsaRecord::ntuple).
enum class NTupleKernel { scalar, avx512 };

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

  // A block of boards, column-major: column c of board k is cols[c * stride + k] (the layout of
  // CandidateBlock::cols).  For every k < count: out[k] = the value of board k under the tables
  // `w` (laid out as weights(); summed from 0 in tuple order, as value() does), or 0 when
  // skip[k] (skip may be null; a skipped board's weights are not read, so it may be a terminal
  // board whose indices fall outside the tables).  If idx is not null, idx[t * stride + k] =
  // indices() of board k for every k < count that is not skipped (a skipped board's entries are
  // unspecified).  Nothing at or past count is read or written.
  // The results do not depend on `kernel`.
  void block_values(NTupleKernel kernel, const Word* cols, int stride, int count, const bool* skip,
                    const double* w, double* out, std::uint32_t* idx) const;

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
