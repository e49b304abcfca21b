// The n-tuple network (engine/policy/ntuple.h): its indices against a cell-by-cell reference on
// hand-made and random boards, the table layout, its weights file (round trip and every
// error), and play through the NTupleEvaluator.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "evaluator.h"
#include "ntuple.h"
#include "ntuple_file.h"
#include "parallel_play.h"

namespace tb {
namespace {

// The layout of ntuple.h written the slow way: cells one at a time.
std::vector<std::uint32_t> reference_indices(const Board& b, Geometry g) {
  const int W = g.width, H = g.height;
  std::vector<int> h(W, 0);
  int holes = 0, top = 0;
  for (int c = 0; c < W; ++c) {
    for (int r = 0; r < 32; ++r)
      if (b.filled(c, r)) h[c] = r + 1;
    for (int r = 0; r < h[c]; ++r) holes += !b.filled(c, r);
    top = std::max(top, h[c]);
  }
  std::vector<std::uint32_t> out;
  std::uint32_t base = 0;
  const std::uint32_t profile = 343u * static_cast<std::uint32_t>(H + 1);
  for (int c = 0; c + 3 < W; ++c, base += profile) {
    std::uint32_t d = 0;
    for (int i = 0; i < 3; ++i) d = d * 7 + static_cast<std::uint32_t>(std::clamp(h[c + i + 1] - h[c + i], -3, 3) + 3);
    const int m = *std::max_element(h.begin() + c, h.begin() + c + 4);
    out.push_back(base + d * static_cast<std::uint32_t>(H + 1) + static_cast<std::uint32_t>(m));
  }
  for (int c = 0; c + 2 < W; ++c, base += 4096) {
    const int t = *std::max_element(h.begin() + c, h.begin() + c + 3);
    std::uint32_t bits = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) {
        const int r = t - 4 + j;
        if (r < 0 || b.filled(c + i, r)) bits |= 1u << (4 * i + j);
      }
    out.push_back(base + bits);
  }
  out.push_back(base + static_cast<std::uint32_t>(std::min(holes, 15) * (H + 1) + top));
  return out;
}

std::vector<std::uint32_t> fast_indices(const NTupleNetwork& net, const Board& b) {
  std::vector<std::uint32_t> idx(static_cast<std::size_t>(net.tuple_count()));
  net.indices(b, idx.data());
  return idx;
}

TEST(NTuple, LayoutOn10x10) {
  const NTupleNetwork net(Geometry{10, 10});
  EXPECT_EQ(net.tuple_count(), 7 + 8 + 1);
  EXPECT_EQ(net.size(), 7u * 343 * 11 + 8u * 4096 + 16u * 11);  // 59,355 weights
  EXPECT_EQ(net.tuple_name(0), "profile[0]");
  EXPECT_EQ(net.tuple_name(7), "surface[0]");
  EXPECT_EQ(net.tuple_name(15), "holes");
  EXPECT_EQ(net.table_offset(7), 7u * 343 * 11);
  EXPECT_EQ(net.table_offset(15) + net.table_size(15), net.size());
}

// Hand-checked: columns 0..3 with heights 4, 2, 1, 2 (the board of test_td.cpp).
//   profile[0]: diffs -2, -1, +1 -> digits 1, 2, 4 -> (1 * 7 + 2) * 7 + 4 = 67; max 4
//               index 67 * 21 + 4 = 1411 on a 10x20 board
//   holes: 2 holes, max height 4 -> 2 * 21 + 4 = 46 past the last surface table
TEST(NTuple, HandBoard) {
  const Geometry g{10, 20};
  const NTupleNetwork net(g);
  const Board b = board_from_rows({"#.........", "#...#.#...", "##.##..#..", "####.####."});
  const auto idx = fast_indices(net, b);
  EXPECT_EQ(idx[0], 1411u);
  EXPECT_EQ(idx[15], net.table_offset(15) + 46u);
  // surface[0]: columns 0..2, t = 4, rows 0..3: column 0 all filled (0xF), column 1 rows 0,1
  // (0x3), column 2 row 0 (0x1).
  EXPECT_EQ(idx[7], net.table_offset(7) + (0xFu | 0x3u << 4 | 0x1u << 8));
  EXPECT_EQ(idx, reference_indices(b, g));
}

TEST(NTuple, IndicesMatchReferenceOnRandomBoards) {
  std::mt19937_64 rng(7);
  for (Geometry g : {Geometry{4, 4}, Geometry{6, 8}, Geometry{10, 10}, Geometry{10, 20}, Geometry{16, 28}}) {
    const NTupleNetwork net(g);
    for (int trial = 0; trial < 3000; ++trial) {
      Board b;
      const int fill = static_cast<int>(rng() % 100);
      for (int c = 0; c < g.width; ++c) {
        const int top = static_cast<int>(rng() % static_cast<std::uint64_t>(g.height + 1));
        for (int r = 0; r < top; ++r)
          if (static_cast<int>(rng() % 100) < fill || r == top - 1) b.cols[c] |= Word{1} << r;
      }
      const auto idx = fast_indices(net, b);
      ASSERT_EQ(idx, reference_indices(b, g)) << g.width << "x" << g.height << " trial " << trial;
      for (int t = 0; t < net.tuple_count(); ++t) {
        ASSERT_GE(idx[t], net.table_offset(t));
        ASSERT_LT(idx[t], net.table_offset(t) + net.table_size(t));
      }
    }
  }
}

Policy random_network(Geometry g, std::uint64_t seed) {
  auto net = std::make_shared<NTupleNetwork>(g);
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 500; ++i)
    net->weights()[rng() % net->size()] = std::ldexp(static_cast<double>(rng() % 2000001) - 1e6, -17);
  Policy p;
  p.name = "net";
  p.network = net;
  p.reward_lines = true;
  p.source = "test";
  return p;
}

TEST(NTupleFile, RoundTripIsExact) {
  const Policy p = random_network(Geometry{10, 10}, 3);
  const Policy q = parse_ntuple_policy(format_ntuple_policy(p), "mem");
  ASSERT_TRUE(q.network);
  EXPECT_EQ(q.network->weights(), p.network->weights());
  EXPECT_EQ(q.network->geometry().height, 10);
  EXPECT_TRUE(q.reward_lines);
  EXPECT_EQ(q.name, "net");
}

TEST(NTupleFile, Errors) {
  const std::string good = format_ntuple_policy(random_network(Geometry{6, 8}, 4));
  auto fails = [](const std::string& text, const std::string& needle) {
    try {
      parse_ntuple_policy(text, "f.ntuple");
    } catch (const PolicyError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      return;
    }
    ADD_FAILURE() << "no error for: " << needle;
  };
  fails("", "empty file");
  fails("tetrisbench-ntuple 2\n", "not an n-tuple network file");
  fails(good.substr(0, good.size() - 4), "truncated");
  fails(good + "x 1\n", "text after 'end'");
  fails("tetrisbench-ntuple 1\nlayout v2\n", "unknown layout");
  fails("tetrisbench-ntuple 1\nboard 3x8\n", "board width 3");
  fails("tetrisbench-ntuple 1\nlayout v1\nboard 6x8\nentries 1\n5 1\nboard 6x8\nend\n", "a second 'board' line");
  fails("tetrisbench-ntuple 1\nlayout v1\nboard 6x8\nentries 2\n5 1\n5 2\nend\n", "index 5 given twice");
  fails("tetrisbench-ntuple 1\nlayout v1\nlayout v1\n", "a second 'layout' line");
  fails("tetrisbench-ntuple 1\nlayout v1\nboard 6x8\nentries 1\n999999999 1\nend\n", "outside the network");
  fails("tetrisbench-ntuple 1\nlayout v1\nboard 6x8\nentries 1\n5 nan\nend\n", "expected 'index value'");
  fails("tetrisbench-ntuple 1\nlayout v1\nboard 6x8\nentries 2\n5 1\nend\n", "expected 'index value'");
  fails("tetrisbench-ntuple 1\nlayout v1\nboard 6x8\nentries 1\n5 1\n6 1\nend\n", "unknown key");
  fails("tetrisbench-ntuple 1\nentries 1\n", "'entries' before");
  fails("tetrisbench-ntuple 1\nlayout v1\nboard 6x8\nend\n", "no 'entries'");
  // Every cut of a good file at a line boundary is an error, never a smaller network.
  for (std::size_t pos = good.find('\n'); pos + 1 < good.size(); pos = good.find('\n', pos + 1))
    EXPECT_THROW(parse_ntuple_policy(good.substr(0, pos + 1), "cut"), PolicyError) << pos;
}

TEST(NTupleFile, PlaysOnlyItsBoard) {
  const Policy p = random_network(Geometry{6, 8}, 5);
  EXPECT_NO_THROW(check_dimension(p, Geometry{6, 8}));
  EXPECT_THROW(check_dimension(p, Geometry{6, 9}), PolicyError);
  EXPECT_THROW(check_dimension(p, Geometry{7, 8}), PolicyError);
}

// The evaluator rates a candidate lines + V(board) exactly as the network does.
TEST(NTupleEvaluator, ScoresAreLinesPlusValue) {
  const Geometry g{10, 10};
  const Policy p = random_network(g, 6);
  const NTupleEvaluator ev(p);
  auto block = std::make_unique<CandidateBlock>();
  const Board b = board_from_rows({"#.........", "#...#.#...", "##.##..#..", "#########."});
  for (Piece piece : {I, T, L}) {
    materialize(*block, b, piece, g, Overflow::strict);
    ev.score(*block);
    for (int k = 0; k < block->count; ++k) {
      if (block->terminal[k]) continue;
      EXPECT_EQ(block->score[k], block->value(MOVE_LINES, k) + p.network->value(block->board(k)));
    }
  }
  // And it plays whole games, the same for 1 and 2 threads.
  GameConfig config;
  config.rules.geometry = g;
  config.max_pieces = 300;
  const auto one = play_games(p, config, 6, 1, best_kernel().kernel, nullptr);
  const auto two = play_games(p, config, 6, 2, best_kernel().kernel, nullptr);
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].lines, two[i].lines);
    EXPECT_EQ(one[i].final_board, two[i].final_board);
    EXPECT_GT(one[i].pieces, 0);
  }
}

}  // namespace
}  // namespace tb
