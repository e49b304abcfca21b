// The afterstate TD learner (experiments/td/td_learner.h): td_step on hand-checked numbers,
// td44 / bertsekas features on a hand-built board, online TD against a plain reference loop,
// independence of the thread count, exact resume mid-game, and short training runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

#include "isa.h"
#include "kernel_variants.h"
#include "materialize.h"
#include "piece_stream.h"
#include "placement.h"
#include "ntuple_file.h"
#include "step_pacer.h"
#include "td_learner.h"

namespace tb::td {
namespace {

Eigen::VectorXd vec(double a, double b) {
  Eigen::VectorXd v(2);
  v << a, b;
  return v;
}

// All numbers below are exact in binary, so the checks are exact.
// w = (0.5, -0.25), phi_t = (1, 2), phi_next = (2, 1), r = 1, alpha = 0.5, gamma = 0.5:
//   V(t) = 0.5 - 0.5 = 0;  V(next) = 1 - 0.25 = 0.75
//   delta = 1 + 0.5 * 0.75 - 0 = 1.375;  alpha * delta = 0.6875
TEST(TdStep, TdZero) {
  Eigen::VectorXd w = vec(0.5, -0.25), e = vec(7, 7);  // e is overwritten: lambda = 0
  const Eigen::VectorXd phi_t = vec(1, 2), phi_next = vec(2, 1);
  const double delta = td_step(w, e, phi_t, 1.0, &phi_next, 0.5, 0.5, 0.0);
  EXPECT_EQ(delta, 1.375);
  // w += 0.6875 * (1, 2) = (0.6875, 1.375)  ->  (1.1875, 1.125)
  EXPECT_EQ(w, vec(1.1875, 1.125));
  EXPECT_EQ(e, phi_t);
}

// Same step with lambda = 0.5 and incoming trace e = (2, -4):
//   e = 0.5 * 0.5 * (2, -4) + (1, 2) = (0.5, -1) + (1, 2) = (1.5, 1)
//   w = (0.5, -0.25) + 0.6875 * (1.5, 1) = (0.5 + 1.03125, -0.25 + 0.6875) = (1.53125, 0.4375)
TEST(TdStep, TdLambda) {
  Eigen::VectorXd w = vec(0.5, -0.25), e = vec(2, -4);
  const Eigen::VectorXd phi_t = vec(1, 2), phi_next = vec(2, 1);
  EXPECT_EQ(td_step(w, e, phi_t, 1.0, &phi_next, 0.5, 0.5, 0.5), 1.375);
  EXPECT_EQ(e, vec(1.5, 1));
  EXPECT_EQ(w, vec(1.53125, 0.4375));
}

// Terminal next afterstate (V = 0): w = (0.5, -0.25), phi_t = (2, 2), r = 3, alpha = gamma = 0.5
//   V(t) = 1 - 0.5 = 0.5;  delta = 3 + 0 - 0.5 = 2.5;  alpha * delta = 1.25
//   TD(0):       w += 1.25 * (2, 2)  ->  (3, 2.25)
//   lambda 0.5, e = (2, -4):  e = 0.25 * (2, -4) + (2, 2) = (2.5, 1);
//                w += 1.25 * (2.5, 1) = (3.125, 1.25)  ->  (3.625, 1)
TEST(TdStep, Terminal) {
  const Eigen::VectorXd phi_t = vec(2, 2);
  Eigen::VectorXd w = vec(0.5, -0.25), e = vec(0, 0);
  EXPECT_EQ(td_step(w, e, phi_t, 3.0, nullptr, 0.5, 0.5, 0.0), 2.5);
  EXPECT_EQ(w, vec(3, 2.25));
  w = vec(0.5, -0.25);
  e = vec(2, -4);
  EXPECT_EQ(td_step(w, e, phi_t, 3.0, nullptr, 0.5, 0.5, 0.5), 2.5);
  EXPECT_EQ(e, vec(2.5, 1));
  EXPECT_EQ(w, vec(3.625, 1));
}

// Rows 3..0 of a 10x20 board ('#' filled); rows 4..19 are empty.
//   column:  0 1 2 3 4 5 6 7 8 9
//   row 3:   # . . . . . . . . .      1 cell  -> bucket 0
//   row 2:   # . . . # . # . . .      3 cells -> bucket 1
//   row 1:   # # . # # . . # . .      5 cells -> bucket 2
//   row 0:   # # # # . # # # # .      8 cells -> bucket 4
Board hand_board() { return board_from_rows({"#.........", "#...#.#...", "##.##..#..", "####.####."}); }

std::vector<double> features_of(const ValueModel& m, const Board& b) {
  Active a;
  m.of_board(b, a);
  return a.value;
}

TEST(TdFeatures, Td44OnHandBoard) {
  for (const KernelVariant& v : kernel_variants()) {
    if (!v.supported()) continue;
    const LinearModel f("td44", Geometry{10, 20}, v.kernel);
    ASSERT_EQ(f.size(), 44u);
    const std::vector<double> phi = features_of(f, hand_board());
    const double expected[44] = {
        // heights
        4, 2, 1, 2, 3, 1, 3, 2, 1, 0,
        // |h[c] - h[c+1]|
        2, 1, 1, 1, 2, 2, 1, 1, 1,
        // holes per column: (4, row 0) and (6, row 1)
        0, 0, 0, 0, 1, 0, 1, 0, 0, 0,
        // well depth: max(0, min(neighbours) - h); c2: 2-1, c5: 3-1, c9 (edge): 1-0
        0, 0, 1, 0, 0, 2, 0, 0, 0, 1,
        // row-fill buckets over 20 rows: 16 empty + row 3 -> 17; rows 2, 1, none, row 0
        17, 1, 1, 0, 1};
    for (int i = 0; i < 44; ++i) EXPECT_EQ(phi[i], expected[i]) << v.name << " value " << i;
  }
}

TEST(TdFeatures, BertsekasOnHandBoard) {
  const LinearModel f("bertsekas", Geometry{10, 20}, best_kernel().kernel);
  ASSERT_EQ(f.size(), 22u);
  const std::vector<double> phi = features_of(f, hand_board());
  const double expected[22] = {4,                             // max height
                               4, 2, 1, 2, 3, 1, 3, 2, 1, 0,  // heights
                               2, 1, 1, 1, 2, 2, 1, 1, 1,     // diffs
                               2,                             // holes
                               1};                            // constant
  for (int i = 0; i < 22; ++i) EXPECT_EQ(phi[i], expected[i]) << "value " << i;
}

// The n-tuple model's block path (values() that keeps the indices, active_rated() that reads
// them) against the reference, board by board (of_board, Active::dot), for the scalar and the
// best feature kernel (which picks the network's AVX-512 kernel where the CPU has it).
TEST(TdFeatures, NTupleBlockPathMatchesBoards) {
  std::mt19937_64 rng(5);
  for (FeatureKernel kernel : {features_scalar, best_kernel().kernel}) {
    for (Geometry g : {Geometry{6, 8}, Geometry{10, 10}, Geometry{16, 28}}) {
      const NTupleModel model(g, kernel);
      EXPECT_EQ(model.kernel(), isa_record(kernel).ntuple);
      EXPECT_EQ(model.kernel(), best_kernel().level == ISA_AVX512 && kernel != features_scalar ? NTupleKernel::avx512
                                                                                               : NTupleKernel::scalar);
      std::vector<double> w(model.size());
      for (double& x : w) x = std::ldexp(static_cast<double>(rng() % 2000001) - 1e6, -18);
      auto block = std::make_unique<CandidateBlock>();
      RatedBlock rated;
      std::vector<double> v(kBlockCapacity);
      for (int trial = 0; trial < 200; ++trial) {
        Board board;  // a random stack, sometimes near the top (game-ending candidates)
        const int cap = 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(g.height));
        for (int c = 0; c < g.width; ++c)
          for (int r = 0; r < cap; ++r)
            if (rng() % 3 != 0) board.cols[c] |= Word{1} << r;
        for (int c = 0; c < g.width; ++c) board.cols[c] &= ~(Word{1} << (rng() % static_cast<std::uint64_t>(cap)));
        const Overflow overflow = trial % 2 ? Overflow::strict : Overflow::clear_first;
        materialize(*block, board, static_cast<Piece>(rng() % 7), g, overflow);
        model.values(*block, w, v.data(), rated);
        for (int k = 0; k < block->count; ++k) {
          if (block->terminal[k]) continue;
          Active fast, ref;
          model.active_rated(*block, k, rated, fast);
          model.of_board(block->board(k), ref);
          ASSERT_EQ(fast.index, ref.index) << trial << " " << k;
          ASSERT_EQ(fast.value, ref.value);
          ASSERT_EQ(fast.norm2, ref.norm2);
          ASSERT_EQ(std::bit_cast<std::uint64_t>(v[k]), std::bit_cast<std::uint64_t>(ref.dot(w))) << trial << " " << k;
        }
      }
    }
  }
}

TEST(TdFeatures, RejectsMoveFeatures) {
  EXPECT_THROW(LinearModel("bcts", Geometry{10, 20}, features_scalar), InputError);
  EXPECT_THROW(LinearModel("nope", Geometry{10, 20}, features_scalar), InputError);
}

TdConfig small_config(const std::string& model, double lambda, double epsilon) {
  TdConfig c;
  c.model = model;
  c.rules.geometry = Geometry{6, 8};
  c.alpha = model == "ntuple" ? 0.1 : 0.001;
  c.normalized = model == "ntuple";
  c.lambda = lambda;
  c.epsilon = epsilon;
  c.seed = 42;
  c.max_pieces_per_game = 2000;
  return c;
}

// Online TD(0) (1 game x 1 piece per step) equals a plain loop over drop() and td_step().
TEST(TdLearner, OnlineEqualsReferenceLoop) {
  TdConfig config = small_config("td44", 0.0, 0.0);
  config.max_pieces_per_game = 0;
  TdLearner learner(config, best_kernel().kernel);
  const LinearModel model("td44", config.rules.geometry, best_kernel().kernel);
  const Geometry g = config.rules.geometry;
  Eigen::VectorXd w = Eigen::Map<const Eigen::VectorXd>(learner.weights().data(), 28);
  Eigen::VectorXd e = Eigen::VectorXd::Zero(28), prev(28);
  PieceStream stream = PieceStream::make(config.rules.generator, config.seed, 0);
  Board board;
  bool have_prev = false;
  int pieces = 0;
  for (;; ++pieces) {
    Placement pl[kMaxPlacements];
    const int n = static_cast<int>(generate_drops(stream.next(), g.width, pl) - pl);
    int best = 0;
    double best_q = 0;
    Board best_board;
    Move best_move;
    Eigen::VectorXd best_phi(28);
    for (int k = 0; k < n; ++k) {
      Board b = board;
      const Move m = drop(b, pl[k], g, config.rules.overflow);
      Eigen::VectorXd phi(28);
      const std::vector<double> f = features_of(model, b);
      for (int i = 0; i < 28; ++i) phi[i] = f[i];
      const double q = m.lines + (m.game_over ? 0.0 : w.dot(phi));
      if (k == 0 || q > best_q) {
        best = k;
        best_q = q;
        best_board = b;
        best_move = m;
        best_phi = phi;
      }
    }
    (void)best;
    if (have_prev) td_step(w, e, prev, best_move.lines, best_move.game_over ? nullptr : &best_phi,
                           config.alpha, config.gamma, 0.0);
    learner.step(1);
    for (int i = 0; i < 28; ++i) ASSERT_NEAR(learner.weights()[i], w[i], 1e-9 * (1 + std::abs(w[i]))) << pieces;
    if (best_move.game_over) break;
    board = best_board;
    prev = best_phi;
    have_prev = true;
  }
  EXPECT_EQ(learner.episodes(), 1);
  EXPECT_GT(pieces, 5);
}

// The n-tuple learner (1 x 1 step, TD(lambda), normalized step, exploration) against the
// dense update written out with the same truncation rule: bit-identical weights, piece by
// piece, across several games, and the sparse trace of its state: the nonzero entries of the
// dense one, in the order they were made.  With the scalar and the best feature kernel (the
// network's scalar and AVX-512 kernels).
class NTupleLearner : public ::testing::TestWithParam<FeatureKernel> {};
INSTANTIATE_TEST_SUITE_P(Kernels, NTupleLearner, ::testing::Values(features_scalar, best_kernel().kernel),
                         [](const ::testing::TestParamInfo<FeatureKernel>& info) {
                           return std::string(info.index == 0 ? "scalar" : "best");
                         });

TEST_P(NTupleLearner, EqualsDenseReference) {
  TdConfig config = small_config("ntuple", 0.6, 0.3);
  config.gamma = 0.9;
  config.max_pieces_per_game = 0;
  TdLearner learner(config, GetParam());
  const Geometry g = config.rules.geometry;
  const NTupleNetwork net(g);
  const int m = net.tuple_count();
  const std::size_t n = net.size();
  std::vector<double> w(n, 0.0), e(n, 0.0);
  std::vector<std::uint32_t> made;  // the nonzero entries of e, oldest first
  opt::Random explore{CounterRng{stream_key(stream_key(config.seed ^ kExploreStream, 0), 0), 0}};
  auto value = [&](const std::vector<std::uint32_t>& idx) {
    double v = 0.0;
    for (int t = 0; t < m; ++t) v += w[idx[t]] * 1.0;
    return v;
  };
  std::uint64_t game = 0;
  PieceStream stream = PieceStream::make(config.rules.generator, config.seed, game);
  Board board;
  std::vector<std::uint32_t> prev(m);
  bool have_prev = false;
  int games_ended = 0, lines = 0;
  for (int piece = 0; piece < 600; ++piece) {
    Placement pl[kMaxPlacements];
    const int count = static_cast<int>(generate_drops(stream.next(), g.width, pl) - pl);
    std::vector<Board> after(count);
    std::vector<Move> moves(count);
    std::vector<std::vector<std::uint32_t>> idx(count, std::vector<std::uint32_t>(m));
    for (int k = 0; k < count; ++k) {
      after[k] = board;
      moves[k] = drop(after[k], pl[k], g, config.rules.overflow);
      net.indices(after[k], idx[k].data());
    }
    int chosen = 0;
    if (explore.uniform() < config.epsilon) {
      chosen = static_cast<int>(explore.below(static_cast<std::uint32_t>(count)));
    } else {
      double best = 0;
      for (int k = 0; k < count; ++k) {
        const double q = moves[k].lines + (moves[k].game_over ? 0.0 : value(idx[k]));
        if (k == 0 || q > best) {
          best = q;
          chosen = k;
        }
      }
    }
    const Move& mv = moves[chosen];
    if (have_prev) {
      const double v_next = mv.game_over ? 0.0 : value(idx[chosen]);
      const double delta = mv.lines + config.gamma * v_next - value(prev);
      const double coef = config.alpha / static_cast<double>(m) * delta;
      const double decay = config.gamma * config.lambda;
      for (std::size_t i = 0; i < n; ++i) {
        e[i] *= decay;
        if (std::abs(e[i]) < kTraceFloor) e[i] = 0.0;
      }
      std::erase_if(made, [&](std::uint32_t i) { return e[i] == 0.0; });
      for (int t = 0; t < m; ++t) {
        if (e[prev[t]] == 0.0) made.push_back(prev[t]);
        e[prev[t]] += 1.0;
      }
      for (std::size_t i = 0; i < n; ++i)
        if (e[i] != 0.0) w[i] += coef * e[i];
    }
    lines += mv.lines;
    learner.step(1);
    ASSERT_EQ(learner.weights(), w) << "piece " << piece;
    if (mv.game_over) {
      ++games_ended;
      stream = PieceStream::make(config.rules.generator, config.seed, ++game);
      board = Board{};
      std::fill(e.begin(), e.end(), 0.0);
      made.clear();
      have_prev = false;
    } else {
      board = after[chosen];
      prev = idx[chosen];
      have_prev = true;
    }
    if (piece % 40 == 0 || (mv.game_over && games_ended <= 3)) {  // state() is slow: now and then
      nlohmann::json trace = nlohmann::json::array();
      for (const std::uint32_t i : made) trace.push_back({i, e[i]});
      ASSERT_EQ(learner.state()["slots"][0]["sparse_trace"], trace) << "piece " << piece;
    }
  }
  EXPECT_GE(games_ended, 5);
  EXPECT_GT(lines, 0);
  EXPECT_EQ(learner.episodes(), games_ended);
}

// The n-tuple merge runs one range of weights per thread: 1, 2 and 3 threads, and a thread
// count that changes from step to step (the ranges are cut again, from the live traces, between
// steps; with a fixed count every kRebalanceSteps steps), give the same state, traces in the
// same order included (the one-range order is checked against a reference above).
TEST(TdLearner, NTupleMergeRangesDoNotChangeResults) {
  TdConfig config = small_config("ntuple", 0.7, 0.1);
  config.games_per_step = 6;
  config.pieces_per_step = 11;
  TdLearner one(config, best_kernel().kernel), two(config, best_kernel().kernel), three(config, best_kernel().kernel),
      mixed(config, best_kernel().kernel);
  for (int s = 0; s < 600; ++s) {  // past a pacing cycle of step(): one thread or several
    one.step(1);
    two.step(2);
    three.step(3);
    mixed.step(1 + s % 3);
  }
  EXPECT_EQ(one.weights(), two.weights());
  EXPECT_EQ(one.weights(), three.weights());
  EXPECT_EQ(one.weights(), mixed.weights());
  EXPECT_EQ(one.state(), three.state());
  EXPECT_EQ(one.state(), mixed.state());
  EXPECT_GT(one.episodes(), 0);
}

// The merge ranges of parallel steps are cut by shares that follow the threads' measured
// replay speeds (next_range_shares); uneven cuts, fixed for the test and applied at every
// switch of mode and re-cut, give the same learner as one thread.
TEST(TdLearner, NTupleUnevenMergeRangesDoNotChangeResults) {
  TdConfig config = small_config("ntuple", 0.7, 0.1);
  config.games_per_step = 6;
  config.pieces_per_step = 7;
  const std::vector<std::pair<int, std::vector<double>>> cases = {{2, {0.05, 0.95}}, {2, {0.8, 0.2}},
                                                                  {3, {0.7, 0.2, 0.1}}};
  for (const auto& [threads, shares] : cases) {
    TdLearner one(config, best_kernel().kernel), uneven(config, best_kernel().kernel);
    uneven.set_range_shares(shares);
    uneven.set_step_modes([](std::int64_t step) { return step % 7 != 3; });  // re-cut twice every 7 steps
    for (int s = 0; s < 300; ++s) {
      one.step(1);
      uneven.step(threads);
    }
    EXPECT_EQ(one.weights(), uneven.weights()) << threads << " threads, first share " << shares[0];
    EXPECT_EQ(one.state(), uneven.state()) << threads << " threads, first share " << shares[0];
  }
  TdLearner learner(config, best_kernel().kernel);
  EXPECT_THROW(learner.set_range_shares({1.0}), InputError);
  EXPECT_THROW(learner.set_range_shares({0.5, 0.0}), InputError);
}

TEST(TdLearner, NextRangeSharesFollowTheMeasuredSpeeds) {
  // Speeds 2:1 (range 1's thread replays a unit of cost in twice the time): each step halves
  // the distance to shares 2/3 and 1/3.
  std::vector<double> shares = {0.5, 0.5};
  const double speed[2] = {2.0, 1.0};
  for (int k = 0; k < 30; ++k) {
    const std::vector<double> seconds = {shares[0] / speed[0], shares[1] / speed[1]};
    const std::vector<double> next = next_range_shares(shares, seconds);
    ASSERT_EQ(next.size(), 2u);
    EXPECT_NEAR(next[0] - 2.0 / 3, (shares[0] - 2.0 / 3) / 2, 1e-12) << k;
    EXPECT_NEAR(next[0] + next[1], 1.0, 1e-12);
    shares = next;
  }
  EXPECT_NEAR(shares[0], 2.0 / 3, 1e-6);
  // Even speeds keep even shares; a range 100x slower keeps half of an even share at least.
  EXPECT_EQ(next_range_shares({0.5, 0.5}, {1.0, 1.0}), (std::vector<double>{0.5, 0.5}));
  shares = {0.5, 0.5};
  for (int k = 0; k < 30; ++k) shares = next_range_shares(shares, {shares[0], shares[1] * 100});
  EXPECT_GE(shares[1], 0.25 - 1e-12);
  EXPECT_LT(shares[1], 0.26);
  // A range that was not timed (no replay since the cut) leaves the shares as they are.
  EXPECT_EQ(next_range_shares({0.6, 0.4}, {1.0, 0.0}), (std::vector<double>{0.6, 0.4}));
  EXPECT_EQ(next_range_shares({0.6, 0.4}, {1.0, NAN}), (std::vector<double>{0.6, 0.4}));
}

// With end times, the shares move towards those with which every range ends at once.  Equal
// speeds (20 s per unit of share), range 1's replay starting 5 s later (its thread was still
// playing): the ends meet at shares 0.625 and 0.375, and each step halves the distance.
TEST(TdLearner, NextRangeSharesMakeTheRangesEndTogether) {
  const double start[2] = {0.0, 5.0}, per_share = 20.0;
  std::vector<double> shares = {0.5, 0.5};
  for (int k = 0; k < 30; ++k) {
    const std::vector<double> seconds = {shares[0] * per_share, shares[1] * per_share};
    const std::vector<double> next =
        next_range_shares(shares, seconds, {start[0] + seconds[0], start[1] + seconds[1]});
    ASSERT_EQ(next.size(), 2u);
    EXPECT_NEAR(next[0] - 0.625, (shares[0] - 0.625) / 2, 1e-12) << k;
    EXPECT_NEAR(next[0] + next[1], 1.0, 1e-12);
    shares = next;
  }
  EXPECT_NEAR(start[0] + shares[0] * per_share, start[1] + shares[1] * per_share, 1e-6);
  // Starts at the same time: the same shares as from the times alone (the speeds' proportion).
  const std::vector<double> alone = next_range_shares({0.5, 0.5}, {1.0, 2.0});
  const std::vector<double> timed = next_range_shares({0.5, 0.5}, {1.0, 2.0}, {1.0, 2.0});
  EXPECT_NEAR(alone[0], timed[0], 1e-12);
  EXPECT_NEAR(alone[0], 0.5 / 2 + (2.0 / 3) / 2, 1e-12);
  // A range that ends far behind keeps half of an even share; a missing end changes nothing.
  const std::vector<double> late = next_range_shares({0.5, 0.5}, {1.0, 1.0}, {1.0, 100.0});
  EXPECT_NEAR(late[1], 0.25, 1e-12);
  EXPECT_NEAR(late[0], 0.75, 1e-12);
  EXPECT_EQ(next_range_shares({0.6, 0.4}, {1.0, 1.0}, {1.0, 0.0}), (std::vector<double>{0.6, 0.4}));
  EXPECT_EQ(next_range_shares({0.6, 0.4}, {1.0, 1.0}, {1.0}), (std::vector<double>{0.6, 0.4}));
}

// weighted_cuts against the walk it stands for: every entry, sorted by index, taken one by one
// while the weight taken plus half of the entry's stays below the goal.  Random tables (some
// empty, indices repeated), phi weights and goals; the two sum the weights in other orders, so a
// cut may differ only where the goal falls within rounding of the midpoint of an entry the walk
// decided at (such cuts are skipped: either side is right).
TEST(TdLearner, WeightedCutsMatchTheSortedWalk) {
  std::mt19937_64 draw(12);
  int compared = 0, inside = 0;
  for (int round = 0; round < 2000; ++round) {
    const int count = 1 + static_cast<int>(draw() % 16);
    const std::uint32_t span = 1 + static_cast<std::uint32_t>(draw() % 60);
    std::vector<std::vector<std::uint32_t>> tables(static_cast<std::size_t>(count));
    for (int t = 0; t < count; ++t) {
      const std::size_t n = draw() % 4 == 0 ? 0 : draw() % 40;
      for (std::size_t i = 0; i < n; ++i)
        tables[static_cast<std::size_t>(t)].push_back(static_cast<std::uint32_t>(t * span + draw() % span));
    }
    const double phi_weight = static_cast<double>(draw() % 50);
    std::vector<double> goals;
    double goal = 0;
    const int cuts = 1 + static_cast<int>(draw() % 3);
    for (int r = 0; r < cuts; ++r) goals.push_back(goal += static_cast<double>(1 + draw() % 100) / (100.0 * cuts));
    const std::uint32_t size = static_cast<std::uint32_t>(count) * span;
    // The walk.
    std::vector<std::pair<std::uint32_t, double>> entries;  // index, weight
    double total = 0;
    for (const auto& table : tables)
      for (const std::uint32_t index : table) {
        entries.emplace_back(index, 1.0 + phi_weight / static_cast<double>(table.size()));
        total += entries.back().second;
      }
    std::sort(entries.begin(), entries.end());
    std::vector<std::uint32_t> expected;
    // How far each goal is from the midpoints of the entries the walk decided at: the first one
    // not taken and the last one taken.
    std::vector<double> midpoint_gap;
    double upto = 0, last_midpoint = -1.0;
    std::size_t i = 0;
    for (const double g : goals) {
      while (i < entries.size() && upto + entries[i].second / 2 < total * g) {
        last_midpoint = upto + entries[i].second / 2;
        upto += entries[i++].second;
      }
      expected.push_back(i < entries.size() ? entries[i].first : size);
      double gap = std::abs(last_midpoint - total * g);
      if (i < entries.size()) gap = std::min(gap, std::abs(upto + entries[i].second / 2 - total * g));
      midpoint_gap.push_back(gap);
    }
    const std::vector<std::uint32_t> got = weighted_cuts(tables, phi_weight, goals, size);
    ASSERT_EQ(got.size(), goals.size());
    for (std::size_t r = 0; r < goals.size(); ++r) {
      if (midpoint_gap[r] < 1e-9 * total) continue;  // a tie within rounding: either side is right
      EXPECT_EQ(got[r], expected[r]) << "round " << round << " cut " << r;
      ++compared;
      inside += expected[r] != size && expected[r] != entries.front().first;
    }
  }
  EXPECT_GT(compared, 3000);
  EXPECT_GT(inside, 1000);  // most cuts fall between entries, not at either end
}

// The pacer may switch between several threads and one at any step, and each switch cuts the
// live traces into a new number of merge ranges (one per task).  Modes drawn at random per
// step, and runs of each, give the same learner as one thread.
TEST(TdLearner, NTupleStepModesSwitchedAtRandomDoNotChangeResults) {
  TdConfig config = small_config("ntuple", 0.7, 0.1);
  config.games_per_step = 5;
  config.pieces_per_step = 9;
  for (const int threads : {2, 3}) {
    TdLearner one(config, best_kernel().kernel), switched(config, best_kernel().kernel);
    std::mt19937_64 draw(static_cast<std::uint64_t>(threads));
    std::int64_t switches = 0;
    bool last = false;
    switched.set_step_modes([&](std::int64_t step) {
      // runs of about 8 steps in one mode (a switch 1 time in 8), and single-step runs
      const bool parallel = step % 37 < 3 ? step % 2 == 0 : (draw() >> 61) != 0 ? last : !last;
      switches += parallel != last;
      last = parallel;
      return parallel;
    });
    for (int s = 0; s < 400; ++s) {
      one.step(1);
      switched.step(threads);
    }
    EXPECT_GT(switches, 40) << threads;
    EXPECT_EQ(one.weights(), switched.weights()) << threads;
    EXPECT_EQ(one.state(), switched.state()) << threads;
    EXPECT_GT(one.episodes(), 0);
  }
}

// Parallel n-tuple steps decide with per-thread replicas of the weights and claim work by step
// number (TdLearner::play_and_merge); a restore replaces the weights and may set the step count
// back or to the count the learner is at.  A learner that ran parallel steps, then
// restores another run's state, must continue exactly as a fresh one-thread learner restored
// from the same state: a replica still marked current, or a claim of an old step, would not.
TEST(TdLearner, NTupleParallelStepsAfterARestoreMatchOneThread) {
  TdConfig config = small_config("ntuple", 0.7, 0.1);
  config.games_per_step = 4;
  config.pieces_per_step = 60;  // long enough steps that both threads play
  TdConfig other = config;
  other.alpha = 0.05;  // another run: other weights at the same step count
  TdLearner runner(config, best_kernel().kernel), source(other, best_kernel().kernel);
  runner.set_step_modes([](std::int64_t) { return true; });
  for (int s = 0; s < 20; ++s) runner.step(2);
  std::vector<nlohmann::json> states;
  for (int s = 1; s <= 40; ++s) {
    source.step(1);
    if (s == 19 || s == 40) states.push_back(source.state());
  }
  // Step 19 (so that the next step's number is the last one the runner ran), run to step 40;
  // then step 40, the runner's own step count, run to step 60.
  for (const nlohmann::json& state : states) {
    TdLearner one(config, best_kernel().kernel);
    one.restore(state);
    runner.restore(state);
    ASSERT_EQ(runner.weights(), one.weights());
    const std::int64_t from = state.at("steps").get<std::int64_t>();
    for (std::int64_t s = from; s < (from < 40 ? 40 : 60); ++s) {
      one.step(1);
      runner.step(2);
    }
    EXPECT_EQ(runner.weights(), one.weights()) << from;
    EXPECT_EQ(runner.state(), one.state()) << from;
  }
}

// The pacer of TdLearner::step on synthetic step times: it keeps the faster mode, spends few
// steps probing the other, follows a machine whose faster mode changes, and a step slowed now
// and then (the host's noise) moves no decision.
struct PacedRun {
  std::int64_t parallel_steps = 0, serial_steps = 0;
};
template <typename Time>  // Time(step, parallel) -> seconds
PacedRun run_pacer(StepPacer& pacer, std::int64_t first, std::int64_t steps, Time time) {
  PacedRun r;
  for (std::int64_t s = first; s < first + steps; ++s) {
    const bool parallel = pacer.next_parallel();
    (parallel ? r.parallel_steps : r.serial_steps) += 1;
    pacer.took(time(s, parallel));
  }
  return r;
}

TEST(StepPacer, KeepsParallelWhereItIsFasterAndProbesLittle) {
  StepPacer pacer;
  const PacedRun r = run_pacer(pacer, 0, 40000, [](std::int64_t, bool p) { return p ? 80e-6 : 128e-6; });
  EXPECT_TRUE(pacer.parallel());
  EXPECT_EQ(pacer.cycle(), StepPacer::kCycleMax);
  // Cycles of 86, 512, 1024, 2048, 4096 and then 8192 steps end at steps 86, 598, 1622, 3670,
  // 7766, 15958, 24150 and 32342 of the 40,000: 8 probes of 19 steps, 0.4% of the steps.
  EXPECT_EQ(r.serial_steps, 8 * StepPacer::kProbeSteps);
}

TEST(StepPacer, SwitchesToOneThreadAtTheFirstProbeWhereThatIsFaster) {
  StepPacer pacer;
  const auto time = [](std::int64_t, bool p) { return p ? 150e-6 : 130e-6; };
  const PacedRun first = run_pacer(pacer, 0, StepPacer::kFirstCycle, time);
  EXPECT_FALSE(pacer.parallel());
  EXPECT_EQ(first.serial_steps, StepPacer::kProbeSteps);
  const PacedRun rest = run_pacer(pacer, StepPacer::kFirstCycle, 20000, time);
  EXPECT_FALSE(pacer.parallel());
  EXPECT_LT(rest.parallel_steps, 20000 / 100);  // probes only
  EXPECT_GT(rest.parallel_steps, 0);
}

TEST(StepPacer, FollowsAMachineWhoseFasterModeChanges) {
  StepPacer pacer;
  const auto fast_then_slow = [](std::int64_t s, bool p) { return p == (s < 30000) ? 80e-6 : 130e-6; };
  run_pacer(pacer, 0, 30000, fast_then_slow);
  EXPECT_TRUE(pacer.parallel());
  // After the change, the mode follows within one longest cycle and its probe.
  run_pacer(pacer, 30000, StepPacer::kCycleMax + StepPacer::kProbeSteps, fast_then_slow);
  EXPECT_FALSE(pacer.parallel());
  const PacedRun after = run_pacer(pacer, 30000 + StepPacer::kCycleMax + StepPacer::kProbeSteps, 20000, fast_then_slow);
  EXPECT_FALSE(pacer.parallel());
  EXPECT_LT(after.parallel_steps, 20000 / 100);
}

TEST(StepPacer, AnOccasionalSlowStepMovesNoDecision) {
  StepPacer pacer;
  // Parallel is the faster by far; every 97th step, in either mode, takes 1 ms (a preempted
  // vCPU).  A slow step among the mode in use's 64 raises their mean to at most 94 us.
  const auto noisy = [](std::int64_t s, bool p) { return s % 97 == 0 ? 1e-3 : p ? 80e-6 : 130e-6; };
  const PacedRun r = run_pacer(pacer, 0, 40000, noisy);
  EXPECT_TRUE(pacer.parallel());
  EXPECT_EQ(pacer.cycle(), StepPacer::kCycleMax);
  EXPECT_EQ(r.serial_steps, 8 * StepPacer::kProbeSteps);
}

TEST(StepPacer, TheStepsThatPayForAChangeOfModeAreNotCounted) {
  // One thread is the faster (100 us against 130 us), but the first steps of a run and of each
  // mode cost 1 ms (threads starting, data moving to another cache).  Counted, they would make
  // every probe of one thread look slower than the parallel steps.
  for (const std::int64_t slow_steps : {std::int64_t{1}, std::int64_t{StepPacer::kWarm}}) {
    StepPacer pacer;
    bool last = true;
    std::int64_t run = 0;
    const auto time = [&](std::int64_t, bool p) {
      run = p == last ? run + 1 : 1;
      last = p;
      return run <= slow_steps ? 1e-3 : p ? 130e-6 : 100e-6;
    };
    run_pacer(pacer, 0, StepPacer::kFirstCycle, time);
    EXPECT_FALSE(pacer.parallel()) << slow_steps;
    const PacedRun rest = run_pacer(pacer, StepPacer::kFirstCycle, 20000, time);
    EXPECT_FALSE(pacer.parallel()) << slow_steps;
    EXPECT_LT(rest.parallel_steps, 20000 / 100) << slow_steps;
  }
  // Several threads are the faster; the run's first steps, which start them, cost 3 ms each.
  StepPacer pacer;
  const auto starting = [](std::int64_t s, bool p) { return s < StepPacer::kWarm ? 3e-3 : p ? 80e-6 : 100e-6; };
  run_pacer(pacer, 0, StepPacer::kFirstCycle, starting);
  EXPECT_TRUE(pacer.parallel());
  EXPECT_EQ(run_pacer(pacer, StepPacer::kFirstCycle, 40000, starting).serial_steps, 7 * StepPacer::kProbeSteps);
}

TEST(TdLearner, SameResultForAnyThreadCount) {
  for (const std::string model : {"td44", "ntuple"}) {
    TdConfig config = small_config(model, 0.7, 0.1);
    config.games_per_step = 5;
    config.pieces_per_step = 13;
    TdLearner one(config, best_kernel().kernel), two(config, best_kernel().kernel);
    std::vector<Episode> e1, e2;
    for (int s = 0; s < 60; ++s) {
      for (const Episode& e : one.step(1)) e1.push_back(e);
      for (const Episode& e : two.step(2)) e2.push_back(e);
    }
    EXPECT_EQ(one.weights(), two.weights()) << model;
    EXPECT_EQ(one.state(), two.state()) << model;
    ASSERT_EQ(e1.size(), e2.size()) << model;
    for (std::size_t i = 0; i < e1.size(); ++i) EXPECT_EQ(e1[i].lines, e2[i].lines);
    EXPECT_EQ(one.pieces(), 60 * 5 * 13);
  }
}

TEST(TdLearner, ResumeMidGameIsBitIdentical) {
  for (const std::string model : {"bertsekas", "ntuple"}) {
    TdConfig config = small_config(model, 0.5, 0.1);
    config.games_per_step = 3;
    config.pieces_per_step = 7;
    TdLearner straight(config, best_kernel().kernel), first(config, best_kernel().kernel);
    for (int s = 0; s < 25; ++s) {
      straight.step(1);
      first.step(2);
    }
    // The save point is mid-game with live traces, so resume must restore them.
    const nlohmann::json at_save = first.state();
    bool mid_game_with_trace = false;
    for (const auto& slot : at_save["slots"]) {
      bool trace = !slot["sparse_trace"].empty();
      for (const auto& e : slot["dense_trace"]) trace = trace || e.get<double>() != 0.0;
      mid_game_with_trace = mid_game_with_trace || (slot["placed"].get<std::int64_t>() > 1 && trace);
    }
    EXPECT_TRUE(mid_game_with_trace) << model;
    // Through text, as a checkpoint file would go.
    const std::string saved = at_save.dump();
    TdLearner resumed(config, best_kernel().kernel);
    resumed.restore(nlohmann::json::parse(saved));
    EXPECT_EQ(resumed.weights(), first.weights());
    for (int s = 0; s < 25; ++s) {
      straight.step(1);
      resumed.step(1);
    }
    EXPECT_EQ(resumed.weights(), straight.weights()) << model;
    EXPECT_EQ(resumed.state(), straight.state()) << model;
  }
}

TEST(TdLearner, RestoreRejectsAnotherModel) {
  TdLearner a(small_config("td44", 0, 0), best_kernel().kernel);
  TdLearner b(small_config("ntuple", 0, 0), best_kernel().kernel);
  EXPECT_THROW(b.restore(a.state()), tb::InputError);
  TdConfig wider = small_config("td44", 0, 0);
  wider.games_per_step = 2;
  TdLearner c(wider, best_kernel().kernel);
  EXPECT_THROW(c.restore(a.state()), tb::InputError);
}

TEST(TdLearner, RejectsBadConfig) {
  const auto k = best_kernel().kernel;
  TdConfig c = small_config("td44", 0, 0);
  c.alpha = 0;
  EXPECT_THROW(TdLearner(c, k), InputError);
  c = small_config("td44", 0, 0);
  c.lambda = 1.5;
  EXPECT_THROW(TdLearner(c, k), InputError);
  c = small_config("td44", 0, 0);
  c.rules.lookahead = 1;
  EXPECT_THROW(TdLearner(c, k), InputError);
  c = small_config("td44", 0, 0);
  c.games_per_step = 0;
  EXPECT_THROW(TdLearner(c, k), InputError);
}

TEST(TdLearner, TrainsOnSmallBoard) {
  for (double epsilon : {0.0, 0.05}) {
    for (std::string model : {"td44", "bertsekas", "ntuple"}) {
      TdConfig config = small_config(model, 0.0, epsilon);
      config.games_per_step = 4;
      config.pieces_per_step = 10;
      TdLearner learner(config, best_kernel().kernel);
      const std::vector<double> w0 = learner.weights();
      for (int s = 0; s < 500; ++s) learner.step(2);
      EXPECT_GT(learner.episodes(), 4) << model;
      EXPECT_GT(learner.lines(), 0) << model << " epsilon " << epsilon;
      EXPECT_NE(learner.weights(), w0) << model << " epsilon " << epsilon;
      for (double w : learner.weights()) ASSERT_TRUE(std::isfinite(w)) << model;
    }
  }
}

// The learned values play under `tetrisbench play` with the learner's own rating.
TEST(TdLearner, PolicyRoundTripsThroughItsFile) {
  for (const std::string model : {"td44", "ntuple"}) {
    TdConfig config = small_config(model, 0.0, 0.0);
    config.games_per_step = 2;
    config.pieces_per_step = 50;
    TdLearner learner(config, best_kernel().kernel);
    for (int s = 0; s < 50; ++s) learner.step(1);
    const Policy p = learner.policy("learned");
    EXPECT_TRUE(p.reward_lines);
    const Policy q = model == "ntuple" ? parse_ntuple_policy(format_policy(p), "mem")
                                       : parse_policy(format_policy(p), "mem");
    EXPECT_TRUE(q.reward_lines);
    if (model == "ntuple") {
      ASSERT_TRUE(q.network);
      EXPECT_EQ(q.network->weights(), learner.weights());
    } else {
      EXPECT_EQ(q.weights, learner.weights());
    }
  }
}

}  // namespace
}  // namespace tb::td
