#include "reachable.h"

#include <algorithm>
#include <bit>

namespace tb {

namespace {

using reach::kXBias;
using reach::kYBias;

// x slots x + kXBias: states use [2, W + 2]; the slots around them stay empty for kicks.
constexpr int kXSlots = kMaxWidth + 2 * kXBias - 1;

// Per rotation and x slot, one word of y slots: bit (y + kYBias) of fit[r][x + kXBias] is set
// when state (r, x, y) fits.  Slots 0 and 1 (y = -4, -3) never fit: every piece cell would
// be below the floor, so a hard drop always finds a blocked slot under the piece.
using StateWords = std::array<std::array<std::uint64_t, kXSlots>, 4>;

constexpr std::uint64_t low_bits(int n) {
  assert(n >= 0 && n <= 64);
  return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
}

// Collision for a whole column of states at once: a cell at box (i, b) is blocked at y when
// bit (y + b) of its padded board column is, so OR the columns shifted down by b.
void build_fit(const Board& b, Geometry g, Piece p, StateWords& fit) {
  // Padded column: bit (row + kYBias); the rows below the floor and rows >= H are solid.
  const std::uint64_t solid_rows = ~low_bits(g.height + kYBias) | low_bits(kYBias);
  std::array<std::uint64_t, kMaxWidth> col{};
  for (int c = 0; c < g.width; ++c) col[c] = (std::uint64_t{b.cols[c]} << kYBias) | solid_rows;

  const int rotations = p == O ? 1 : 4;  // O's states are one shape
  for (int r = 0; r < rotations; ++r) {
    const auto& mask = srs::kStateShapes[p][r].mask;
    fit[r].fill(0);
    for (int xs = kXBias - 2; xs <= g.width + kXBias - 2; ++xs) {
      std::uint64_t blocked = 0;
      for (int i = 0; i < 4; ++i) {
        if (!mask[i]) continue;
        const int c = xs - kXBias + i;
        if (c < 0 || c >= g.width) {
          blocked = ~std::uint64_t{0};
          break;
        }
        for (Word m = mask[i]; m; m &= m - 1) blocked |= col[c] >> std::countr_zero(m);
      }
      fit[r][xs] = ~blocked;
    }
  }
  for (int r = rotations; r < 4; ++r) fit[r] = fit[0];
}

// Breadth-first search; `open` starts as `fit` and loses each state as it is visited.
struct Search {
  const StateWords& fit;
  StateWords open;
  ReachableSet& out;
  std::array<std::uint16_t, reach::kStateSlots> queue;  // (tail) states in visiting order
  int tail = 0;

  Search(const StateWords& f, ReachableSet& o) : fit(f), open(f), out(o) {}

  bool fits(int r, int xs, int ys) const { return (fit[r][xs] >> ys) & 1u; }

  void visit(int r, int xs, int ys, std::uint16_t from, Input in) {
    const std::uint64_t bit = std::uint64_t{1} << ys;
    if (!(open[r][xs] & bit)) return;
    open[r][xs] &= ~bit;
    const auto s = static_cast<std::uint16_t>(r << 10 | xs << 5 | ys);
    out.parent[s] = from;
    out.via[s] = in;
    queue[tail++] = s;
  }

  // The first kick test that fits is the rotation, visited or not.
  void rotate(const srs::KickList& kicks, int to, int xs, int ys, std::uint16_t from, Input in) {
    for (srs::Offset k : kicks)
      if (fits(to, xs + k.dx, ys + k.dy)) return visit(to, xs + k.dx, ys + k.dy, from, in);
  }
};

}  // namespace

int find_reachable(const Board& b, Geometry g, Piece p, int spawn_row, RotationSystem rs,
                   ReachableSet& out) {
  out.count = 0;
  out.piece = p;
  const PieceState spawn = spawn_state(p, g.width, spawn_row);
  const int sx = spawn.x + kXBias, sy = spawn.y + kYBias;
  StateWords fit;
  build_fit(b, g, p, fit);
  out.block_out = sy < 0 || sy >= 32 || !((fit[0][sx] >> sy) & 1u);
  if (out.block_out) return 0;

  Search search(fit, out);
  out.root = static_cast<std::uint16_t>(sx << 5 | sy);
  search.visit(0, sx, sy, out.root, Input::hard);

  // seen[orientation][column]: bit row once a lock there was recorded, from lock_from.
  std::array<std::array<Word, kMaxWidth>, kMaxOrientations> seen{};
  std::array<std::array<std::array<std::uint16_t, 32>, kMaxWidth>, kMaxOrientations> lock_from;
  std::array<std::array<const srs::KickList*, 2>, 4> kicks;  // [from][cw, ccw]
  for (int r = 0; r < 4; ++r)
    for (int dir = 0; dir < 2; ++dir) kicks[r][dir] = &srs::kicks(rs, p, r, dir);
  // Turning O changes no cell, so it is never on a shortest sequence: skip those states.
  const bool turns = p != O;
  for (int head = 0; head < search.tail; ++head) {
    const std::uint16_t s = search.queue[head];
    const int r = s >> 10, xs = (s >> 5) & 31, ys = s & 31;

    // Hard drop: the piece stops one slot above the highest blocked slot below it.
    const int land = std::bit_width(~fit[r][xs] & low_bits(ys));
    const srs::StateShape& st = srs::kStateShapes[p][r];
    const int column = xs - kXBias + st.left, row = land - kYBias + st.bottom;
    Word& rows = seen[st.orientation][column];
    if (!((rows >> row) & 1u)) {
      rows |= Word{1} << row;
      lock_from[st.orientation][column][row] = s;
    }

    search.visit(r, xs - 1, ys, s, Input::left);
    search.visit(r, xs + 1, ys, s, Input::right);
    if (turns) {
      search.rotate(*kicks[r][0], (r + 1) & 3, xs, ys, s, Input::cw);
      search.rotate(*kicks[r][1], (r + 3) & 3, xs, ys, s, Input::ccw);
    }
    search.visit(r, xs, ys - 1, s, Input::soft);
  }

  for (int o = 0; o < kShapes[p].count; ++o)
    for (int c = 0; c < g.width; ++c)
      for (Word rows = seen[o][c]; rows; rows &= rows - 1) {
        const int row = std::countr_zero(rows);
        assert(out.count < kMaxReachable);
        const Placement pl{p, static_cast<std::uint8_t>(o), static_cast<std::uint8_t>(c)};
        out.placements[out.count++] = {pl, static_cast<std::int8_t>(row), lock_from[o][c][row]};
      }
  return out.count;
}

std::vector<Input> input_sequence(const ReachableSet& set, int i) {
  assert(i >= 0 && i < set.count);
  std::vector<Input> seq{Input::hard};
  for (std::uint16_t s = set.placements[i].from; s != set.root; s = set.parent[s])
    seq.push_back(set.via[s]);
  std::reverse(seq.begin(), seq.end());
  return seq;
}

}  // namespace tb
