// The n-tuple network (engine/policy/ntuple.h): its indices against a cell-by-cell reference on
// hand-made and random boards, its block kernels against indices() on random blocks, the table
// layout, its weights file (round trip and every error), and play through the NTupleEvaluator.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

#include "evaluator.h"
#include "isa.h"
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

// A random board of g whose columns are at most H high, with random holes: the boards the
// tables are made for.  `tall` columns may also stand above H, up to all 32 bits of a word
// (terminal candidates under `clear-first`), which only a skipped board may have.
Board random_board(std::mt19937_64& rng, Geometry g, bool tall = false) {
  Board b;
  const int fill = static_cast<int>(rng() % 100);
  for (int c = 0; c < g.width; ++c) {
    const int limit = tall ? 32 : g.height;
    // Low stacks often, so that the surface windows reach below the floor.
    const int top = rng() % 4 == 0 ? static_cast<int>(rng() % 5)
                                   : static_cast<int>(rng() % static_cast<std::uint64_t>(limit + 1));
    for (int r = 0; r < top; ++r)
      if (static_cast<int>(rng() % 100) < fill || r == top - 1) b.cols[c] |= Word{1} << r;
  }
  return b;
}

std::vector<NTupleKernel> supported_kernels() {
  std::vector<NTupleKernel> out;
  for (NTupleKernel k : {NTupleKernel::scalar, NTupleKernel::avx512})
    if (k == NTupleKernel::scalar || kernel_variant(ISA_AVX512).supported()) out.push_back(k);
  return out;
}

// block_values against indices() and value() board by board, for every kernel the CPU has:
// random blocks of every size (strides that are and are not multiples of 16), random skips
// (skipped boards may be tall, so reading their weights would leave the tables), random
// weights; values compared bit for bit, and nothing at or past `count` is touched.
TEST(NTuple, BlockValuesMatchIndicesOnRandomBlocks) {
  std::mt19937_64 rng(11);
  if (!kernel_variant(ISA_AVX512).supported()) GTEST_LOG_(INFO) << "no AVX-512 here: scalar kernel only";
  for (Geometry g : {Geometry{4, 4}, Geometry{6, 8}, Geometry{10, 10}, Geometry{10, 20}, Geometry{16, 28}}) {
    NTupleNetwork net(g);
    for (double& w : net.weights()) w = std::ldexp(static_cast<double>(rng() % 2000001) - 1e6, -20);
    const int m = net.tuple_count();
    for (int trial = 0; trial < 300; ++trial) {
      const int stride = trial % 3 == 0 ? 37 : 64;
      const int count = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(stride));
      const bool skips = trial % 5 != 0;  // else no skip array: every board is rated
      std::vector<Word> cols(static_cast<std::size_t>(kMaxWidth * stride), 0);
      std::vector<Board> boards(static_cast<std::size_t>(count));
      bool skip[64] = {};
      for (int k = 0; k < count; ++k) {
        skip[k] = skips && rng() % 4 == 0;
        boards[k] = random_board(rng, g, skip[k] && rng() % 2 == 0);
        for (int c = 0; c < g.width; ++c) cols[static_cast<std::size_t>(c * stride + k)] = boards[k].cols[c];
      }
      for (NTupleKernel kernel : supported_kernels()) {
        constexpr std::uint32_t kUntouched = 0xDEADBEEF;
        std::vector<double> out(static_cast<std::size_t>(stride) + 1, -7.0);
        std::vector<std::uint32_t> idx(static_cast<std::size_t>(m * stride) + 1, kUntouched);
        net.block_values(kernel, cols.data(), stride, count, skips ? skip : nullptr, net.weights().data(), out.data(),
                         idx.data());
        for (int k = 0; k < count; ++k) {
          if (skip[k]) {
            ASSERT_EQ(out[k], 0.0);
            continue;
          }
          std::uint32_t expected[3 * kMaxWidth];
          net.indices(boards[k], expected);
          for (int t = 0; t < m; ++t)
            ASSERT_EQ(idx[static_cast<std::size_t>(t * stride + k)], expected[t])
                << g.width << "x" << g.height << " trial " << trial << " board " << k << " tuple " << t;
          // Bit for bit: the same weights added in the same order.
          ASSERT_EQ(std::bit_cast<std::uint64_t>(out[k]), std::bit_cast<std::uint64_t>(net.value(boards[k])))
              << g.width << "x" << g.height << " trial " << trial << " board " << k;
        }
        for (std::size_t k = static_cast<std::size_t>(count); k < out.size(); ++k) ASSERT_EQ(out[k], -7.0);
        for (int t = 0; t < m; ++t)
          for (int k = count; k < stride; ++k) ASSERT_EQ(idx[static_cast<std::size_t>(t * stride + k)], kUntouched);
        ASSERT_EQ(idx.back(), kUntouched);
      }
    }
  }
}

// The n-tuple kernel is the level's: AVX-512 with the avx512 level only.
TEST(NTuple, KernelChoice) {
  for (int level = 0; level < ISA_LEVEL_NB; ++level)
    EXPECT_EQ(isa_record(static_cast<IsaLevel>(level)).ntuple,
              level == ISA_AVX512 ? NTupleKernel::avx512 : NTupleKernel::scalar);
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

// The weight lines are written with std::to_chars; the reference is the ostream of precision 17
// that wrote them before (the files stay byte for byte the same).  Weights from random bit
// patterns: every exponent, subnormals, negative values and integers.
TEST(NTupleFile, WeightLinesAreWhatAStreamOfPrecision17Writes) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 20; ++round) {
    auto net = std::make_shared<NTupleNetwork>(Geometry{10, 20});
    for (int i = 0; i < 6000; ++i) {  // about 150 KB of lines: write_ntuple_policy's 64 KB pieces
      double w = 0;
      const std::uint64_t bits = rng();
      switch (rng() % 4) {
        case 0: std::memcpy(&w, &bits, sizeof w); break;  // any finite double
        case 1: w = std::ldexp(static_cast<double>(static_cast<std::int64_t>(bits >> 11)) - 0x1p52, -60); break;
        case 2: w = static_cast<double>(static_cast<std::int32_t>(bits)); break;
        default: w = std::ldexp(1.0 + static_cast<double>(bits >> 12) * 0x1p-52, static_cast<int>(bits % 2200) - 1100);
      }
      if (!std::isfinite(w)) w = -0.5;
      net->weights()[rng() % net->size()] = w;
    }
    Policy p;
    p.name = "net";
    p.network = net;
    const std::string text = format_ntuple_policy(p);
    std::ostringstream lines;
    lines.precision(17);
    for (std::size_t i = 0; i < net->size(); ++i)
      if (net->weights()[i] != 0.0) lines << i << ' ' << net->weights()[i] << '\n';
    const std::size_t at = text.find("\nentries ");
    ASSERT_NE(at, std::string::npos);
    const std::size_t from = text.find('\n', at + 1) + 1;
    EXPECT_EQ(text.substr(from), lines.str() + "end\n") << round;
    EXPECT_GT(text.size(), std::size_t{2} << 16);
  }
}

// The file in pieces: each at most 64 KB and one line more, the lines whole, and together the
// same text as format_ntuple_policy (which is made from them, and checked above).
TEST(NTupleFile, WritesInPiecesOfWholeLines) {
  auto net = std::make_shared<NTupleNetwork>(Geometry{10, 20});
  for (std::size_t i = 0; i < net->size(); i += 7) net->weights()[i] = -1.0 / static_cast<double>(i + 3);  // 1/3 MB
  Policy p;
  p.name = "pieces";
  p.network = net;
  std::vector<std::string> pieces;
  write_ntuple_policy(p, [&](std::string_view piece) { pieces.emplace_back(piece); });
  ASSERT_GE(pieces.size(), 5u);
  std::string joined;
  for (const std::string& piece : pieces) {
    EXPECT_LE(piece.size(), (std::size_t{1} << 16) + 64);
    EXPECT_TRUE(piece.empty() || piece.back() == '\n');
    joined += piece;
  }
  EXPECT_EQ(joined, format_ntuple_policy(p));
  EXPECT_NO_THROW(parse_ntuple_policy(joined, "pieces"));
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

// The evaluator rates a candidate lines + V(board) exactly as the network does, with every
// kernel of the network, on hand-made and random boards (game-ending candidates -infinity).
TEST(NTupleEvaluator, ScoresAreLinesPlusValue) {
  const Geometry g{10, 10};
  const Policy p = random_network(g, 6);
  auto block = std::make_unique<CandidateBlock>();
  std::mt19937_64 rng(12);
  std::vector<Board> boards = {board_from_rows({"#.........", "#...#.#...", "##.##..#..", "#########."})};
  for (int i = 0; i < 40; ++i) boards.push_back(random_board(rng, g));
  for (NTupleKernel kernel : supported_kernels()) {
    const NTupleEvaluator ev(p, kernel);
    for (const Board& b : boards)
      for (Piece piece : {I, T, L, O}) {
        materialize(*block, b, piece, g, Overflow::strict);
        ev.score(*block);
        for (int k = 0; k < block->count; ++k) {
          if (block->terminal[k]) {
            EXPECT_EQ(block->score[k], -std::numeric_limits<double>::infinity());
            continue;
          }
          ASSERT_EQ(block->score[k], block->value(MOVE_LINES, k) + p.network->value(block->board(k)));
        }
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
