#include "quiet_bound.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>

namespace tb {

namespace {

// Per piece: the most cell sides facing a non-piece cell in a row (over its orientations),
// and the least orientation height.
struct PieceExtent {
  int sides = 0, min_height = 4;
};

constexpr std::array<PieceExtent, PIECE_NB> kExtents = [] {
  std::array<PieceExtent, PIECE_NB> t{};
  for (int p = 0; p < PIECE_NB; ++p)
    for (int o = 0; o < kShapes[p].count; ++o) {
      const Orientation& ori = kShapes[p].orientation[o];
      int sides = 0;
      for (int i = 0; i < ori.width; ++i) {
        sides += std::popcount(static_cast<unsigned>(ori.mask[i] & ~(i > 0 ? ori.mask[i - 1] : 0u)));
        sides += std::popcount(static_cast<unsigned>(ori.mask[i] & ~(i + 1 < ori.width ? ori.mask[i + 1] : 0u)));
      }
      t[p].sides = std::max(t[p].sides, sides);
      t[p].min_height = std::min(t[p].min_height, static_cast<int>(ori.height));
    }
  return t;
}();
static_assert(kExtents[O].sides == 4 && kExtents[I].sides == 8 && kExtents[I].min_height == 1);

// The bounds from value rows: value(slot, k) = values[slot * stride + k], k < count <= 64;
// +infinity where bit k of `unbounded` is set.
void bounds_from_rows(const DropRating& rating, const std::int32_t* values, std::size_t stride, int count,
                      std::uint64_t unbounded, int base_min_top, Piece next, double* bound) {
  const int H = rating.geometry.height, W = rating.geometry.width;
  const PieceExtent e = kExtents[next];
  for (int k = 0; k < count; ++k) bound[k] = 0.0;
  double constant = 0.0, magnitude = 0.0;
  for (int i = 0; i < rating.term_count; ++i) {
    const int slot = rating.terms[i].slot;
    const double w = rating.terms[i].weight;
    const bool low = w < 0;
    // The end of the slot's range w picks: the board's value (if `own`) plus `offset`.
    bool own = true;
    int offset = 0;
    switch (slot) {
      case SLOT_ROW_TRANSITIONS: offset = low ? -e.sides : e.sides; break;
      case SLOT_COL_TRANSITIONS: offset = low ? 0 : 8; break;
      case SLOT_HOLES: offset = low ? 0 : 4 * H; break;
      case SLOT_HOLE_DEPTH: offset = low ? 0 : 4; break;
      case SLOT_ROWS_WITH_HOLES: own = low, offset = low ? 0 : H; break;
      case SLOT_MAX_HEIGHT: own = low, offset = low ? 0 : H; break;
      case SLOT_AGG_HEIGHT: own = low, offset = low ? 4 : W * H; break;
      case SLOT_WELLS:
      case SLOT_WELLS_FAST:
      case SLOT_BUMPINESS: own = false, offset = low ? 0 : kUnbounded; break;
      case SLOT_DIVERSITY: own = false, offset = low ? 0 : 5; break;
      case MOVE_LANDING_X2: own = false, offset = low ? 2 * base_min_top + e.min_height - 1 : 2 * H + 3; break;
      case MOVE_ERODED:  // nothing carried, nothing cleared
      case MOVE_LINES: own = false; break;
      case MOVE_CONSTANT: own = false, offset = 1; break;
      default: assert(false && "a slot outside kDropScorerGroups"); own = false, offset = kUnbounded; break;
    }
    constant += w * offset;
    magnitude += std::fabs(w);
    if (own) {
      const std::int32_t* v = values + static_cast<std::size_t>(slot) * stride;
      for (int k = 0; k < count; ++k) bound[k] += w * v[k];
    }
  }
  // Rounding: the scorer's sums and these each differ from their real sums by at most about
  // n u sum |w| |v| (u = 2^-53, every |v| < 2^20, n terms), and the last additions round once
  // more: (2 n + 2) x 2^-33 x sum |w| covers it all; the margin is 64 times that, and still far
  // below any rating difference that matters.
  const double margin = magnitude * (rating.term_count + 1) * 0x1p-26;
  for (int k = 0; k < count; ++k)
    bound[k] = (unbounded >> k) & 1 ? HUGE_VAL : bound[k] + constant + margin;
}

}  // namespace

// DropScores::values as one array of rows, the form bounds_from_rows reads.
using ValueRows = decltype(DropScores::values);
static_assert(sizeof(ValueRows) == DropScores::kValueSlots * sizeof(ValueRows::value_type) &&
              sizeof(ValueRows::value_type) == std::tuple_size_v<ValueRows::value_type> * sizeof(std::int32_t));

void quiet_bounds(const DropRating& rating, const DropScores& first, int base_min_top, Piece next, double* bound) {
  bounds_from_rows(rating, first.values[0].data(), first.values[0].size(), first.count, first.rare, base_min_top,
                   next, bound);
}

void quiet_bounds(const DropRating& rating, const CandidateBlock& first, int base_min_top, Piece next, double* bound) {
  std::uint64_t cleared = 0;
  for (int k = 0; k < first.count; ++k) cleared |= std::uint64_t{first.value(MOVE_LINES, k) > 0} << k;
  bounds_from_rows(rating, first.values.data(), kBlockCapacity, first.count, cleared, base_min_top, next, bound);
}

}  // namespace tb
