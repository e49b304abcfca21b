#include "reachable.h"

#include <algorithm>
#include <bit>

namespace tb {

namespace {

using reach::kXBias;
using reach::kXSlots;
using reach::kYBias;

// find_reachable: bit (y + kYBias) of fit[r][x + kXBias] is set when state (r, x, y) fits.
// Slots 0 and 1 (y = -4, -3) never fit: every piece cell would be below the floor, so a hard
// drop always finds a blocked slot under the piece.
using reach::StateWords;

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

// ---------------------------------------------------------------------------------------
// find_reachable_placements: the closure of the spawn state under left, right, soft, cw and
// ccw, computed a whole word of y slots at a time instead of one state at a time.  Only the
// set of states matters here, not the order they are met in, so any order of applying the
// moves that runs to a fixpoint gives the breadth-first search's set.

namespace {

// Depth slots: the flood fill keeps each word of y slots upside down, bit kDepthTop - ys
// (ys = y + kYBias), so a soft drop moves a state to the next HIGHER bit.  Carries run from
// low bits to high ones, so one addition then fills every run of fitting slots downward
// (fill_down); upright words would need log-step doubling for that.
constexpr int kDepthTop = 63;
constexpr int kFloorDepth = kDepthTop - kYBias;  // depth bit of board row 0

// The upper 32 depth bits hold y slots 0..31, every slot a state index can name (and more
// than any state on a board of H <= 28 needs).  The lower ones are masked out of `fit`:
// shifting a column up by a cell's box row leaves zeros there, which would read as free cells
// (above the solid rows, so never reached from the spawn, but then `fit` means fit).
constexpr std::uint64_t kDepthSlots = ~low_bits(kDepthTop + 1 - 32);
static_assert(kMaxHeight + kYBias <= 32);

// Bit i to bit 31 - i: a board column word, upside down.
constexpr std::uint32_t reverse_bits(std::uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
  return __builtin_bswap32(v);
}

// The states that soft drops reach from `from` (a subset of `fit`), `from` included: in each
// run of fitting depth bits, every bit from the run's shallowest reached one to the run's
// end.  Adding `from` to `fit` sends a carry from that shallowest bit through the rest of the
// run, where it dies on the blocked bit that ends the run, so runs never leak into each
// other.  The sum keeps the 1s shallower than that bit, has a 0 there, and the bit of `from`
// at each deeper slot, so ~sum marks the bit and the deeper slots `from` lacks.  A run with
// no reached bit sums to itself and gains nothing.
constexpr std::uint64_t fill_down(std::uint64_t from, std::uint64_t fit) {
  return from | (fit & ~(fit + from));
}
static_assert(fill_down(0b0100'0110'0000, 0b1101'1110'1110) == 0b1101'1110'0000);
static_assert(fill_down(0b0001'0000'0010, 0b1101'1110'1110) == 0b0001'0000'1110);

// build_fit in depth bits: bit (kDepthTop - ys) of fit[r][x + kXBias] is set when state
// (r, x, y) fits.  A cell at box (dx, dy) is blocked at depth d when row (kFloorDepth - d + dy)
// of column x + dx is, that is depth bit d - dy of the padded column: shift it UP by dy.  The
// walls are solid padded columns, so every state costs the same four loads and no branch.
using DepthColumns = std::array<std::uint64_t, kMaxWidth + 4>;

// Padded column c + 2: bit (kFloorDepth - row); depths below row 0 and above row H - 1 are
// solid, and so are the two columns on each side of the board.
std::uint64_t depth_column(Word col, Geometry g) {
  const std::uint64_t solid_rows = ~low_bits(kFloorDepth + 1) | low_bits(kFloorDepth + 1 - g.height);
  return (std::uint64_t{reverse_bits(col)} << (kFloorDepth - 31)) | solid_rows;
}
void depth_columns(const Board& b, Geometry g, DepthColumns& col) {
  col[0] = col[1] = col[g.width + 2] = col[g.width + 3] = ~std::uint64_t{0};
  for (int c = 0; c < g.width; ++c) col[c + 2] = depth_column(b.cols[c], g);
}

// The fit word of x slot xs (in [lo, hi]) for the state cells `cells`.
std::uint64_t depth_fit(const DepthColumns& col, const srs::BoxShape& cells, int xs) {
  const std::uint64_t* box = &col[xs - kXBias + 2];  // padded column of box column 0
  std::uint64_t blocked = 0;
  for (srs::Offset c : cells) blocked |= box[c.dx] << c.dy;
  return kDepthSlots & ~blocked;
}

void build_depth_fit(const DepthColumns& col, Geometry g, Piece p, StateWords& fit) {
  const int lo = kXBias - 2, hi = g.width + kXBias - 2;
  const int rotations = p == O ? 1 : 4;  // O's states are one shape, and O never turns here
  for (int r = 0; r < rotations; ++r) {
    const srs::BoxShape& cells = srs::kStates[p][r];
    // The two slots on each side of the states on the board never fit: kicks land there.
    fit[r][lo - 2] = fit[r][lo - 1] = fit[r][hi + 1] = fit[r][hi + 2] = 0;
    for (int xs = lo; xs <= hi; ++xs) fit[r][xs] = depth_fit(col, cells, xs);
  }
}
void build_depth_fit(const Board& b, Geometry g, Piece p, StateWords& fit) {
  DepthColumns col;
  depth_columns(b, g, col);
  build_depth_fit(col, g, p, fit);
}

// A kick test in depth bits.  A kick (dx, dy) moves a state dx slots over and dy rows up,
// that is dy depth bits down: the target's fit word shifted up by `up` then down by `down`
// (dy's two signs, one of them 0) lines up with the sources, and a hit shifted the other way
// lines up with the targets.
struct DepthKick {
  std::int8_t dx;
  std::uint8_t up, down;
};
using DepthKicks = std::array<DepthKick, srs::kKickTests>;
// [rotation system][piece][from][cw, ccw]: srs::kicks with the shifts worked out, so a turn
// has no branch on the sign of dy.
constexpr auto kDepthKicks = [] {
  std::array<std::array<std::array<std::array<DepthKicks, 2>, 4>, PIECE_NB>, 2> t{};
  for (int rs = 0; rs < 2; ++rs)
    for (int p = 0; p < PIECE_NB; ++p)
      for (int r = 0; r < 4; ++r)
        for (int dir = 0; dir < 2; ++dir)
          for (int k = 0; k < srs::kKickTests; ++k) {
            const srs::Offset o =
                srs::kicks(static_cast<RotationSystem>(rs), static_cast<Piece>(p), r, dir)[k];
            t[rs][p][r][dir][k] = {o.dx, static_cast<std::uint8_t>(o.dy > 0 ? o.dy : 0),
                                   static_cast<std::uint8_t>(o.dy < 0 ? -o.dy : 0)};
          }
  return t;
}();
// turn() handles test 0 as the plain rotation, no shift and no slot change.
static_assert([] {
  for (const auto& pieces : kDepthKicks)
    for (const auto& rotations : pieces)
      for (const auto& dirs : rotations)
        for (const DepthKicks& ks : dirs)
          if (ks[0].dx != 0 || ks[0].up != 0 || ks[0].down != 0) return false;
  return true;
}());

// The rotation states of each orientation (kStateShapes), O's rotation 0 only: O never turns.
struct OrientationStates {
  std::array<std::uint8_t, kMaxOrientations> count;
  std::array<std::array<std::uint8_t, 2>, kMaxOrientations> rotation;
};
constexpr auto kOrientationStates = [] {
  std::array<OrientationStates, PIECE_NB> t{};
  for (int p = 0; p < PIECE_NB; ++p)
    for (int r = 0; r < (p == O ? 1 : 4); ++r) {
      OrientationStates& s = t[p];
      const int o = srs::kStateShapes[p][r].orientation;
      s.rotation[o][s.count[o]++] = static_cast<std::uint8_t>(r);
    }
  return t;
}();

// Reached states in depth bits, a subset of `fit`, grown monotonically to the fixpoint.
struct Flood {
  const StateWords& fit;
  const std::array<std::array<DepthKicks, 2>, 4>& kicks;  // [from][cw, ccw]
  int lo, hi;  // x slots of the states on the board; the slots beside them never fit
  StateWords reach;   // slots [lo - 2, hi + 2] are used: kicks reach 2 slots beyond
  StateWords turned;  // slots [lo, hi]: states whose cw and ccw have been applied
  // Per rotation, the x slots [first, last] that may hold states whose left, right and soft
  // have not been applied yet (first > last: none).
  std::array<int, 4> pending_first{kXSlots, kXSlots, kXSlots, kXSlots};
  std::array<int, 4> pending_last{-1, -1, -1, -1};

  Flood(const StateWords& f, const std::array<std::array<DepthKicks, 2>, 4>& k, int width)
      : fit(f), kicks(k), lo(kXBias - 2), hi(width + kXBias - 2) {
    for (int r = 0; r < 4; ++r) {
      std::fill(reach[r].begin() + lo - 2, reach[r].begin() + hi + 3, 0);
      std::fill(turned[r].begin() + lo, turned[r].begin() + hi + 1, 0);
    }
  }

  void mark(int r, int xs) {
    pending_first[r] = std::min(pending_first[r], xs);
    pending_last[r] = std::max(pending_last[r], xs);
  }

  // Closes rotation r under left, right and soft.  A left-to-right sweep hands each slot what
  // its left neighbour has (then drops it), a right-to-left sweep the other way.  A sweep
  // starts at the pending slots and, once past them, stops at the first slot that gains
  // nothing: nothing new reaches the slots beyond.  The slots that the leftward sweep changed
  // have had their left and soft applied; only their right is left, so if the next
  // rightward sweep changes nothing, the rotation is closed.  After a turn adds a few kicked
  // states, a close touches just the slots around them.
  void close_moves(int r) {
    auto& re = reach[r];
    const auto& f = fit[r];
    int first = pending_first[r], last = pending_last[r];
    pending_first[r] = kXSlots;
    pending_last[r] = -1;
    for (bool all_pending = true;; all_pending = false) {
      int changed_last = -1;
      for (int xs = first; xs <= hi; ++xs) {
        const std::uint64_t v = fill_down(re[xs] | (re[xs - 1] & f[xs]), f[xs]);
        if (v != re[xs]) {
          re[xs] = v;
          changed_last = xs;
        } else if (xs > last) {
          break;
        }
      }
      if (!all_pending && changed_last < 0) return;
      last = std::max(last, changed_last);
      int changed_first = kXSlots;
      changed_last = -1;
      for (int xs = last; xs >= lo; --xs) {
        const std::uint64_t v = fill_down(re[xs] | (re[xs + 1] & f[xs]), f[xs]);
        if (v != re[xs]) {
          re[xs] = v;
          changed_first = xs;
          changed_last = std::max(changed_last, xs);
        } else if (xs < first) {
          break;
        }
      }
      if (changed_last < 0) return;
      first = changed_first;
      last = changed_last;
    }
  }

  // Applies cw and ccw to the states of rotation r not turned yet; returns the rotations
  // (one bit each) that gained states.  The first kick test that fits is the rotation, so a
  // state uses test k only when tests 0..k-1 do not fit: `left` keeps, for a whole word of
  // sources, those that no earlier test has taken.  kAnyKick (find_reachable_bound): every
  // test that fits is taken.
  template <bool kAnyKick>
  unsigned turn(int r) {
    std::array<std::uint32_t, 2> added{};  // [cw, ccw]: x slots (one bit each) that gained states
    for (int xs = lo; xs <= hi; ++xs) {
      const std::uint64_t from = reach[r][xs] & ~turned[r][xs];
      if (!from) continue;
      turned[r][xs] |= from;
      for (int dir = 0; dir < 2; ++dir) {
        const int to = (r + (dir == 0 ? 1 : 3)) & 3;
        const DepthKicks& ks = kicks[r][dir];
        // Test 0, the plain rotation, takes most states.  Tests 1..4 run only when some
        // source is left, and then all four without a branch: a branch on each outcome
        // (data-dependent, on a new board each call) costs more than the tests it skips.
        std::uint64_t& target = reach[to][xs];
        const std::uint64_t add0 = from & fit[to][xs] & ~target;
        target |= add0;
        added[dir] |= std::uint32_t{add0 != 0} << xs;
        std::uint64_t left = kAnyKick ? from : from & ~fit[to][xs];
        if (!left) continue;
        for (int k = 1; k < srs::kKickTests; ++k) {
          const DepthKick kk = ks[k];
          std::uint64_t& t = reach[to][xs + kk.dx];
          const std::uint64_t fits = (fit[to][xs + kk.dx] << kk.up) >> kk.down;
          const std::uint64_t add = ((left & fits) << kk.down >> kk.up) & ~t;
          t |= add;
          added[dir] |= std::uint32_t{add != 0} << (xs + kk.dx);
          if constexpr (!kAnyKick) left &= ~fits;
        }
      }
    }
    unsigned gained = 0;
    for (int dir = 0; dir < 2; ++dir)
      if (added[dir]) {
        const int to = (r + (dir == 0 ? 1 : 3)) & 3;
        mark(to, std::countr_zero(added[dir]));
        mark(to, 31 - std::countl_zero(added[dir]));
        gained |= 1u << to;
      }
    return gained;
  }
};

// The flood from the spawn state to the fixpoint, into flood.reach; false (nothing reached)
// when the spawn state does not fit: a block-out (find_reachable's test: a spawn outside the
// 32 y slots is one too).
template <bool kAnyKick>
bool flood_from_spawn(Flood& flood, Geometry g, Piece p, int spawn_row) {
  const PieceState spawn = spawn_state(p, g.width, spawn_row);
  const int sx = spawn.x + kXBias, sy = spawn.y + kYBias;
  if (sy < 0 || sy >= 32 || !((flood.fit[0][sx] >> (kDepthTop - sy)) & 1u)) return false;
  flood.reach[0][sx] = std::uint64_t{1} << (kDepthTop - sy);
  flood.mark(0, sx);

  // Rotations whose move closure is out of date.  Each pass closes one and turns its new
  // states; it ends when no turn adds a state anywhere.  Turning O changes no cell, so O
  // stays in rotation 0 (as in find_reachable).
  const bool turns = p != O;
  for (unsigned stale = 1; stale;)
    for (int r = 0; r < 4; ++r) {
      if (!((stale >> r) & 1u)) continue;
      stale &= ~(1u << r);
      flood.close_moves(r);
      if (turns) stale |= flood.template turn<kAnyKick>(r);
    }
  return true;
}

// Locks: where a hard drop ends, lock(r, xs) a word of them per state word (a flood is closed
// under soft drop, so where a reached state is that its next deeper slot is blocked holds the end
// of every reached state's hard drop: find_reachable's `land`).  The states of one orientation
// (two for S, Z and I) are merged per column, in find_reachable's order: rows from the bottom,
// that is depth bits from the top.  skip(o, c) gives depth bits of that column's not to report.
// Only x slots in `slots` (per rotation, one bit each) are read: the others hold no lock.
template <class Lock, class Skip>
int read_locks(Geometry g, Piece p, ReachableSet& out, Lock lock, Skip skip,
               std::array<std::uint32_t, 4> slots = {~0u, ~0u, ~0u, ~0u}) {
  out.count = 0;
  out.piece = p;
  const OrientationStates& states = kOrientationStates[p];
  for (int o = 0; o < kShapes[p].count; ++o) {
    std::uint32_t columns = 0;  // the columns whose states' slots may hold a lock
    for (int i = 0; i < states.count[o]; ++i) {
      const int r = states.rotation[o][i];
      columns |= slots[r] >> (kXBias - srs::kStateShapes[p][r].left);
    }
    for (columns &= (1u << g.width) - 1; columns; columns &= columns - 1) {
      const int c = std::countr_zero(columns);
      std::uint64_t depths = 0;  // bit (kFloorDepth - row)
      for (int i = 0; i < states.count[o]; ++i) {
        const int r = states.rotation[o][i];
        const srs::StateShape& st = srs::kStateShapes[p][r];
        depths |= lock(r, c + kXBias - st.left) >> st.bottom;
      }
      depths &= ~skip(o, c);
      for (; depths;) {
        const int d = kDepthTop - std::countl_zero(depths);
        depths &= ~(std::uint64_t{1} << d);
        assert(out.count < kMaxReachable);
        const Placement pl{p, static_cast<std::uint8_t>(o), static_cast<std::uint8_t>(c)};
        out.placements[out.count++] = {pl, static_cast<std::int8_t>(kFloorDepth - d), 0};
      }
    }
  }
  return out.count;
}
constexpr auto kSkipNone = [](int, int) { return std::uint64_t{0}; };

// The locks of state word `reach` on a board whose fit word is `fit`, less the drop's, where
// the highest state of the word on the board (`highest`, its top cell in row H - 1) fits and
// has no cell above it (no column reaches the top 4 rows): a drop stops at the end of the run
// of fitting slots from there down.
std::uint64_t locks_under_drop(std::uint64_t reach, std::uint64_t fit, std::uint64_t highest) {
  const std::uint64_t rests = fit & ~(fit >> 1);
  return reach & rests & ~(fill_down(highest & fit, fit) & rests);
}

// Per rotation, the depth bit of the highest state on a board of `g` (its top cell in row H - 1).
std::uint64_t highest_state(Piece p, int r, Geometry g) {
  int top_dy = 0;
  for (srs::Offset c : srs::kStates[p][r]) top_dy = std::max(top_dy, static_cast<int>(c.dy));
  return std::uint64_t{1} << (kFloorDepth - (g.height - 1 - top_dy));
}

// Whether a column of height h stays out of the top 4 rows, where locks_under_drop's drop
// (from the highest state, at most 4 rows tall) holds: what find_reachable_bound keeps its
// locks for, and what placements_under_drops_within reuses them on.
bool below_top_rows(int h, Geometry g) { return h <= g.height - 4; }

}  // namespace

int find_reachable_placements(const Board& b, Geometry g, Piece p, int spawn_row, RotationSystem rs,
                              ReachableSet& out) {
  out.count = 0;
  out.piece = p;
  StateWords fit;
  build_depth_fit(b, g, p, fit);
  Flood flood(fit, kDepthKicks[static_cast<int>(rs)][p], g.width);
  out.block_out = !flood_from_spawn<false>(flood, g, p, spawn_row);
  if (out.block_out) return 0;
  return read_locks(g, p, out, [&](int r, int xs) { return flood.reach[r][xs] & ~(fit[r][xs] >> 1); }, kSkipNone);
}

void find_reachable_bound(const Board& b, Geometry g, Piece p, int spawn_row, RotationSystem rs,
                          ReachableBound& out) {
  out.piece = p;
  out.board = b;
  depth_columns(b, g, out.depth_cols);
  StateWords fit;
  build_depth_fit(out.depth_cols, g, p, fit);
  Flood flood(fit, kDepthKicks[static_cast<int>(rs)][p], g.width);
  out.block_out = !flood_from_spawn<true>(flood, g, p, spawn_row);
  out.reach = flood.reach;  // slots outside [lo - 2, hi + 2] are never read
  out.low = !out.block_out && below_top_rows(b.wall_height(g.width), g);
  if (!out.low) return;
  for (int r = 0; r < (p == O ? 1 : 4); ++r) {
    out.highest[r] = highest_state(p, r, g);
    out.lock_slots[r] = 0;
    for (int xs = kXBias - 4; xs <= g.width + kXBias; ++xs) {  // [lo - 2, hi + 2]
      out.locks[r][xs] = locks_under_drop(out.reach[r][xs], fit[r][xs], out.highest[r]);
      out.lock_slots[r] |= std::uint32_t{out.locks[r][xs] != 0} << xs;
    }
  }
}

int placements_under_drops_within(const ReachableBound& bound, const Board& after, Geometry g, ReachableSet& out) {
  const Piece p = bound.piece;
  out.count = 0;
  out.piece = p;
  out.block_out = bound.block_out;
  if (bound.block_out) return 0;
  // The columns `after` changed; whether one of them reaches the top 4 rows.
  std::uint32_t changed = 0;
  bool high = !bound.low;
  DepthColumns col = bound.depth_cols;
  for (int c = 0; c < g.width; ++c)
    if (after.cols[c] != bound.board.cols[c]) {
      changed |= 1u << c;
      col[c + 2] = depth_column(after.cols[c], g);
      high = high || !below_top_rows(column_height(after.cols[c]), g);
    }
  if (high) {
    // A drop's row by the column heights (it may not be on the board).
    std::array<int, kMaxWidth> heights;
    for (int c = 0; c < g.width; ++c) heights[c] = column_height(after.cols[c]);
    StateWords fit;
    build_depth_fit(col, g, p, fit);  // `after`'s depth columns, patched above
    return read_locks(
        g, p, out, [&](int r, int xs) { return bound.reach[r][xs] & fit[r][xs] & ~(fit[r][xs] >> 1); },
        [&](int o, int c) {
          const Orientation& ori = kShapes[p].orientation[o];
          if (c + ori.width > g.width) return std::uint64_t{0};  // no state there fits: no lock
          return std::uint64_t{1} << (kFloorDepth - landing_row(heights.data(), ori, c));
        });
  }
  // No column reaches the top 4 rows, on the bound's board or on `after`: the bound's locks
  // (locks_under_drop) hold wherever a state's box covers no column that changed; the others
  // are found again here.  Most boards have no lock left: no placement then.
  const std::uint32_t on_board = ((1u << (g.width + 1)) - 1) << (kXBias - 2);  // slots [lo, hi]
  std::array<std::uint32_t, 4> again{}, held{};  // per rotation: slots found again, slots with a lock
  std::array<std::array<std::uint64_t, kXSlots>, 4> found;  // at the slots of `again`
  for (int r = 0; r < (p == O ? 1 : 4); ++r) {
    const srs::BoxShape& cells = srs::kStates[p][r];
    for (srs::Offset c : cells) again[r] |= (changed << kXBias) >> c.dx;  // a cell in a changed column
    again[r] &= on_board;
    held[r] = bound.lock_slots[r] & ~again[r];
    for (std::uint32_t slots = again[r]; slots; slots &= slots - 1) {
      const int xs = std::countr_zero(slots);
      found[r][xs] = locks_under_drop(bound.reach[r][xs], depth_fit(col, cells, xs), bound.highest[r]);
      held[r] |= std::uint32_t{found[r][xs] != 0} << xs;
    }
  }
  if (!(held[0] | held[1] | held[2] | held[3])) return 0;
  return read_locks(
      g, p, out, [&](int r, int xs) { return (again[r] >> xs) & 1 ? found[r][xs] : bound.locks[r][xs]; },
      kSkipNone, held);
}

bool drops_are_reachable(const Board& b, Geometry g, int spawn_row) {
  for (int c = 0; c < g.width; ++c)
    if (column_height(b.cols[c]) > spawn_row - kReachSpawnMargin) return false;
  return true;
}

int keep_below_drops(ReachableSet& set) {
  int kept = 0;
  for (int i = 0; i < set.count; ++i) {
    const Placement& a = set.placements[i].placement;
    const bool highest = i + 1 == set.count || set.placements[i + 1].placement.orientation != a.orientation ||
                         set.placements[i + 1].placement.column != a.column;
    if (!highest) set.placements[kept++] = set.placements[i];
  }
  set.count = kept;
  return kept;
}

bool reachable_are_drops(const Board& b, Geometry g, int spawn_row) {
  const int W = g.width;
  int h[kMaxWidth];
  Word holes[kMaxWidth + 2] = {}, open[kMaxWidth + 2] = {};  // index c + 1; walls: neither
  if (!drops_are_reachable(b, g, spawn_row)) return false;
  for (int c = 0; c < W; ++c) {
    h[c] = column_height(b.cols[c]);
    holes[c + 1] = low_mask(h[c]) & ~b.cols[c];
    open[c + 1] = low_mask(g.height) & ~low_mask(h[c]);
  }
  // (1) No hole beside open air: then a piece cell in a hole has only holes as piece neighbours
  // (the cell above a column's highest hole is filled), so a piece in holes lies in one region.
  for (int c = 1; c <= W; ++c)
    if (holes[c] & (open[c - 1] | open[c + 1])) return false;
  // (2) Each region of 4 or more holes (fewer cannot hold a piece) lies deep enough below the
  // tops around it that no move or kick from open air reaches it.
  Word left[kMaxWidth + 2];
  std::copy(std::begin(holes), std::end(holes), std::begin(left));
  for (int c = 1; c <= W; ++c)
    while (left[c]) {
      Word region[kMaxWidth + 2] = {};
      region[c] = left[c] & (0 - left[c]);
      for (bool grew = true; grew;) {  // 4-connected growth inside the holes
        grew = false;
        for (int d = 1; d <= W; ++d) {
          const Word next = (region[d] | (region[d] << 1) | (region[d] >> 1) | region[d - 1] | region[d + 1]) & left[d];
          grew |= next != region[d];
          region[d] = next;
        }
      }
      int cells = 0;
      for (int d = 1; d <= W; ++d) {
        cells += popcount(region[d]);
        left[d] &= ~region[d];
      }
      if (cells < 4) continue;
      for (int d = 1; d <= W; ++d) {
        if (!region[d]) continue;
        int low = h[d - 1];  // the lowest top within kReachReach columns
        for (int e = std::max(0, d - 1 - kReachReach); e <= std::min(W - 1, d - 1 + kReachReach); ++e)
          low = std::min(low, h[e]);
        if (column_height(region[d]) + kReachHoleDepth - 1 > low) return false;  // its highest cell
      }
    }
  return true;
}

}  // namespace tb
