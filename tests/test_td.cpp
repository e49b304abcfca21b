// The linear afterstate TD learner (experiments/td_learner.h): td_step on hand-checked
// numbers, td44 / bertsekas features on a hand-built board, determinism, exact resume, and a
// short training run on a small board.
#include <gtest/gtest.h>

#include <cmath>

#include "kernel_variants.h"
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

TEST(TdFeatures, Td44OnHandBoard) {
  for (const KernelVariant& v : kernel_variants()) {
    if (!v.supported()) continue;
    const AfterstateFeatures f("td44", Geometry{10, 20}, v.kernel);
    ASSERT_EQ(f.dimension(), 44);
    const Eigen::VectorXd phi = f.of_board(hand_board());
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
  const AfterstateFeatures f("bertsekas", Geometry{10, 20}, best_kernel().kernel);
  ASSERT_EQ(f.dimension(), 22);
  const Eigen::VectorXd phi = f.of_board(hand_board());
  const double expected[22] = {4,                             // max height
                               4, 2, 1, 2, 3, 1, 3, 2, 1, 0,  // heights
                               2, 1, 1, 1, 2, 2, 1, 1, 1,     // diffs
                               2,                             // holes
                               1};                            // constant
  for (int i = 0; i < 22; ++i) EXPECT_EQ(phi[i], expected[i]) << "value " << i;
}

TEST(TdFeatures, RejectsMoveFeatures) {
  EXPECT_THROW(AfterstateFeatures("bcts", Geometry{10, 20}, features_scalar), std::invalid_argument);
  EXPECT_THROW(AfterstateFeatures("nope", Geometry{10, 20}, features_scalar), std::invalid_argument);
}

TdConfig small_config(double lambda, double epsilon) {
  TdConfig c;
  c.rules.geometry = Geometry{6, 8};
  c.alpha = 0.001;
  c.lambda = lambda;
  c.epsilon = epsilon;
  c.seed = 42;
  c.max_pieces_per_game = 2000;
  return c;
}

TEST(TdLearner, Deterministic) {
  for (double lambda : {0.0, 0.7}) {
    TdLearner a(small_config(lambda, 0.1), best_kernel().kernel);
    TdLearner b(small_config(lambda, 0.1), best_kernel().kernel);
    for (std::uint64_t g = 0; g < 20; ++g) {
      a.play_episode(g);
      b.play_episode(g);
    }
    EXPECT_EQ(a.weights(), b.weights());
    EXPECT_EQ(a.pieces(), b.pieces());
    EXPECT_EQ(a.state(), b.state());
  }
}

TEST(TdLearner, ResumeIsBitIdentical) {
  const TdConfig config = small_config(0.5, 0.1);
  TdLearner straight(config, best_kernel().kernel);
  TdLearner first(config, best_kernel().kernel);
  for (std::uint64_t g = 0; g < 10; ++g) {
    straight.play_episode(g);
    first.play_episode(g);
  }
  // Through text, as a checkpoint file would go.
  const std::string saved = first.state().dump();
  TdLearner resumed(config, best_kernel().kernel);
  resumed.restore(nlohmann::json::parse(saved));
  EXPECT_EQ(resumed.weights(), first.weights());
  for (std::uint64_t g = 10; g < 20; ++g) {
    straight.play_episode(g);
    resumed.play_episode(g);
  }
  EXPECT_EQ(resumed.weights(), straight.weights());
  EXPECT_EQ(resumed.pieces(), straight.pieces());
  EXPECT_EQ(resumed.state(), straight.state());
}

TEST(TdLearner, TrainsOnSmallBoard) {
  for (double epsilon : {0.0, 0.05}) {
    for (std::string set : {"td44", "bertsekas"}) {
      TdConfig config = small_config(0.0, epsilon);
      config.features = set;
      TdLearner learner(config, best_kernel().kernel);
      const Eigen::VectorXd w0 = learner.weights();
      for (std::uint64_t g = 0; g < 300; ++g) learner.play_episode(g);
      EXPECT_EQ(learner.episodes(), 300);
      EXPECT_GT(learner.pieces(), 300);
      EXPECT_GT(learner.lines(), 0) << set << " epsilon " << epsilon;
      EXPECT_GT((learner.weights() - w0).norm(), 0.0) << set << " epsilon " << epsilon;
      EXPECT_TRUE(learner.weights().allFinite()) << set << " epsilon " << epsilon;
    }
  }
}

}  // namespace
}  // namespace tb::td
