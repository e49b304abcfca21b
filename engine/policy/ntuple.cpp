#include "ntuple.h"

#include <algorithm>
#include <bit>

namespace tb {
namespace {

constexpr int kDiffClip = 3;                       // differences in [-3, 3]: 7 values
constexpr int kDiffValues = 2 * kDiffClip + 1;
constexpr int kHoleClip = 15;                      // 16 hole counts
constexpr int kSurfaceRows = 4;                    // 3 columns x 4 rows = 12 bits

// Rows t-4 .. t-1 of one column as 4 bits (bit j = row t-4+j); rows below 0 are filled.
inline std::uint32_t surface_nibble(Word col, int t) {
  const int low = t - kSurfaceRows;
  if (low >= 0) return (col >> low) & 0xFu;
  return ((col << -low) | low_mask(-low)) & 0xFu;
}

}  // namespace

NTupleNetwork::NTupleNetwork(Geometry g)
    : geometry_(g),
      profile_size_(static_cast<std::uint32_t>(kDiffValues * kDiffValues * kDiffValues * (g.height + 1))),
      surface_size_(1u << (3 * kSurfaceRows)),
      holes_size_(static_cast<std::uint32_t>((kHoleClip + 1) * (g.height + 1))) {
  const std::size_t total = static_cast<std::size_t>(g.width - 3) * profile_size_ +
                            static_cast<std::size_t>(g.width - 2) * surface_size_ + holes_size_;
  weights_.assign(total, 0.0);
}

void NTupleNetwork::indices(const Board& b, std::uint32_t* out) const {
  const int W = geometry_.width;
  const std::uint32_t levels = static_cast<std::uint32_t>(geometry_.height + 1);
  int h[kMaxWidth];
  int holes = 0, top = 0;
  for (int c = 0; c < W; ++c) {
    h[c] = column_height(b.cols[c]);
    holes += std::popcount(low_mask(h[c]) & ~b.cols[c]);
    top = std::max(top, h[c]);
  }
  std::uint32_t base = 0;
  for (int c = 0; c + 3 < W; ++c, base += profile_size_) {
    std::uint32_t d = 0;
    for (int i = 0; i < 3; ++i)
      d = d * kDiffValues + static_cast<std::uint32_t>(std::clamp(h[c + i + 1] - h[c + i], -kDiffClip, kDiffClip) + kDiffClip);
    const int m = std::max(std::max(h[c], h[c + 1]), std::max(h[c + 2], h[c + 3]));
    *out++ = base + d * levels + static_cast<std::uint32_t>(m);
  }
  for (int c = 0; c + 2 < W; ++c, base += surface_size_) {
    const int t = std::max(std::max(h[c], h[c + 1]), h[c + 2]);
    *out++ = base + (surface_nibble(b.cols[c], t) | surface_nibble(b.cols[c + 1], t) << 4 |
                     surface_nibble(b.cols[c + 2], t) << 8);
  }
  *out = base + static_cast<std::uint32_t>(std::min(holes, kHoleClip)) * levels + static_cast<std::uint32_t>(top);
}

double NTupleNetwork::value(const std::uint32_t* idx) const {
  double v = 0.0;
  for (int t = 0; t < tuple_count(); ++t) v += weights_[idx[t]];
  return v;
}

double NTupleNetwork::value(const Board& b) const {
  std::uint32_t idx[3 * kMaxWidth];
  indices(b, idx);
  return value(idx);
}

std::string NTupleNetwork::tuple_name(int t) const {
  const int profiles = geometry_.width - 3, surfaces = geometry_.width - 2;
  if (t < profiles) return "profile[" + std::to_string(t) + "]";
  if (t < profiles + surfaces) return "surface[" + std::to_string(t - profiles) + "]";
  return "holes";
}

std::uint32_t NTupleNetwork::table_offset(int t) const {
  const std::uint32_t profiles = static_cast<std::uint32_t>(geometry_.width - 3);
  const std::uint32_t surfaces = static_cast<std::uint32_t>(geometry_.width - 2);
  const std::uint32_t ut = static_cast<std::uint32_t>(t);
  if (ut < profiles) return ut * profile_size_;
  if (ut < profiles + surfaces) return profiles * profile_size_ + (ut - profiles) * surface_size_;
  return profiles * profile_size_ + surfaces * surface_size_;
}

std::uint32_t NTupleNetwork::table_size(int t) const {
  const int profiles = geometry_.width - 3, surfaces = geometry_.width - 2;
  if (t < profiles) return profile_size_;
  if (t < profiles + surfaces) return surface_size_;
  return holes_size_;
}

}  // namespace tb
