// Tests of the board feature kernels (kernels/feature_kernels.h) against the feature
// definitions (quoted in kernels/features_reference.cpp; docs/features.md): hand-computed
// boards for every variant, then randomized differential tests of every variant against
// features_reference (the oracle), and of the SIMD variants' lane primitives on any word.
#include <cctype>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "feature_kernels.h"
#include "kernel_variants.h"

namespace tb {
// Test hooks of the SIMD translation units (kernels/features_<isa>.cpp): the lane primitives
// of features_simd.h on any words (lanes_probe there).
void lanes_probe_sse42(const Word* words, int n, std::uint32_t* out);
void lanes_probe_avx2(const Word* words, int n, std::uint32_t* out);
void lanes_probe_avx512(const Word* words, int n, std::uint32_t* out);
void lanes_probe_avx512_tail(const Word* words, int n, std::uint32_t* out);
}  // namespace tb

namespace {

using namespace tb;

// ---------------------------------------------------------------------------------------------
// Boards drawn as strings.

struct TestBoard {
  int W = 0;
  int H = 0;
  std::array<Word, kMaxWidth> cols{};  // columns >= W stay zero
};

// Rows are given top row first, 'X' filled and '.' empty, all of the same width W.  With H
// larger than the number of rows, the rows drawn are the bottom ones (the last string is row
// 0) and everything above them is empty.
TestBoard parse(std::initializer_list<std::string_view> rows_top_first, int H = -1) {
  TestBoard b;
  const int n = static_cast<int>(rows_top_first.size());
  b.H = H < 0 ? n : H;
  b.W = static_cast<int>(rows_top_first.begin()->size());
  EXPECT_LE(n, b.H);
  int r = n - 1;
  for (std::string_view row : rows_top_first) {
    EXPECT_EQ(static_cast<int>(row.size()), b.W) << "ragged board drawing";
    for (int c = 0; c < b.W; ++c) {
      EXPECT_TRUE(row[c] == 'X' || row[c] == '.') << "bad cell '" << row[c] << "'";
      if (row[c] == 'X') b.cols[c] |= Word{1} << r;
    }
    --r;
  }
  return b;
}

// Top row first.
std::string draw(const TestBoard& b) {
  std::ostringstream s;
  s << "W=" << b.W << " H=" << b.H << "\n";
  for (int r = b.H - 1; r >= 0; --r) {
    for (int c = 0; c < b.W; ++c) s << (cell(b.cols.data(), c, r) ? 'X' : '.');
    s << "   row " << r << "\n";
  }
  return s.str();
}

// ---------------------------------------------------------------------------------------------
// Slots and groups.

constexpr std::int32_t kSentinel = -777777;

std::string slot_name(int s) {
  static const char* const scalars[] = {
      "row_transitions", "col_transitions", "holes",      "wells",
      "wells_fast",      "hole_depth",      "rows_with_holes", "diversity",
      "max_height",      "agg_height",      "bumpiness"};
  if (s < SLOT_HEIGHT) return scalars[s];
  if (s < SLOT_DIFF) return "height[" + std::to_string(s - SLOT_HEIGHT) + "]";
  if (s < SLOT_COL_HOLES) return "diff[" + std::to_string(s - SLOT_DIFF) + "]";
  if (s < SLOT_COL_WELLS) return "col_holes[" + std::to_string(s - SLOT_COL_HOLES) + "]";
  if (s < SLOT_ROW_FILL) return "col_wells[" + std::to_string(s - SLOT_COL_WELLS) + "]";
  return "row_fill[" + std::to_string(s - SLOT_ROW_FILL) + "]";
}

// The slots a group owns on a board of width W (vector slots past W, or past W-1 for diffs,
// are unused and never written).
std::vector<int> slots_of_group(std::uint32_t g, int W) {
  std::vector<int> s;
  auto range = [&](int base, int n) {
    for (int i = 0; i < n; ++i) s.push_back(base + i);
  };
  switch (g) {
    case G_ROW_TRANSITIONS: s = {SLOT_ROW_TRANSITIONS}; break;
    case G_COL_TRANSITIONS: s = {SLOT_COL_TRANSITIONS}; break;
    case G_HOLES: s = {SLOT_HOLES}; break;
    case G_WELLS: s = {SLOT_WELLS}; break;
    case G_WELLS_FAST: s = {SLOT_WELLS_FAST}; break;
    case G_HOLE_DEPTH: s = {SLOT_HOLE_DEPTH}; break;
    case G_ROWS_WITH_HOLES: s = {SLOT_ROWS_WITH_HOLES}; break;
    case G_DIVERSITY: s = {SLOT_DIVERSITY}; break;
    case G_MAX_HEIGHT: s = {SLOT_MAX_HEIGHT}; break;
    case G_AGG_HEIGHT: s = {SLOT_AGG_HEIGHT}; break;
    case G_BUMPINESS: s = {SLOT_BUMPINESS}; break;
    case G_HEIGHTS: range(SLOT_HEIGHT, W); break;
    case G_DIFFS: range(SLOT_DIFF, W - 1); break;
    case G_COL_HOLES: range(SLOT_COL_HOLES, W); break;
    case G_COL_WELLS: range(SLOT_COL_WELLS, W); break;
    case G_ROW_FILL: range(SLOT_ROW_FILL, kRowFillBuckets); break;
    default: ADD_FAILURE() << "not a single group: " << g;
  }
  return s;
}

std::vector<int> slots_of_groups(std::uint32_t groups, int W) {
  std::vector<int> s;
  for (int i = 0; i < 16; ++i)
    if (groups & (1u << i))
      for (int slot : slots_of_group(1u << i, W)) s.push_back(slot);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Running a kernel on single boards.

struct Variant {
  const char* name;
  FeatureKernel fn;
};
// Every variant this CPU can run (reference and scalar always).
const std::vector<Variant> kVariants = [] {
  std::vector<Variant> v;
  for (const KernelVariant& k : kernel_variants())
    if (k.supported()) v.push_back({k.name.data(), k.kernel});
  return v;
}();

// All slots of one board (block of one, stride 1); unwritten slots hold kSentinel.
std::vector<std::int32_t> run(FeatureKernel fn, const TestBoard& b, std::uint32_t groups = G_ALL) {
  std::vector<std::int32_t> out(SLOT_NB, kSentinel);
  const BoardBlock block{b.cols.data(), 1, 1, b.W, b.H};
  fn(block, groups, out.data());
  return out;
}

// Hand-computed values.  Vector fields left empty are not checked.
struct Expected {
  int row_transitions, col_transitions, holes, wells, wells_fast, hole_depth, rows_with_holes,
      diversity, max_height, agg_height, bumpiness;
  std::vector<int> heights = {}, diffs = {}, col_holes = {}, col_wells = {};
  std::vector<int> row_fill = {};
};

void expect_features(const TestBoard& b, const Expected& e) {
  ASSERT_GE(b.W, kMinWidth);
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(std::string(v.name) + " on\n" + draw(b));
    const std::vector<std::int32_t> out = run(v.fn, b);
    EXPECT_EQ(out[SLOT_ROW_TRANSITIONS], e.row_transitions) << "row_transitions";
    EXPECT_EQ(out[SLOT_COL_TRANSITIONS], e.col_transitions) << "col_transitions";
    EXPECT_EQ(out[SLOT_HOLES], e.holes) << "holes";
    EXPECT_EQ(out[SLOT_WELLS], e.wells) << "wells";
    EXPECT_EQ(out[SLOT_WELLS_FAST], e.wells_fast) << "wells_fast";
    EXPECT_EQ(out[SLOT_HOLE_DEPTH], e.hole_depth) << "hole_depth";
    EXPECT_EQ(out[SLOT_ROWS_WITH_HOLES], e.rows_with_holes) << "rows_with_holes";
    EXPECT_EQ(out[SLOT_DIVERSITY], e.diversity) << "diversity";
    EXPECT_EQ(out[SLOT_MAX_HEIGHT], e.max_height) << "max_height";
    EXPECT_EQ(out[SLOT_AGG_HEIGHT], e.agg_height) << "agg_height";
    EXPECT_EQ(out[SLOT_BUMPINESS], e.bumpiness) << "bumpiness";
    auto vec = [&](const std::vector<int>& want, int base, int n, const char* what) {
      if (want.empty()) return;
      ASSERT_EQ(static_cast<int>(want.size()), n) << "bad expectation size for " << what;
      for (int i = 0; i < n; ++i) EXPECT_EQ(out[base + i], want[i]) << what << "[" << i << "]";
    };
    vec(e.heights, SLOT_HEIGHT, b.W, "height");
    vec(e.diffs, SLOT_DIFF, b.W - 1, "diff");
    vec(e.col_holes, SLOT_COL_HOLES, b.W, "col_holes");
    vec(e.col_wells, SLOT_COL_WELLS, b.W, "col_wells");
    vec(e.row_fill, SLOT_ROW_FILL, kRowFillBuckets, "row_fill");
  }
}

// ---------------------------------------------------------------------------------------------
// The worked example of the `wells` definition: wells 20, wells_fast 23 (docs/features.md).

TestBoard rules_example() {
  return parse({
      "........",  // row 9
      "........",
      "...X....",
      "...XX...",
      ".X.XX...",
      ".XXXXX.X",
      ".XXXXX.X",
      "XXXXX..X",
      "...XXX.X",
      "X.X..X.X",  // row 0
  });
}

TEST(FeaturesRulesExample, WellsIs20AndWellsFastIs23) {
  const TestBoard b = rules_example();
  ASSERT_EQ(b.W, 8);
  ASSERT_EQ(b.H, 10);
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(v.name);
    const auto out = run(v.fn, b, G_WELLS | G_WELLS_FAST);
    EXPECT_EQ(out[SLOT_WELLS], 20);
    EXPECT_EQ(out[SLOT_WELLS_FAST], 23);
  }
}

// The other features of the worked example, by hand.
// columns: c0 {0,2} h3; c1 {2,3,4,5} h6; c2 {0,2,3,4} h5; c3 {1..7} h8; c4 {1..6} h7;
//          c5 {0,1,3,4} h5; c6 {} h0; c7 {0..4} h5.
// agg 3+6+5+8+7+5+0+5 = 39, max 8; d = +3,-1,+3,-1,-2,-5,+5 -> {-1,-2} -> diversity 2;
// bump 3+1+3+1+2+5+5 = 20.
// holes: c0 r1; c1 r0,r1; c2 r1; c3 r0; c4 r0; c5 r2 -> 7; rows with holes r0,r1,r2 -> 3.
// hole_depth: c0 r2 (1); c1 r2..r5 (4); c2 r2..r4 (3); c3 r1..r7 (7); c4 r1..r6 (6);
//   c5 r3,r4 (2; r0,r1 rest on the floor) -> 23.
// row transitions (walls filled): r0 |X.X..X.X| 6; r1 |...XXX.X| 4; r2 |XXXXX..X| 2;
//   r3, r4 |.XXXXX.X| 4 each; r5 |.X.XX...| 6; r6 |...XX...| 4; r7 |...X....| 4;
//   r8, r9 2 each -> 38.
// col transitions: c0 F X . X . -> 3; c1 F . . X X X X . -> 3; c2 F X . X X X . -> 3;
//   c3 F . X..X . -> 3; c4 F . X..X . -> 3; c5 F X X . X X . -> 3; c6 1; c7 1 -> 20.
// col wells: c0 6-3 = 3; c1 min(3,5)-6 < 0; c2 min(6,8)-5 = 1; c3 min(5,7)-8 < 0;
//   c4 min(8,5)-7 < 0; c5 min(7,0)-5 < 0; c6 min(5,5)-0 = 5; c7 0-5 < 0.
// row fill r0..r9: 4,4,6,6,6,3,2,1,0,0 -> buckets 0:{r7,r8,r9}=3, 1:{r5,r6}=2,
//   2:{r0,r1}=2, 3:{r2,r3,r4}=3, 4:0.
TEST(FeaturesRulesExample, AllFeatures) {
  expect_features(rules_example(),
                  {.row_transitions = 38, .col_transitions = 20, .holes = 7, .wells = 20,
                   .wells_fast = 23, .hole_depth = 23, .rows_with_holes = 3, .diversity = 2,
                   .max_height = 8, .agg_height = 39, .bumpiness = 20,
                   .heights = {3, 6, 5, 8, 7, 5, 0, 5},
                   .diffs = {3, 1, 3, 1, 2, 5, 5},
                   .col_holes = {1, 2, 1, 1, 1, 1, 0, 0},
                   .col_wells = {3, 0, 1, 0, 0, 0, 5, 0},
                   .row_fill = {3, 2, 2, 3, 0}});
}

// ---------------------------------------------------------------------------------------------
// Hand-built boards.

// Board A, W=4 H=5.
//   r4 ....
//   r3 .X..
//   r2 .X.X
//   r1 XX.X
//   r0 X..X
// columns: c0 {0,1} h2; c1 {1,2,3} h4; c2 {} h0; c3 {0,1,2} h3.
// heights 2,4,0,3: max 4, agg 9; diffs 2,4,3 -> bump 9; d = +2,-4,+3 -> {+2} -> diversity 1.
// holes: c1 r0 -> 1 (rows_with_holes 1).  hole_depth: c1 r1..r3 sit on the hole -> 3.
// row transitions: r0 |X..X| 2, r1 |XX.X| 2, r2 |.X.X| 4, r3 |.X..| 4, r4 2 -> 14.
// col transitions: c0 F X X . -> 1; c1 F . X X X . -> 3; c2 -> 1; c3 -> 1 -> 6.
// wells: c0 (left wall, right c1): r3 -> 1+1, r2 -> 1+0 -> 3; fast: run from r3, k=2 -> 3.
//        c1: r0 has c2 empty, r4 has c0 empty -> 0.
//        c2 (c1 {1,2,3}, c3 {0,1,2}): r2 -> 1+2, r1 -> 1+1 -> 5; fast: from r2, k=3 -> 6.
//        c3: left c2 empty everywhere -> 0.
//   wells 8, wells_fast 9.
// col wells: c0 h1-h0 = 2; c1 min(2,0)-4 < 0; c2 min(4,3)-0 = 3; c3 h2-h3 < 0.
// row fill counts r0..r4: 2,3,2,1,0 -> buckets 0:{r3,r4}=2, 1:{r0,r1,r2}=3.
TEST(FeaturesHandBoards, BoardA_W4H5) {
  expect_features(parse({
                      "....",
                      ".X..",
                      ".X.X",
                      "XX.X",
                      "X..X",
                  }),
                  {.row_transitions = 14, .col_transitions = 6, .holes = 1, .wells = 8,
                   .wells_fast = 9, .hole_depth = 3, .rows_with_holes = 1, .diversity = 1,
                   .max_height = 4, .agg_height = 9, .bumpiness = 9,
                   .heights = {2, 4, 0, 3}, .diffs = {2, 4, 3}, .col_holes = {0, 1, 0, 0},
                   .col_wells = {2, 0, 3, 0}, .row_fill = {2, 3, 0, 0, 0}});
}

// Board B, W=6 H=6.
//   r5 ......
//   r4 X.....
//   r3 X.XX.X
//   r2 X.X..X
//   r1 XXX.XX
//   r0 .XXXX.
// columns: c0 {1,2,3,4} h5; c1 {0,1} h2; c2 {0..3} h4; c3 {0,3} h4; c4 {0,1} h2; c5 {1,2,3} h4.
// heights 5,2,4,4,2,4: max 5, agg 21; diffs 3,2,0,2,2 -> bump 9;
//   d = -3,+2,0,-2,+2 -> {+2,0,-2} -> diversity 3.
// holes: c0 r0, c3 r1 r2, c5 r0 -> 4; rows with holes r0,r1,r2 -> 3.
// hole_depth: c0 r1..r4 (4); c3 r3 (1; r0 rests on the floor); c5 r1..r3 (3) -> 8.
// row transitions: r0 |.XXXX.| 4; r1 |XXX.XX| 2; r2 |X.X..X| 4; r3 |X.XX.X| 4; r4 |X.....| 2;
//   r5 2 -> 18.
// col transitions: c0 F . X X X X . -> 3; c1 1; c2 1; c3 F X . . X . -> 3; c4 1;
//   c5 F . X X X . -> 3 -> 12.
// wells: c0 (wall, c1): r0 -> 1.  c1 (c0, c2): r3 -> 1+1, r2 -> 1 -> 3; fast: run r2..r5 has
//   topmost well cell r3, k=2 -> 3.  c2: r4 has c1 empty -> 0.  c3 (c2, c4): r1 -> 1 (r2 has c4
//   empty); fast: topmost well r1, k=1 -> 1.  c4 (c3, c5): r3 -> 1+1 -> 2; fast k=2 -> 3.
//   c5 (c4, wall): r0 -> 1.
//   wells 1+3+0+1+2+1 = 8, wells_fast 1+3+0+1+3+1 = 9.
// col wells: c0 2-5 < 0; c1 min(5,4)-2 = 2; c2 min(2,4)-4 < 0; c3 min(4,2)-4 < 0;
//   c4 min(4,4)-2 = 2; c5 2-4 < 0.
// row fill r0..r5: 4,5,3,4,1,0 -> buckets 0:{r4,r5}=2, 1:{r2}=1, 2:{r0,r1,r3}=3.
TEST(FeaturesHandBoards, BoardB_W6H6) {
  expect_features(parse({
                      "......",
                      "X.....",
                      "X.XX.X",
                      "X.X..X",
                      "XXX.XX",
                      ".XXXX.",
                  }),
                  {.row_transitions = 18, .col_transitions = 12, .holes = 4, .wells = 8,
                   .wells_fast = 9, .hole_depth = 8, .rows_with_holes = 3, .diversity = 3,
                   .max_height = 5, .agg_height = 21, .bumpiness = 9,
                   .heights = {5, 2, 4, 4, 2, 4}, .diffs = {3, 2, 0, 2, 2},
                   .col_holes = {1, 0, 0, 2, 0, 1}, .col_wells = {0, 2, 0, 0, 2, 0},
                   .row_fill = {2, 1, 3, 0, 0}});
}

// Board C, W=5 H=8: two separate empty runs in one well column, one of them with a non-well
// cell inside it (so wells and wells_fast differ), and a full row.
//   r7 .....
//   r6 X.X..
//   r5 X.X..
//   r4 XXX..
//   r3 X.X.X
//   r2 ..X.X
//   r1 X.XX.
//   r0 XXXXX
// columns: c0 {0,1,3,4,5,6} h7; c1 {0,4} h5; c2 {0..6} h7; c3 {0,1} h2; c4 {0,2,3} h4.
// heights 7,5,7,2,4: max 7, agg 25; diffs 2,2,5,2 -> bump 11; d = -2,+2,-5,+2 -> diversity 2.
// holes: c0 r2; c1 r1,r2,r3; c4 r1 -> 5; rows with holes r1,r2,r3 -> 3.
// hole_depth: c0 r3..r6 (4); c1 r4 (1); c4 r2,r3 (2) -> 7.
// row transitions: r0 0; r1 |X.XX.| 4; r2 |..X.X| 4; r3 |X.X.X| 4; r4 |XXX..| 2;
//   r5, r6 |X.X..| 4 each; r7 2 -> 24.
// col transitions: c0 F X X . X X X X . -> 3; c1 F X . . . X . -> 3; c2 1; c3 1;
//   c4 F X . X X . -> 3 -> 11.
// wells: c0: r2 and r7 have c1 empty -> 0.
//   c1 (c0, c2): well cells r1, r3, r5, r6 (r2: c0 empty; r7: both empty).
//     r6 -> 1+1, r5 -> 1, r3 -> 1+2, r1 -> 1 -> 7.
//     fast: run r5..r7 topmost well r6, k=2 -> 3; run r1..r3 topmost well r3, k=3 -> 6 -> 9.
//   c2: r7 has c1 empty -> 0.
//   c3 (c2, c4): r3 -> 1+1, r2 -> 1 -> 3; fast: run r2..r7 topmost well r3, k=2 -> 3.
//   c4 (c3, wall): r1 -> 1; fast 1.
//   wells 0+7+0+3+1 = 11, wells_fast 0+9+0+3+1 = 13.
// col wells: c0 5-7 < 0; c1 min(7,7)-5 = 2; c2 min(5,2)-7 < 0; c3 min(7,4)-2 = 2; c4 2-4 < 0.
// row fill r0..r7: 5,3,2,3,3,2,2,0 -> buckets 0:{r7}=1, 1:{r1..r6}=6, 2:{r0}=1.
TEST(FeaturesHandBoards, BoardC_W5H8) {
  expect_features(parse({
                      ".....",
                      "X.X..",
                      "X.X..",
                      "XXX..",
                      "X.X.X",
                      "..X.X",
                      "X.XX.",
                      "XXXXX",
                  }),
                  {.row_transitions = 24, .col_transitions = 11, .holes = 5, .wells = 11,
                   .wells_fast = 13, .hole_depth = 7, .rows_with_holes = 3, .diversity = 2,
                   .max_height = 7, .agg_height = 25, .bumpiness = 11,
                   .heights = {7, 5, 7, 2, 4}, .diffs = {2, 2, 5, 2},
                   .col_holes = {1, 3, 0, 0, 1}, .col_wells = {0, 2, 0, 2, 0},
                   .row_fill = {1, 6, 1, 0, 0}});
}

// Board D, W=10 H=6: a typical research-size stack with a 3-deep edge well.
//   r5 ..........
//   r4 ........X.
//   r3 X......XX.
//   r2 XX.XX.XXX.
//   r1 XXXXXX.XXX
//   r0 XXXXX.XXXX
// heights 4,3,2,3,3,2,3,4,5,2: max 5, agg 31; diffs 1,1,1,0,1,1,1,1,3 -> bump 10;
//   d = -1,-1,+1,0,-1,+1,+1,+1,-3 -> {-1,0,+1} -> diversity 3.
// holes: c5 r0, c6 r1 -> 2; rows with holes r0, r1 -> 2.
// hole_depth: c5 r1 (1); c6 r2 (1; r0 on the floor) -> 2.
// row transitions: r0 2; r1 2; r2 |XX.XX.XXX.| 6; r3 |X......XX.| 4; r4 |........X.| 4; r5 2
//   -> 20.
// col transitions: c5 F . X . -> 3; c6 F X . X . -> 3; the 8 others 1 each -> 14.
// wells: c2 r2 -> 1.  c5 (c4 {0,1,2}, c6 {0,2}): r2 -> 1, r0 -> 1 -> 2 (fast: two runs, 1+1).
//   c6 (c5 {1}, c7 {0..3}): r1 -> 1.  c9 (c8 {0..4}, wall): r4 -> 3, r3 -> 2, r2 -> 1 -> 6
//   (fast k=3 -> 6).  Others none -> wells 10, wells_fast 10.
// col wells: c2 min(3,3)-2 = 1; c5 min(3,3)-2 = 1; c9 5-2 = 3; others 0.
// row fill r0..r5: 9,9,7,3,1,0 -> buckets 0:{r4,r5}=2, 1:{r3}=1, 3:{r2}=1, 4:{r0,r1}=2.
TEST(FeaturesHandBoards, BoardD_W10H6) {
  expect_features(parse({
                      "..........",
                      "........X.",
                      "X......XX.",
                      "XX.XX.XXX.",
                      "XXXXXX.XXX",
                      "XXXXX.XXXX",
                  }),
                  {.row_transitions = 20, .col_transitions = 14, .holes = 2, .wells = 10,
                   .wells_fast = 10, .hole_depth = 2, .rows_with_holes = 2, .diversity = 3,
                   .max_height = 5, .agg_height = 31, .bumpiness = 10,
                   .heights = {4, 3, 2, 3, 3, 2, 3, 4, 5, 2},
                   .diffs = {1, 1, 1, 0, 1, 1, 1, 1, 3},
                   .col_holes = {0, 0, 0, 0, 0, 1, 1, 0, 0, 0},
                   .col_wells = {0, 0, 1, 0, 0, 1, 0, 0, 0, 3},
                   .row_fill = {2, 1, 0, 1, 2}});
}

// Board E, W=4 H=4: staggered full-but-one rows, each gap under the row above.
//   r3 ....
//   r2 XX.X
//   r1 X.XX
//   r0 .XXX
// columns: c0 {1,2} h3; c1 {0,2} h3; c2 {0,1} h2; c3 {0,1,2} h3.
// heights 3,3,2,3: max 3, agg 11; diffs 0,1,1 -> bump 2; d = 0,-1,+1 -> diversity 3.
// holes: c0 r0, c1 r1 -> 2; rows with holes 2.  hole_depth: c0 r1,r2 (2); c1 r2 (1) -> 3.
// row transitions: 2 per row -> 8.
// col transitions: c0 F . X X . -> 3; c1 F X . X . -> 3; c2 1; c3 1 -> 8.
// wells: c0 r0 (wall, c1 r0) -> 1; c1 r1 -> 1; c2 r2 -> 1; c3 r3 has c2 empty -> 0.
//   wells 3, wells_fast 3.
// col wells: c0 3-3 = 0; c1 min(3,2)-3 < 0; c2 min(3,3)-2 = 1; c3 2-3 < 0.
// row fill: 3,3,3,0 -> buckets 0: 1, 1: 3.
TEST(FeaturesHandBoards, BoardE_StaggeredFullButOne) {
  expect_features(parse({
                      "....",
                      "XX.X",
                      "X.XX",
                      ".XXX",
                  }),
                  {.row_transitions = 8, .col_transitions = 8, .holes = 2, .wells = 3,
                   .wells_fast = 3, .hole_depth = 3, .rows_with_holes = 2, .diversity = 3,
                   .max_height = 3, .agg_height = 11, .bumpiness = 2,
                   .heights = {3, 3, 2, 3}, .diffs = {0, 1, 1}, .col_holes = {1, 1, 0, 0},
                   .col_wells = {0, 0, 1, 0}, .row_fill = {1, 3, 0, 0, 0}});
}

// ---------------------------------------------------------------------------------------------
// Edge boards.

// Empty board: every row |......| has 2 row transitions (2H); every column F -> empty has 1
// (W); all differences are 0 -> diversity 1; everything else 0; all H rows in fill bucket 0.
TEST(FeaturesEdgeBoards, EmptyBoards) {
  for (int W : {4, 5, 10, 16})
    for (int H : {4, 10, 20, 24, 28}) {
      TestBoard b;
      b.W = W;
      b.H = H;
      expect_features(b, {.row_transitions = 2 * H, .col_transitions = W, .holes = 0,
                          .wells = 0, .wells_fast = 0, .hole_depth = 0, .rows_with_holes = 0,
                          .diversity = 1, .max_height = 0, .agg_height = 0, .bumpiness = 0,
                          .heights = std::vector<int>(W, 0),
                          .diffs = std::vector<int>(W - 1, 0),
                          .col_holes = std::vector<int>(W, 0),
                          .col_wells = std::vector<int>(W, 0),
                          .row_fill = {H, 0, 0, 0, 0}});
    }
}

// A full column 0 at maximum height (H-1 filled), W=4 H=4.
// heights 4,0,0,0; d = -4,0,0 -> diversity 1; bump 4.  Every row |X...| -> 2, total 8.
// col transitions: c0 F XXXX then the change into row H -> 1; others 1 -> 4.
// No well cell: c1 has c2 empty, c0 has c1 empty.  col wells all 0.  Fill 1 per row -> b0.
TEST(FeaturesEdgeBoards, EdgeTowerAtMaxHeight_W4H4) {
  expect_features(parse({
                      "X...",
                      "X...",
                      "X...",
                      "X...",
                  }),
                  {.row_transitions = 8, .col_transitions = 4, .holes = 0, .wells = 0,
                   .wells_fast = 0, .hole_depth = 0, .rows_with_holes = 0, .diversity = 1,
                   .max_height = 4, .agg_height = 4, .bumpiness = 4,
                   .heights = {4, 0, 0, 0}, .diffs = {4, 0, 0}, .col_holes = {0, 0, 0, 0},
                   .col_wells = {0, 0, 0, 0}, .row_fill = {4, 0, 0, 0, 0}});
}

// A full column 1, W=4 H=5: column 0 is a well from the floor to the top (wall on its left).
// wells: c0 r0..r4 -> 1+2+3+4+5 = 15; fast: k=5 -> 15.  c2: c3 empty -> none.
// rows |.X..| -> 4 each -> 20.  col transitions 4.  heights 0,5,0,0; d = +5,-5,0 -> diversity
// 1; bump 10.  col wells: c0 5-0 = 5; c1 min(0,0)-5 < 0; c2 min(5,0)-0 = 0; c3 0.
TEST(FeaturesEdgeBoards, InteriorTowerMakesEdgeWell_W4H5) {
  expect_features(parse({
                      ".X..",
                      ".X..",
                      ".X..",
                      ".X..",
                      ".X..",
                  }),
                  {.row_transitions = 20, .col_transitions = 4, .holes = 0, .wells = 15,
                   .wells_fast = 15, .hole_depth = 0, .rows_with_holes = 0, .diversity = 1,
                   .max_height = 5, .agg_height = 5, .bumpiness = 10,
                   .heights = {0, 5, 0, 0}, .diffs = {5, 5, 0}, .col_holes = {0, 0, 0, 0},
                   .col_wells = {5, 0, 0, 0}, .row_fill = {5, 0, 0, 0, 0}});
}

// Single towers in the middle: W=7 H=6, column 3 filled to row 2 only.  No well cell anywhere
// (each neighbour of the tower has an empty cell on its other side).
// rows r0..r2 |...X...| 4 each, r3..r5 2 each -> 18.  col transitions 7.
// heights 0,0,0,3,0,0,0: d = 0,0,+3,-3,0,0 -> diversity 1; bump 6.
// col wells: c2 min(0,3)-0 = 0, c4 min(3,0)-0 = 0: all 0.
TEST(FeaturesEdgeBoards, MiddleTower_W7H6) {
  expect_features(parse({
                      "...X...",
                      "...X...",
                      "...X...",
                  },
                        6),
                  {.row_transitions = 18, .col_transitions = 7, .holes = 0, .wells = 0,
                   .wells_fast = 0, .hole_depth = 0, .rows_with_holes = 0, .diversity = 1,
                   .max_height = 3, .agg_height = 3, .bumpiness = 6,
                   .heights = {0, 0, 0, 3, 0, 0, 0}, .diffs = {0, 0, 3, 3, 0, 0},
                   .col_holes = std::vector<int>(7, 0), .col_wells = std::vector<int>(7, 0),
                   .row_fill = {6, 0, 0, 0, 0}});
}

// Full-but-one rows with the gaps aligned: W=6 H=5, a 3-deep interior well in column 3.
// rows r0..r2 |XXX.XX| 2 each, r3 r4 2 each -> 10.  col transitions 6.
// wells: c3 r2 -> 3, r1 -> 2, r0 -> 1 -> 6; fast k=3 -> 6.  Nothing else (c0 r3 has c1 empty).
// heights 3,3,3,0,3,3: d = 0,0,-3,+3,0 -> diversity 1; bump 6; col wells c3 = 3.
// fill: r0..r2 5 cells -> bucket 2; r3 r4 -> bucket 0.
TEST(FeaturesEdgeBoards, FullButOneRowsAligned_W6H5) {
  expect_features(parse({
                      "......",
                      "......",
                      "XXX.XX",
                      "XXX.XX",
                      "XXX.XX",
                  }),
                  {.row_transitions = 10, .col_transitions = 6, .holes = 0, .wells = 6,
                   .wells_fast = 6, .hole_depth = 0, .rows_with_holes = 0, .diversity = 1,
                   .max_height = 3, .agg_height = 15, .bumpiness = 6,
                   .heights = {3, 3, 3, 0, 3, 3}, .diffs = {0, 0, 3, 3, 0},
                   .col_holes = std::vector<int>(6, 0), .col_wells = {0, 0, 0, 3, 0, 0},
                   .row_fill = {2, 0, 3, 0, 0}});
}

// W=16 H=4, every row at least 8 cells (row-fill bucket 4), alternating top row.
//   r3 X.X.X.X.X.X.X.X.
//   r2 XXXXXXXXXXXXXXX.
//   r1 XXXXXXXXXXXXXXX.
//   r0 XXXXXXXXXXXXXXX.
// heights: even c (0..14) 4, odd c (1..13) 3, c15 0: max 4, agg 8*4 + 7*3 = 53.
// d = -1,+1,... (14 values) then -4 -> {-1,+1} -> diversity 2; bump 14 + 4 = 18.
// row transitions: r0..r2 2 each; r3: all 15 inner pairs change, plus c15 -> right wall -> 16.
//   Total 22.
// col transitions: 1 per column (the even ones count the change into row H) -> 16.
// wells: odd c1..c13 r3 -> 1 each (7); c15 (c14 full, wall): r3..r0 -> 4+3+2+1 = 10 -> 17;
//   fast: 7 + (k=4 -> 10) = 17.
// col wells: odd c 1..13 min(4,4)-3 = 1; c15 4-0 = 4; others 0.
TEST(FeaturesEdgeBoards, Wide_W16H4) {
  std::vector<int> col_wells(16, 0);
  for (int c = 1; c <= 13; c += 2) col_wells[c] = 1;
  col_wells[15] = 4;
  std::vector<int> heights(16);
  for (int c = 0; c < 16; ++c) heights[c] = c == 15 ? 0 : (c % 2 == 0 ? 4 : 3);
  std::vector<int> diffs(15, 1);
  diffs[14] = 4;
  expect_features(parse({
                      "X.X.X.X.X.X.X.X.",
                      "XXXXXXXXXXXXXXX.",
                      "XXXXXXXXXXXXXXX.",
                      "XXXXXXXXXXXXXXX.",
                  }),
                  {.row_transitions = 22, .col_transitions = 16, .holes = 0, .wells = 17,
                   .wells_fast = 17, .hole_depth = 0, .rows_with_holes = 0, .diversity = 2,
                   .max_height = 4, .agg_height = 53, .bumpiness = 18, .heights = heights,
                   .diffs = diffs, .col_holes = std::vector<int>(16, 0),
                   .col_wells = col_wells, .row_fill = {0, 0, 0, 0, 4}});
}

// W=16 H=28 (the largest board): column 0 full to row 27, column 15 only rows 0 and 27.
// heights 28, 0 x14, 28: max 28, agg 56; diffs 28, 0 x13, 28 -> bump 56; d in {-28,0,+28}
// -> diversity 1.
// holes: c15 rows 1..26 -> 26, in 26 rows.  hole_depth: c15 r27 -> 1.
// row transitions: every row 2 (rows 0, 27: |X..............X| ; others |X...............|) -> 56.
// col transitions: c0 1 (into row H); c1..c14 1 each; c15 F X . .. . X + row H -> 3 -> 18.
// No well cell (c1 and c14 have an empty neighbour, c15's left neighbour c14 is empty).
// fill: rows 0 and 27 have 2 cells -> bucket 1; 26 rows with 1 -> bucket 0.
TEST(FeaturesEdgeBoards, Largest_W16H28) {
  TestBoard b;
  b.W = 16;
  b.H = 28;
  b.cols[0] = low_mask(28);
  b.cols[15] = (Word{1} << 27) | 1u;
  std::vector<int> heights(16, 0), diffs(15, 0), col_holes(16, 0);
  heights[0] = heights[15] = 28;
  diffs[0] = diffs[14] = 28;
  col_holes[15] = 26;
  expect_features(b, {.row_transitions = 56, .col_transitions = 18, .holes = 26, .wells = 0,
                      .wells_fast = 0, .hole_depth = 1, .rows_with_holes = 26,
                      .diversity = 1, .max_height = 28, .agg_height = 56, .bumpiness = 56,
                      .heights = heights, .diffs = diffs, .col_holes = col_holes,
                      .col_wells = std::vector<int>(16, 0), .row_fill = {26, 2, 0, 0, 0}});
}

// W=4 H=28: a deep edge well next to a full column, and a hole run at the ceiling.
//   c0 empty; c1 rows 0..27 (full, max height); c2 rows 0..9; c3 rows 20..27 (hole run 0..19).
// heights 0,28,10,28: max 28, agg 66; diffs 28,18,18 -> bump 64; d = +28,-18,+18 ->
//   diversity 0.
// holes: c3 rows 0..19 -> 20, rows with holes 20.  hole_depth: c3 rows 20..27 -> 8.
// row transitions per row (c0 c1 c2 c3):
//   rows 0..9   |.XX.| -> 4 (wall|., .|X, X|., .|wall)      -> 40
//   rows 10..19 |.X..| -> 4                                 -> 40
//   rows 20..27 |.X.X| -> 4 (wall|., .|X, X|., .|X)         -> 32     total 112.
// col transitions: c0 1; c1 1 (into row H); c2 1; c3 F . X (row 20) ... X . (row H) -> 3 -> 6.
// wells: c0 (wall, c1 full): every row, 1+r -> 28*29/2 = 406; fast: k=28 -> 406.
//   c2 (c1 full, c3 rows 20..27): empty rows 10..27; well cells rows 20..27; row 27 has
//   1 + 17 empty below (rows 10..26) = 18, down to row 20 -> 11: sum 11..18 = 116;
//   fast: topmost well row 27, k = 18 -> 171.
//   c3: rows 0..19 empty with c2 rows 0..9 filled, c3 right wall -> well cells rows 0..9:
//   1+r each -> 55; fast: the run 0..19 has topmost well cell row 9, k=10 -> 55.
//   wells 406+116+55 = 577, wells_fast 406+171+55 = 632.
// col wells: c0 28-0 = 28; c1 min(0,10)-28 < 0; c2 min(28,28)-10 = 18; c3 10-28 < 0.
// fill: rows 0..9: 2 cells (c1, c2) -> b1; rows 10..19: 1 -> b0; rows 20..27: 2 -> b1.
TEST(FeaturesEdgeBoards, Tall_W4H28) {
  TestBoard b;
  b.W = 4;
  b.H = 28;
  b.cols[1] = low_mask(28);
  b.cols[2] = low_mask(10);
  b.cols[3] = low_mask(28) & ~low_mask(20);
  expect_features(b, {.row_transitions = 112, .col_transitions = 6, .holes = 20,
                      .wells = 577, .wells_fast = 632, .hole_depth = 8,
                      .rows_with_holes = 20, .diversity = 0, .max_height = 28,
                      .agg_height = 66, .bumpiness = 64, .heights = {0, 28, 10, 28},
                      .diffs = {28, 18, 18}, .col_holes = {0, 0, 0, 20},
                      .col_wells = {28, 0, 18, 0}, .row_fill = {10, 18, 0, 0, 0}});
}

// Completely full board, W=5 H=4 (never reached in play, but a valid input): no empty cell
// anywhere, so row transitions 0, each column 1 (into row H), fill >= 4 -> bucket 2.
TEST(FeaturesEdgeBoards, FullBoard_W5H4) {
  expect_features(parse({"XXXXX", "XXXXX", "XXXXX", "XXXXX"}),
                  {.row_transitions = 0, .col_transitions = 5, .holes = 0, .wells = 0,
                   .wells_fast = 0, .hole_depth = 0, .rows_with_holes = 0, .diversity = 1,
                   .max_height = 4, .agg_height = 20, .bumpiness = 0,
                   .heights = {4, 4, 4, 4, 4}, .diffs = {0, 0, 0, 0},
                   .col_holes = std::vector<int>(5, 0), .col_wells = std::vector<int>(5, 0),
                   .row_fill = {0, 0, 4, 0, 0}});
}

// Diversity counts all five differences -2..+2 and ignores larger ones.
// heights 0,2,3,3,2,0,9,0: d = +2,+1,0,-1,-2,+9,-9 -> diversity 5.
TEST(FeaturesEdgeBoards, DiversityFive) {
  TestBoard b;
  b.W = 8;
  b.H = 10;
  const int h[8] = {0, 2, 3, 3, 2, 0, 9, 0};
  for (int c = 0; c < 8; ++c) b.cols[c] = low_mask(h[c]);
  for (const Variant& v : kVariants) {
    SCOPED_TRACE(v.name);
    const auto out = run(v.fn, b, G_DIVERSITY | G_BUMPINESS);
    EXPECT_EQ(out[SLOT_DIVERSITY], 5);
    EXPECT_EQ(out[SLOT_BUMPINESS], 2 + 1 + 0 + 1 + 2 + 9 + 9);
  }
}

// ---------------------------------------------------------------------------------------------
// Group selection on single boards.

// A kernel must write every slot of every requested group.
TEST(FeaturesGroups, EveryRequestedSlotIsWritten) {
  const TestBoard b = rules_example();
  for (const Variant& v : kVariants)
    for (int i = 0; i < 16; ++i) {
      const std::uint32_t g = 1u << i;
      SCOPED_TRACE(std::string(v.name) + " group bit " + std::to_string(i));
      const auto all = run(v.fn, b, G_ALL);
      const auto one = run(v.fn, b, g);
      for (int s : slots_of_group(g, b.W)) {
        EXPECT_NE(one[s], kSentinel) << slot_name(s) << " not written";
        EXPECT_EQ(one[s], all[s]) << slot_name(s);
      }
    }
}

// feature_kernels.h: "Slots outside the requested groups are left untouched."  The reference
// honours it exactly (features_scalar computes some neighbouring slots together, e.g. holes with
// col_holes, which the FeatureGroup comment "may compute more than asked" allows).
TEST(FeaturesGroups, ReferenceLeavesOtherSlotsUntouched) {
  const TestBoard b = rules_example();
  for (int i = 0; i < 16; ++i) {
    const std::uint32_t g = 1u << i;
    const auto one = run(features_reference, b, g);
    const std::vector<int> mine = slots_of_group(g, b.W);
    for (int s = 0; s < SLOT_NB; ++s)
      if (std::find(mine.begin(), mine.end(), s) == mine.end()) {
        EXPECT_EQ(one[s], kSentinel) << "group bit " << i << " wrote " << slot_name(s);
      }
  }
}

// ---------------------------------------------------------------------------------------------
// Randomized differential test: features_scalar against features_reference.

class BoardGen {
 public:
  explicit BoardGen(std::uint64_t seed) : rng_(seed) {}

  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double real() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }
  bool chance(double p) { return real() < p; }
  Word junk() { return static_cast<Word>(rng_()); }

  // Columns of one W x H board (rows 0 .. H-1 only); columns >= W are zero.
  std::array<Word, kMaxWidth> board(int W, int H) {
    std::array<Word, kMaxWidth> cols{};
    auto set = [&](int c, int r) { cols[c] |= Word{1} << r; };
    switch (uniform(0, 7)) {
      case 0: {  // i.i.d. cells at a random density, up to a random top
        const double p = real();
        const int top = uniform(0, H);
        for (int c = 0; c < W; ++c)
          for (int r = 0; r < top; ++r)
            if (chance(p)) set(c, r);
        break;
      }
      case 1:
      case 2: {  // gravity-like: random column heights, random holes under the top cell
        const double hole_p = chance(0.3) ? 0.0 : real() * 0.5;
        const int cap = uniform(0, H);
        for (int c = 0; c < W; ++c) {
          const int h = uniform(0, cap);
          for (int r = 0; r < h; ++r)
            if (r == h - 1 || !chance(hole_p)) set(c, r);
        }
        break;
      }
      case 3: {  // smooth stack (random walk heights) with a few holes and deep wells
        int h = uniform(0, H);
        const double hole_p = real() * 0.15;
        for (int c = 0; c < W; ++c) {
          h = std::clamp(h + uniform(-3, 3), 0, H);
          const int hc = chance(0.15) ? uniform(0, h) : h;  // occasional well
          for (int r = 0; r < hc; ++r)
            if (r == hc - 1 || !chance(hole_p)) set(c, r);
        }
        break;
      }
      case 4: {  // full-but-one (or -two) rows up to a random top, then a ragged surface
        const int top = uniform(0, H);
        for (int r = 0; r < top; ++r) {
          for (int c = 0; c < W; ++c) set(c, r);
          cols[uniform(0, W - 1)] &= ~(Word{1} << r);
          if (chance(0.3)) cols[uniform(0, W - 1)] &= ~(Word{1} << r);
        }
        for (int c = 0; c < W; ++c) {
          const int extra = uniform(0, H - top);
          for (int r = top; r < top + extra; ++r)
            if (chance(0.8)) set(c, r);
        }
        break;
      }
      case 5: {  // sparse: a handful of cells anywhere
        const int n = uniform(0, 6);
        for (int i = 0; i < n; ++i) set(uniform(0, W - 1), uniform(0, H - 1));
        break;
      }
      case 6: {  // towers and pits at the extremes: heights 0 or H or near them
        for (int c = 0; c < W; ++c) {
          const int h = chance(0.5) ? uniform(std::max(0, H - 2), H) : uniform(0, 2);
          for (int r = 0; r < h; ++r) set(c, r);
          if (h > 2 && chance(0.3)) cols[c] &= ~(Word{1} << uniform(0, h - 2));
        }
        break;
      }
      default: {  // dense random with everything possible, including full rows/columns
        const double p = 0.6 + 0.4 * real();
        for (int c = 0; c < W; ++c)
          for (int r = 0; r < H; ++r)
            if (chance(p)) set(c, r);
        break;
      }
    }
    for (int c = 0; c < W; ++c) cols[c] &= low_mask(H);
    return cols;
  }

 private:
  std::mt19937_64 rng_;
};

// What a differential run draws: the defaults are the general randomized test.
struct DifferentialSetup {
  std::uint64_t seed = 0x7e7715bece1ULL;
  long boards = 120000;
  // The board size of each block (defaults: W and H uniform over their ranges).
  std::function<int(BoardGen&)> width = [](BoardGen& g) {
    return g.uniform(kMinWidth, kMaxWidth);
  };
  std::function<int(BoardGen&)> height = [](BoardGen& g) {
    return g.uniform(kMinHeight, kMaxHeight);
  };
  // One board of a block (default: BoardGen::board).
  std::function<std::array<Word, kMaxWidth>(BoardGen&, int W, int H)> board =
      [](BoardGen& g, int W, int H) { return g.board(W, H); };
  // Group sets checked on every block besides G_ALL and the single groups.
  std::vector<std::uint32_t> group_sets = {};
};

// Runs `fast` against the reference; kernels that need an instruction set the CPU lacks are
// skipped (and reported).
void differential(FeatureKernel fast, const DifferentialSetup& setup = {}) {
  const long kBoards = setup.boards;
  constexpr int kMaxFailures = 10;
  BoardGen gen(setup.seed);
  long boards = 0, blocks = 0;
  int failures = 0;

  auto board_of = [](const std::vector<Word>& cols, int stride, int k, int W, int H) {
    TestBoard b;
    b.W = W;
    b.H = H;
    for (int c = 0; c < W; ++c) b.cols[c] = cols[c * stride + k];
    return b;
  };
  auto fail = [&](const char* what, const TestBoard& b, int slot, std::int32_t want,
                  std::int32_t got, std::uint32_t groups) {
    ++failures;
    ADD_FAILURE() << what << ": slot " << slot_name(slot) << " reference=" << want
                  << " kernel=" << got << " (groups 0x" << std::hex << groups << std::dec
                  << ") on board\n"
                  << draw(b);
  };

  while (boards < kBoards && failures < kMaxFailures) {
    const int W = setup.width(gen);
    const int H = setup.height(gen);
    const int count = gen.uniform(1, 40);  // SIMD variants: full vectors and tails
    const int stride = count + gen.uniform(1, 5);
    ++blocks;

    // Padding lanes (k >= count) hold junk that no kernel may read or write.
    std::vector<Word> cols(static_cast<std::size_t>(kMaxWidth) * stride);
    for (Word& w : cols) w = gen.junk();
    for (int k = 0; k < count; ++k) {
      const auto one = setup.board(gen, W, H);
      for (int c = 0; c < kMaxWidth; ++c) cols[c * stride + k] = one[c];
    }
    const BoardBlock block{cols.data(), stride, count, W, H};
    const std::size_t n_out = static_cast<std::size_t>(SLOT_NB) * stride;

    std::vector<std::int32_t> ref(n_out, kSentinel), sca(n_out, kSentinel);
    features_reference(block, G_ALL, ref.data());
    fast(block, G_ALL, sca.data());
    const std::vector<int> used = slots_of_groups(G_ALL, W);

    for (int k = 0; k < count && failures < kMaxFailures; ++k) {
      const TestBoard b = board_of(cols, stride, k, W, H);
      for (int s : used) {
        const std::int32_t want = ref[s * stride + k], got = sca[s * stride + k];
        if (want == kSentinel) {
          ++failures;
          ADD_FAILURE() << "reference did not write " << slot_name(s) << "\n" << draw(b);
        } else if (got != want) {
          fail("G_ALL mismatch", b, s, want, got, G_ALL);
          break;
        }
      }
    }
    // Unused vector slots and padding lanes stay untouched in both variants.
    for (int s = 0; s < SLOT_NB; ++s) {
      const bool is_used = std::find(used.begin(), used.end(), s) != used.end();
      for (int k = 0; k < stride; ++k) {
        if (is_used && k < count) continue;
        if (ref[s * stride + k] != kSentinel || sca[s * stride + k] != kSentinel) {
          ++failures;
          ADD_FAILURE() << "wrote outside the board's slots: " << slot_name(s) << " lane " << k
                        << " (count " << count << ", stride " << stride << ", W " << W
                        << ") reference=" << ref[s * stride + k]
                        << " scalar=" << sca[s * stride + k];
        }
      }
    }

    // Single groups, one at a time: scalar must produce the reference's values for the
    // requested slots (other slots are not checked: "may compute more than asked").
    for (int i = 0; i < 16 && failures < kMaxFailures; ++i) {
      const std::uint32_t g = 1u << i;
      std::vector<std::int32_t> one(n_out, kSentinel);
      fast(block, g, one.data());
      for (int k = 0; k < count; ++k)
        for (int s : slots_of_group(g, W))
          if (one[s * stride + k] != ref[s * stride + k]) {
            fail("single-group mismatch", board_of(cols, stride, k, W, H), s,
                 ref[s * stride + k], one[s * stride + k], g);
            break;
          }
    }

    // The group sets of the setup (e.g. the wells groups alone, a policy's feature set).
    for (std::uint32_t groups : setup.group_sets) {
      if (failures >= kMaxFailures) break;
      std::vector<std::int32_t> got(n_out, kSentinel);
      fast(block, groups, got.data());
      const std::vector<int> want_slots = slots_of_groups(groups, W);
      for (int k = 0; k < count; ++k)
        for (int s : want_slots)
          if (got[s * stride + k] != ref[s * stride + k]) {
            fail("group-set mismatch", board_of(cols, stride, k, W, H), s, ref[s * stride + k],
                 got[s * stride + k], groups);
            break;
          }
    }

    // Now and then: a random subset of groups for both variants, and the reference per board
    // (block of one) against the reference per block, which catches a lane bug shared by both.
    if (blocks % 8 == 0) {
      const std::uint32_t groups = static_cast<std::uint32_t>(gen.uniform(1, G_ALL));
      std::vector<std::int32_t> r2(n_out, kSentinel), s2(n_out, kSentinel);
      features_reference(block, groups, r2.data());
      fast(block, groups, s2.data());
      const std::vector<int> want_slots = slots_of_groups(groups, W);
      for (int k = 0; k < count; ++k)
        for (int s = 0; s < SLOT_NB; ++s) {
          const bool wanted = std::find(want_slots.begin(), want_slots.end(), s) !=
                              want_slots.end();
          const std::int32_t expect_ref = wanted ? ref[s * stride + k] : kSentinel;
          if (r2[s * stride + k] != expect_ref) {
            ++failures;
            ADD_FAILURE() << "reference with groups 0x" << std::hex << groups << std::dec
                          << " gave " << r2[s * stride + k] << " for " << slot_name(s)
                          << ", expected " << expect_ref;
          }
          if (wanted && s2[s * stride + k] != ref[s * stride + k])
            fail("subset mismatch", board_of(cols, stride, k, W, H), s, ref[s * stride + k],
                 s2[s * stride + k], groups);
        }
      for (int k = 0; k < count; ++k) {
        const TestBoard b = board_of(cols, stride, k, W, H);
        const auto alone = run(features_reference, b, G_ALL);
        for (int s : used)
          if (alone[s] != ref[s * stride + k]) {
            ++failures;
            ADD_FAILURE() << "reference block lane " << k << " differs from the board alone at "
                          << slot_name(s) << "\n"
                          << draw(b);
          }
      }
    }
    boards += count;
  }
  EXPECT_GE(boards, kBoards);
  ::testing::Test::RecordProperty("boards", static_cast<int>(boards));
}

TEST(FeaturesDifferential, ScalarMatchesReference) { differential(features_scalar); }

// One test per SIMD variant, skipped (GTEST_SKIP) on a CPU without its instruction set.
class SimdVariant : public ::testing::TestWithParam<std::string_view> {};

TEST_P(SimdVariant, MatchesReference) {
  const KernelVariant* v = find_kernel(GetParam());
  ASSERT_NE(v, nullptr);
  if (!v->supported()) GTEST_SKIP() << v->name << ": CPU lacks " << v->requires_isa;
  differential(v->kernel);
}

std::vector<std::string_view> simd_variant_names() {
  std::vector<std::string_view> names;
  for (const KernelVariant& v : kernel_variants())
    if (v.name != "reference" && v.name != "scalar") names.push_back(v.name);
  return names;
}

std::string variant_test_name(const ::testing::TestParamInfo<std::string_view>& info) {
  std::string name;
  for (char ch : info.param)
    if (std::isalnum(static_cast<unsigned char>(ch))) name += ch;
  return name;
}

INSTANTIATE_TEST_SUITE_P(FeaturesDifferential, SimdVariant, ::testing::ValuesIn(simd_variant_names()),
                         variant_test_name);

// ---------------------------------------------------------------------------------------------
// The SIMD variants' lane primitives and the forms that use them, stressed where they changed:
// byte-table popcounts summed before one reduction, bit_width from a float's exponent (no
// LZCNT on AVX2 or SSE4.2), weighted popcounts, and wells / wells_fast from run bottoms
// (features_simd.h).

// Words that reach the edges of those forms: 0, 1, every single bit, every run of ones from
// bit 0 (2^25 - 1 is where a float conversion without the isolation of the top bit would
// round up), runs anywhere, bit 31 (walls: the drop scorer reads them), isolated-bit
// patterns, the rows H .. H+3 above a board, and random words of every density.
std::vector<Word> edge_words() {
  std::vector<Word> w = {0u, 1u, 2u, 3u, ~Word{0}, 0x80000000u, 0x7FFFFFFFu, 0xC0000000u,
                         0x40000000u, 0x80000001u, 0x01FFFFFFu, 0x01800000u, 0x00FFFFFFu,
                         0x55555555u, 0xAAAAAAAAu, 0x49249249u, 0x92492492u, 0x24924924u,
                         0x11111111u, 0x88888888u, 0x0F0F0F0Fu, 0xF0F0F0F0u, 0x00FF00FFu,
                         0xFF00FF00u, 0x0000FFFFu, 0xFFFF0000u};
  for (int r = 0; r < 32; ++r) w.push_back(Word{1} << r);
  for (int k = 0; k <= 32; ++k)
    for (int shift = 0; shift + k <= 32; ++shift) w.push_back(low_mask(k) << (shift % 32));
  for (Word pattern : {0x55555555u, 0xAAAAAAAAu, 0x49249249u, 0xDB6DB6DBu})
    for (int k = 0; k <= 32; ++k) {
      w.push_back(pattern & low_mask(k));
      w.push_back(pattern | ~low_mask(k));
      w.push_back(pattern & ~low_mask(k));
    }
  for (int H = kMinHeight; H <= kMaxHeight; ++H) {
    w.push_back(low_mask(H + 4));
    w.push_back(low_mask(4) << H);
    w.push_back(Word{1} << (H - 1));
    w.push_back(Word{1} << (H + 3));
    w.push_back(low_mask(H) ^ (Word{1} << (H - 2)));
  }
  std::mt19937_64 rng(0x1a7e5bull);
  for (double p : {0.03, 0.1, 0.3, 0.5, 0.7, 0.9, 0.97})
    for (int i = 0; i < 30000; ++i) {
      Word x = 0;
      for (int r = 0; r < 32; ++r)
        if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < p) x |= Word{1} << r;
      w.push_back(x);
    }
  return w;
}

// Sum over the set bits r of x of (r + 1).
int row_weight(Word x) {
  int sum = 0;
  for (int r = 0; r < 32; ++r)
    if ((x >> r) & 1u) sum += r + 1;
  return sum;
}

struct LaneProbe {
  const char* what;
  std::string_view variant;  // run only where the CPU has it
  void (*fn)(const Word*, int, std::uint32_t*);
};
const LaneProbe kLaneProbes[] = {{"sse42", "sse4.2", lanes_probe_sse42},
                                 {"avx2", "avx2", lanes_probe_avx2},
                                 {"avx512", "avx512", lanes_probe_avx512},
                                 {"avx512tail8lanesVL", "avx512", lanes_probe_avx512_tail}};

// One test per probe, skipped (GTEST_SKIP) on a CPU without its instruction set.
class LanePrimitives : public ::testing::TestWithParam<LaneProbe> {};

TEST_P(LanePrimitives, PopcountBitWidthAndWeightsOnEdgeWords) {
  const LaneProbe& probe = GetParam();
  const KernelVariant* v = find_kernel(probe.variant);
  ASSERT_NE(v, nullptr);
  if (!v->supported()) GTEST_SKIP() << probe.what << ": CPU lacks " << v->requires_isa;
  const std::vector<Word> words = edge_words();
  {
    // Odd counts and offsets: partial last vectors, every word in every lane.
    for (int offset : {0, 1, 3, 7, 13}) {
      const int n = static_cast<int>(words.size()) - offset;
      std::vector<std::uint32_t> out(7 * static_cast<std::size_t>(n));  // (kLanesProbeResults)
      probe.fn(words.data() + offset, n, out.data());
      int failures = 0;
      for (int i = 0; i < n && failures < 10; ++i) {
        const Word x = words[i + offset];
        const std::uint32_t* r = &out[7 * static_cast<std::size_t>(i)];
        const int width = std::bit_width(x);
        const int count = i % 41;  // the probe's shift count for word i (lanes_probe_count)
        const Word left = count < 32 ? x << count : 0u, right = count < 32 ? x >> count : 0u;
        const bool ok = r[0] == static_cast<std::uint32_t>(std::popcount(x)) &&
                        r[1] == static_cast<std::uint32_t>(width) && r[2] == low_mask(width) &&
                        r[3] == static_cast<std::uint32_t>(31 * std::popcount(x)) &&
                        r[4] == static_cast<std::uint32_t>(21 * row_weight(x)) && r[5] == left &&
                        r[6] == right;
        if (!ok) {
          ++failures;
          ADD_FAILURE() << "word 0x" << std::hex << x << std::dec << ": popcnt " << r[0]
                        << " (want " << std::popcount(x) << "), bit_width " << r[1] << " (want "
                        << width << "), below_top 0x" << std::hex << r[2] << " (want 0x"
                        << low_mask(width) << ")" << std::dec << ", 31 parts " << r[3]
                        << " (want " << 31 * std::popcount(x) << "), 21 weighted " << r[4]
                        << " (want " << 21 * row_weight(x) << "), shl " << count << " 0x" << std::hex
                        << r[5] << " (want 0x" << left << "), shr 0x" << r[6] << " (want 0x" << right
                        << ")" << std::dec;
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(FeaturesLanes, LanePrimitives, ::testing::ValuesIn(kLaneProbes),
                         [](const ::testing::TestParamInfo<LaneProbe>& info) { return std::string(info.param.what); });

// Every variant this CPU runs, scalar included, except the reference.
std::vector<Variant> fast_variants() {
  std::vector<Variant> v;
  for (const Variant& x : kVariants)
    if (std::string_view(x.name) != "reference") v.push_back(x);
  return v;
}

// Board sizes of the stress tests: the extremes often, anything in between too.
int stress_width(BoardGen& g) {
  switch (g.uniform(0, 3)) {
    case 0: return kMinWidth;
    case 1: return kMaxWidth;
    default: return g.uniform(kMinWidth, kMaxWidth);
  }
}
int stress_height(BoardGen& g) {
  switch (g.uniform(0, 4)) {
    case 0: return kMinHeight;
    case 1: return kMaxHeight;
    case 2: return g.uniform(24, kMaxHeight);  // column words reaching 2^24 and beyond
    default: return g.uniform(kMinHeight, kMaxHeight);
  }
}

// Columns made of edge words (cut to the rows 0 .. H-1): empty, full, one cell, the top row,
// runs from the floor (2^25 - 1 at H >= 25), runs anywhere, isolated-cell patterns, random.
std::array<Word, kMaxWidth> edge_board(BoardGen& g, int W, int H) {
  static const Word patterns[] = {0x55555555u, 0xAAAAAAAAu, 0x49249249u, 0x92492492u,
                                  0xDB6DB6DBu, 0x0F0F0F0Fu, 0x33333333u, 0xCCCCCCCCu};
  std::array<Word, kMaxWidth> cols{};
  for (int c = 0; c < W; ++c) {
    Word x = 0;
    switch (g.uniform(0, 8)) {
      case 0: x = 0; break;
      case 1: x = ~Word{0}; break;
      case 2: x = Word{1} << g.uniform(0, H - 1); break;
      case 3: x = Word{1} << (H - 1); break;
      case 4: x = low_mask(g.uniform(0, H)); break;
      case 5: x = low_mask(g.uniform(0, H)) << g.uniform(0, H - 1); break;
      case 6: x = patterns[g.uniform(0, 7)] & low_mask(g.uniform(0, H)); break;
      case 7: x = ~low_mask(g.uniform(0, H - 1)); break;
      default: x = g.junk(); break;
    }
    cols[c] = x & low_mask(H);
  }
  return cols;
}

// Boards that exercise wells: deep wells between tall columns and at the walls, well cells in
// holes (covered: one or several hole runs per column, several well cells per run), gaps in a
// well's walls (a neighbour's hole), combs of one-wide wells, and cells on the top row.
std::array<Word, kMaxWidth> well_board(BoardGen& g, int W, int H) {
  std::array<Word, kMaxWidth> cols{};
  auto fill = [&](int c, int from, int to) {  // rows [from, to)
    from = std::clamp(from, 0, H);
    to = std::clamp(to, 0, H);
    if (to > from) cols[c] |= low_mask(to) & ~low_mask(from);
  };
  auto dig = [&](int c, int from, int to) {  // empty rows [from, to)
    from = std::clamp(from, 0, H);
    to = std::clamp(to, 0, H);
    if (to > from) cols[c] &= ~(low_mask(to) & ~low_mask(from));
  };
  switch (g.uniform(0, 5)) {
    case 0: {  // tall stack with a few deep wells (often at a wall)
      for (int c = 0; c < W; ++c) fill(c, 0, g.uniform(H / 2, H));
      for (int n = g.uniform(1, 3); n > 0; --n) {
        const int c = g.chance(0.4) ? (g.chance(0.5) ? 0 : W - 1) : g.uniform(0, W - 1);
        dig(c, g.uniform(0, H / 3), H);
      }
      break;
    }
    case 1: {  // covered wells: hole runs under overhangs, neighbours filled beside them
      for (int c = 0; c < W; ++c) fill(c, 0, g.uniform(0, H));
      for (int n = g.uniform(1, 2 * W); n > 0; --n) {
        const int c = g.uniform(0, W - 1);
        const int bottom = g.uniform(0, H - 1);
        dig(c, bottom, bottom + g.uniform(1, std::max(1, H / 3)));
        if (g.chance(0.7)) fill(c, bottom + g.uniform(1, H / 2), bottom + g.uniform(2, H));  // cap
      }
      break;
    }
    case 2: {  // comb: one-wide wells everywhere, walls with gaps
      const int top = g.uniform(1, H);
      for (int c = 0; c < W; ++c)
        if ((c % 2 == 0) != g.chance(0.2)) fill(c, 0, top - g.uniform(0, 2));
        else fill(c, 0, g.uniform(0, top / 2));
      for (int n = g.uniform(0, W); n > 0; --n) {
        const int r = g.uniform(0, H - 1);
        dig(g.uniform(0, W - 1), r, r + g.uniform(1, 3));
      }
      break;
    }
    case 3: {  // full neighbours, one empty column with floating blocks in it
      for (int c = 0; c < W; ++c) fill(c, 0, H);
      const int c = g.uniform(0, W - 1);
      dig(c, 0, H);
      for (int n = g.uniform(0, 4); n > 0; --n) {
        const int r = g.uniform(0, H - 1);
        fill(c, r, r + g.uniform(1, 3));
      }
      if (g.chance(0.5)) dig(c == 0 ? 1 : c - 1, g.uniform(0, H - 1), g.uniform(0, H));
      break;
    }
    case 4: {  // the top rows: cells at row H-1, overhangs right under it
      for (int c = 0; c < W; ++c) {
        if (g.chance(0.6)) fill(c, 0, H);
        if (g.chance(0.5)) dig(c, g.uniform(0, H - 1), H - 1);
        if (g.chance(0.3)) dig(c, H - g.uniform(1, 3), H);
      }
      break;
    }
    default: {  // random cells at a random density, then random full or empty columns
      const double p = g.real();
      for (int c = 0; c < W; ++c)
        for (int r = 0; r < H; ++r)
          if (g.chance(p)) cols[c] |= Word{1} << r;
      for (int n = g.uniform(0, 3); n > 0; --n) {
        const int c = g.uniform(0, W - 1);
        if (g.chance(0.5)) fill(c, 0, H);
        else dig(c, 0, H);
      }
      break;
    }
  }
  for (int c = 0; c < W; ++c) cols[c] &= low_mask(H);
  return cols;
}

constexpr std::uint32_t kBctsGroups = G_ROW_TRANSITIONS | G_COL_TRANSITIONS | G_HOLES | G_WELLS |
                                      G_HOLE_DEPTH | G_ROWS_WITH_HOLES;
constexpr std::uint32_t kDtGroups = G_ROW_TRANSITIONS | G_COL_TRANSITIONS | G_HOLES | G_WELLS_FAST |
                                    G_HOLE_DEPTH | G_ROWS_WITH_HOLES | G_DIVERSITY;

TEST(FeaturesDifferential, EdgeColumnWordsEveryVariant) {
  for (const Variant& v : fast_variants()) {
    SCOPED_TRACE(v.name);
    DifferentialSetup setup;
    setup.seed = 0xed9e5eedull;
    setup.boards = 40000;
    setup.width = stress_width;
    setup.height = stress_height;
    setup.board = edge_board;
    setup.group_sets = {kBctsGroups, G_HOLES | G_ROWS_WITH_HOLES,
                        G_HEIGHTS | G_COL_HOLES | G_DIFFS};
    differential(v.fn, setup);
  }
}

TEST(FeaturesDifferential, WellConfigurationsEveryVariant) {
  for (const Variant& v : fast_variants()) {
    SCOPED_TRACE(v.name);
    DifferentialSetup setup;
    setup.seed = 0x3e11500dull;
    setup.boards = 60000;
    setup.width = stress_width;
    setup.height = stress_height;
    setup.board = well_board;
    setup.group_sets = {G_WELLS, G_WELLS_FAST, G_WELLS | G_WELLS_FAST, kBctsGroups, kDtGroups};
    differential(v.fn, setup);
  }
}

// The same wells boards in blocks where only some lanes hold a covered well cell: lanes of
// plain boards (no holes) mixed with one board of covered wells, so a vector's covered
// columns come from one lane only.
TEST(FeaturesDifferential, CoveredWellsInOneLaneEveryVariant) {
  for (const Variant& v : fast_variants()) {
    SCOPED_TRACE(v.name);
    DifferentialSetup setup;
    setup.seed = 0x1a9eull;
    setup.boards = 30000;
    setup.width = stress_width;
    setup.height = stress_height;
    setup.board = [](BoardGen& g, int W, int H) {
      if (g.chance(0.15)) return well_board(g, W, H);
      std::array<Word, kMaxWidth> cols{};  // a hole-free stack: wells only above the tops
      for (int c = 0; c < W; ++c) cols[c] = low_mask(g.uniform(0, H));
      return cols;
    };
    setup.group_sets = {G_WELLS, G_WELLS_FAST, kBctsGroups};
    differential(v.fn, setup);
  }
}

}  // namespace
