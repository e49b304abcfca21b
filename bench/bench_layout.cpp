// BM_Layout_<layout>/<H>: the board layout decision (docs/decisions.md "Column-major board
// words"), W = 10.
// One iteration = one corpus board: every drop placement of its current piece, the board after
// drop and line clears, and the 6 Dellacherie features as integers (landing height doubled).
// items/s = placements evaluated.
//   row_major          one u16 per row + cached column heights (MdpTetris), written here
//   col_major_scalar   the engine: materialize() + features_scalar over the candidate block
//   col_major_avx512   the same with features_avx512, when the CPU has it (context only)
// Before timing, the first kChecked corpus boards must give the same 6 values per placement
// in both layouts (non-terminal placements), and the whole corpus the same checksum.
#include <benchmark/benchmark.h>

#include "bench_main.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "corpus.h"
#include "evaluator.h"
#include "materialize.h"
#include "search_kernels.h"
#include "kernel_variants.h"

namespace {

using namespace tb;

constexpr int kWidth = 10;
constexpr int kChecked = 200;
constexpr std::uint32_t kGroups = G_ROW_TRANSITIONS | G_COL_TRANSITIONS | G_HOLES | G_WELLS;

// ---- Row-major board -------------------------------------------------------------------------

using Row = std::uint16_t;

struct RowBoard {
  alignas(64) std::array<Row, 32> rows{};        // bit c of rows[r] <=> cell (c, r); row 0 the floor
  std::array<std::uint8_t, kMaxWidth> heights{};  // cached column heights
};

// One orientation as row masks, built once from kShapes' column masks.
struct RowPiece {
  int width = 0, height = 0;
  std::array<std::uint8_t, 4> bottom{};  // lowest filled box row of box column i
  std::array<std::uint8_t, 4> top{};     // 1 + highest filled box row of box column i
  std::array<Row, 4> row{};              // box row j: bit i <=> box column i
  std::array<std::uint8_t, 4> cells{};   // popcount(row[j])
};
struct RowShapes {
  int count = 0;
  std::array<RowPiece, kMaxOrientations> o{};
};

const std::array<RowShapes, PIECE_NB> kRowShapes = [] {
  std::array<RowShapes, PIECE_NB> t{};
  for (int p = 0; p < PIECE_NB; ++p) {
    t[p].count = kShapes[p].count;
    for (int k = 0; k < kShapes[p].count; ++k) {
      const Orientation& src = kShapes[p].orientation[k];
      RowPiece& d = t[p].o[k];
      d.width = src.width;
      d.height = src.height;
      for (int i = 0; i < src.width; ++i) {
        d.bottom[i] = src.bottom[i];
        d.top[i] = static_cast<std::uint8_t>(std::bit_width(src.mask[i]));
        for (int j = 0; j < src.height; ++j)
          if ((src.mask[i] >> j) & 1u) d.row[j] |= static_cast<Row>(1u << i);
      }
      for (int j = 0; j < src.height; ++j) d.cells[j] = static_cast<std::uint8_t>(std::popcount(d.row[j]));
    }
  }
  return t;
}();

RowBoard to_rows(const Board& b, int W) {
  RowBoard r;
  for (int c = 0; c < W; ++c) {
    r.heights[c] = static_cast<std::uint8_t>(column_height(b.cols[c]));
    for (int y = 0; y < 32; ++y) r.rows[y] |= static_cast<Row>(((b.cols[c] >> y) & 1u) << c);
  }
  return r;
}

// One placement: landing_x2, eroded, row_transitions, col_transitions, holes, wells.
const char* const kNames[6] = {"landing_x2", "eroded", "row_transitions", "col_transitions", "holes", "wells"};
struct Values {
  std::array<int, 6> f;
  bool terminal;
};

// The board features of a row-major board whose rows >= top are empty (top <= H), in one pass
// up the stack.  holes = (sum of heights) - (filled cells): every empty cell below a column's
// height is a hole.  Wells keep, per column, the run of empty cells directly below the current
// row as bit-sliced counters (plane j = bit j of every column's run).
[[gnu::always_inline]] inline void board_features(const RowBoard& b, int W, int H, int top, Values& v) {
  const unsigned full = (1u << W) - 1;
  const unsigned walls = 1u | (1u << (W + 1));  // e = row << 1 | walls: bit c+1 = column c
  const unsigned pairs = (1u << (W + 1)) - 1;   // the W + 1 adjacent pairs of e
  int row_t = 2 * (H - top), col_t = 0, filled = 0, wells = 0;
  unsigned below = full;  // the floor counts as filled
  unsigned run[5] = {};   // runs <= 28 < 32
  for (int r = 0; r < top; ++r) {
    const unsigned row = b.rows[r];
    const unsigned e = (row << 1) | walls;
    row_t += std::popcount((e ^ (e >> 1)) & pairs);
    col_t += std::popcount(row ^ below);
    below = row;
    filled += std::popcount(row);
    const unsigned empty = ~row & full;
    const unsigned well = e & (e >> 2) & empty;  // left (bit c of e) and right (bit c+2) filled
    if (well) {
      wells += std::popcount(well);
      for (int j = 0; j < 5; ++j) wells += std::popcount(well & run[j]) << j;
    }
    unsigned carry = empty;  // run = empty ? run + 1 : 0
    for (int j = 0; j < 5; ++j) {
      const unsigned next = run[j] & carry;
      run[j] = (run[j] ^ carry) & empty;
      carry = next;
    }
  }
  col_t += std::popcount(below);  // the change into the empty row above the stack
  int agg = 0;
  for (int c = 0; c < W; ++c) agg += b.heights[c];
  v.f = {v.f[0], v.f[1], row_t, col_t, agg - filled, wells};
}

// Drop, lock, clear (`strict` overflow, docs/rules.md: a piece above H ends the game, no clears),
// features.
[[gnu::always_inline]] inline void place(const RowBoard& base, int top, const RowPiece& o, int x, int W,
                                         int H, Values& v) {
  int y = 0;
  for (int i = 0; i < o.width; ++i) y = std::max(y, base.heights[x + i] - o.bottom[i]);
  v.f = {2 * y + o.height - 1, 0, 0, 0, 0, 0};
  v.terminal = y + o.height > H;
  if (v.terminal) return;
  RowBoard b = base;
  const Row full = static_cast<Row>((1u << W) - 1);
  int lines = 0, cells = 0;
  for (int j = 0; j < o.height; ++j) {
    const Row r = b.rows[y + j] |= static_cast<Row>(o.row[j] << x);
    if (r == full) ++lines, cells += o.cells[j];
  }
  for (int i = 0; i < o.width; ++i) b.heights[x + i] = static_cast<std::uint8_t>(y + o.top[i]);
  top = std::max(top, y + o.height);
  if (lines) {
    int dst = y;
    for (int src = y; src < top; ++src)
      if (b.rows[src] != full) b.rows[dst++] = b.rows[src];
    for (; dst < top; ++dst) b.rows[dst] = 0;
    top -= lines;  // no empty row lies under a filled one, so the stack top drops by `lines`
    // A column whose top cell was cleared may fall further (onto a hole): rescan from the top.
    unsigned open = full;  // columns whose height is not found yet
    for (int r = top - 1; r >= 0 && open; --r) {
      for (unsigned hit = b.rows[r] & open; hit; hit &= hit - 1)
        b.heights[std::countr_zero(hit)] = static_cast<std::uint8_t>(r + 1);
      open &= ~unsigned{b.rows[r]};
    }
    for (; open; open &= open - 1) b.heights[std::countr_zero(open)] = 0;
  }
  v.f[1] = lines * cells;
  board_features(b, W, H, top, v);
}

// One decision's evaluation, in generate_drops order.  Built like materialize()
// (engine/search/materialize.cpp): one entry point per instruction-set level, the best this CPU
// runs picked once.
[[gnu::always_inline]] inline int evaluate_rows_body(const RowBoard& base, Piece p, int W, int H, Values* out) {
  int top = 0;
  for (int c = 0; c < W; ++c) top = std::max<int>(top, base.heights[c]);
  int n = 0;
  const RowShapes& s = kRowShapes[p];
  for (int k = 0; k < s.count; ++k)
    for (int x = 0; x + s.o[k].width <= W; ++x) place(base, top, s.o[k], x, W, H, out[n++]);
  return n;
}
__attribute__((target("arch=x86-64-v4"))) int evaluate_rows_v4(const RowBoard& b, Piece p, int W, int H, Values* out) {
  return evaluate_rows_body(b, p, W, H, out);
}
__attribute__((target("arch=x86-64-v3"))) int evaluate_rows_v3(const RowBoard& b, Piece p, int W, int H, Values* out) {
  return evaluate_rows_body(b, p, W, H, out);
}
int evaluate_rows_v2(const RowBoard& b, Piece p, int W, int H, Values* out) { return evaluate_rows_body(b, p, W, H, out); }

int evaluate_rows(const RowBoard& base, Piece p, int W, int H, Values* out) {
  static const auto best = kernel_variant(ISA_AVX512).supported() ? evaluate_rows_v4
                           : kernel_variant(ISA_AVX2).supported() ? evaluate_rows_v3
                                                                  : evaluate_rows_v2;
  return best(base, p, W, H, out);
}

// ---- Column-major: the engine's own path -----------------------------------------------------

void evaluate_cols(CandidateBlock& block, const CorpusEntry& e, Geometry g, FeatureKernel kernel, int lanes) {
  materialize(block, e.board, e.current, g, Overflow::strict);
  const BoardBlock view{block.cols.data(), kBlockCapacity, (block.count + lanes - 1) / lanes * lanes,
                        g.width, g.height};
  kernel(view, kGroups, block.values.data());
}

Values col_values(const CandidateBlock& b, int k) {
  return {{b.value(MOVE_LANDING_X2, k), b.value(MOVE_ERODED, k), b.value(SLOT_ROW_TRANSITIONS, k),
           b.value(SLOT_COL_TRANSITIONS, k), b.value(SLOT_HOLES, k), b.value(SLOT_WELLS, k)},
          b.terminal[k]};
}

long long sum(const Values& v) { return v.terminal ? 0 : v.f[0] + v.f[1] + v.f[2] + v.f[3] + v.f[4] + v.f[5]; }

long long col_checksum(const CandidateBlock& b) {
  long long s = 0;
  for (int k = 0; k < b.count; ++k) s += sum(col_values(b, k));
  return s;
}

long long row_checksum(const Values* v, int n) {
  long long s = 0;
  for (int k = 0; k < n; ++k) s += sum(v[k]);
  return s;
}

// ---- Validation ------------------------------------------------------------------------------

// "" when the row-major values equal the scalar kernel's, placement by placement.
std::string validate(const Corpus& corpus, const std::vector<RowBoard>& rows, Geometry g) {
  auto block = std::make_unique<CandidateBlock>();
  Values v[kMaxPlacements];
  long long row_sum = 0, col_sum = 0;
  for (std::size_t i = 0; i < corpus.entries.size(); ++i) {
    const CorpusEntry& e = corpus.entries[i];
    evaluate_cols(*block, e, g, features_scalar, 1);
    const int n = evaluate_rows(rows[i], e.current, g.width, g.height, v);
    if (n != block->count) return "corpus board " + std::to_string(i) + ": placement counts differ";
    row_sum += row_checksum(v, n);
    col_sum += col_checksum(*block);
    if (i >= static_cast<std::size_t>(kChecked)) continue;
    for (int k = 0; k < n; ++k) {
      const Values c = col_values(*block, k);
      if (c.terminal != v[k].terminal)
        return "corpus board " + std::to_string(i) + " placement " + std::to_string(k) + ": terminal differs";
      if (c.terminal) continue;
      const Placement pl = block->placements[k];
      for (int f = 0; f < 6; ++f)
        if (v[k].f[f] != c.f[f])
          return "corpus board " + std::to_string(i) + " (orientation " + std::to_string(pl.orientation) +
                 ", column " + std::to_string(pl.column) + "): " + kNames[f] + " row-major " +
                 std::to_string(v[k].f[f]) + ", column-major scalar " + std::to_string(c.f[f]);
    }
  }
  if (row_sum != col_sum)
    return "corpus checksums differ: row-major " + std::to_string(row_sum) + ", column-major " + std::to_string(col_sum);
  return {};
}

struct Prepared {
  std::vector<RowBoard> rows;  // the corpus boards, row-major
  std::string error;           // validation result, "" = passed
};

// Per H, once: converts the corpus and validates.
const Prepared& prepare(Geometry g) {
  static std::map<int, Prepared> cache;
  auto [it, fresh] = cache.try_emplace(g.height);
  if (fresh) {
    const Corpus& corpus = bench_corpus(g);
    for (const CorpusEntry& e : corpus.entries) it->second.rows.push_back(to_rows(e.board, g.width));
    it->second.error = validate(corpus, it->second.rows, g);
  }
  return it->second;
}

// ---- Benchmarks ------------------------------------------------------------------------------

// kernel == nullptr: row-major; else the engine's column-major path with that kernel.
void bm_layout(benchmark::State& state, const KernelVariant* kernel) {
  try {
    const Geometry g{kWidth, static_cast<int>(state.range(0))};
    const Prepared& prep = prepare(g);
    if (!prep.error.empty()) return state.SkipWithError(prep.error.c_str());
    const Corpus& corpus = bench_corpus(g);
    auto block = std::make_unique<CandidateBlock>();
    Values v[kMaxPlacements];
    std::size_t i = 0;
    std::int64_t items = 0;
    for (auto _ : state) {
      long long checksum;
      if (kernel) {
        evaluate_cols(*block, corpus.entries[i], g, kernel->kernel, kernel->lanes);
        checksum = col_checksum(*block);
        items += block->count;
      } else {
        const int n = evaluate_rows(prep.rows[i], corpus.entries[i].current, g.width, g.height, v);
        checksum = row_checksum(v, n);
        items += n;
      }
      benchmark::DoNotOptimize(checksum);
      if (++i == corpus.entries.size()) i = 0;
    }
    state.SetItemsProcessed(items);
    if (kernel) state.SetLabel(std::string(kernel->name));
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

void register_benchmarks() {
  benchmark::RegisterBenchmark("BM_Layout_row_major", [](benchmark::State& s) { bm_layout(s, nullptr); })
      ->Arg(20)
      ->Arg(10);
  for (const char* name : {"scalar", "avx512"}) {
    const KernelVariant* k = find_kernel(name);
    if (!k || !k->supported()) continue;
    benchmark::RegisterBenchmark(("BM_Layout_col_major_" + std::string(name)).c_str(),
                                 [k](benchmark::State& s) { bm_layout(s, k); })
        ->Arg(20)
        ->Arg(10);
  }
}

}  // namespace

int main(int argc, char** argv) { return tb::run_benchmarks(argc, argv, register_benchmarks); }
