// CBMPI's paper options (docs/cbmpi.md "Against the papers"): the height-balanced rollout set
// (cbmpi_rollout_set.h) by hand and on random heights, the five height RBFs of the value
// function (cbmpi_value.h) against their formula, and a learner with both: the same weights on
// one and two threads, exact resume, its piece bound, and its option errors.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

#include "cbmpi.h"
#include "cbmpi_rollout_set.h"
#include "cbmpi_value.h"
#include "kernel_variants.h"
#include "research_rules.h"

namespace tb::cbmpi {
namespace {

using Json = nlohmann::json;

// Heights 0 x4, 1 x2, 5 x6 and n = 7: a quota of 2 fits (6 items), 3 does not (8); the one item
// left goes to the lowest height with more, 0.  Height 0 keeps items 0, 1, 2 (j * 4 / 3), height
// 1 both, height 5 items 6 and 9 (j * 6 / 2 over 6 .. 11).
TEST(CbmpiBalanceHeights, HandComputed) {
  const std::vector<int> heights{0, 0, 0, 0, 1, 1, 5, 5, 5, 5, 5, 5};
  EXPECT_EQ(balance_heights(heights, 7), (std::vector<std::int64_t>{0, 1, 2, 4, 5, 6, 9}));
  EXPECT_EQ(balance_heights(heights, 12).size(), 12u);
  EXPECT_EQ(balance_heights(heights, 40).size(), 12u);
  EXPECT_EQ(balance_heights(heights, 3), (std::vector<std::int64_t>{0, 4, 6}));
}

// On random heights: n items (or all), ascending, and balanced: a height that kept fewer items
// than another kept all of its own, and no two heights that could give more differ by over one.
TEST(CbmpiBalanceHeights, RandomHeightsAreBalanced) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int size = static_cast<int>(rng() % 400) + 1;
    const int top = static_cast<int>(rng() % 20);
    std::vector<int> heights(static_cast<std::size_t>(size));
    // Skewed towards low heights, as a good policy's boards are.
    for (int& h : heights) h = static_cast<int>((rng() % (top + 1)) * (rng() % (top + 1)) / (top + 1));
    const std::int64_t n = static_cast<std::int64_t>(rng() % (size + 10)) + 1;
    const auto kept = balance_heights(heights, n);
    ASSERT_EQ(static_cast<std::int64_t>(kept.size()), std::min<std::int64_t>(n, size));
    std::map<int, std::int64_t> count, take;
    for (int h : heights) ++count[h];
    for (std::size_t i = 0; i < kept.size(); ++i) {
      if (i > 0) {
        ASSERT_LT(kept[i - 1], kept[i]);
      }
      ++take[heights[static_cast<std::size_t>(kept[i])]];
    }
    for (const auto& [a, kept_a] : take) {
      for (const auto& [b, count_b] : count) {
        const std::int64_t kept_b = take.count(b) ? take[b] : 0;
        if (kept_b < kept_a - 1) {
          EXPECT_EQ(kept_b, count_b) << "height " << b << " could have given more than height " << a;
        }
      }
    }
    // A height left out entirely means fewer items were asked for than there are heights.
    for (const auto& [h, c] : count) {
      if (!take.count(h)) {
        EXPECT_LT(static_cast<std::int64_t>(kept.size()), static_cast<std::int64_t>(count.size()));
      }
    }
  }
}

TEST(CbmpiValue, HeightRbfsFollowTheirFormula) {
  const Geometry g{10, 20};
  Board empty;
  const auto at0 = height_rbfs(empty, g);
  EXPECT_DOUBLE_EQ(at0[0], 1.0);
  EXPECT_DOUBLE_EQ(at0[1], std::exp(-25.0 / 32.0));  // (0 - 5)^2 / (2 x 4^2)
  EXPECT_DOUBLE_EQ(at0[4], std::exp(-400.0 / 32.0));
  // Nine columns 10 high and one empty: mean height 9.
  std::vector<std::string_view> rows(10, "#########.");
  const Board b = board_from_rows(rows);
  const double mean = 9.0;  // nine columns of 10, one of 0
  const auto r = height_rbfs(b, g);
  for (int i = 0; i < kHeightRbfs; ++i)
    EXPECT_DOUBLE_EQ(r[static_cast<std::size_t>(i)], std::exp(-std::pow(mean - i * 5.0, 2) / 32.0)) << i;
}

TEST(CbmpiValue, RbfsFollowTheSetsFeatures) {
  const FeatureKernel kernel = best_kernel().kernel;
  const Rules rules = research_rules(10, 20);
  const ValueFeatures plain(make_cbmpi_config(Json::object(), rules, 1), kernel);
  const ValueFeatures rbf(make_cbmpi_config({{"value_rbf", true}}, rules, 1), kernel);
  ASSERT_EQ(rbf.size(), plain.size() + kHeightRbfs);
  const Board b = board_from_rows({"...#......", "..###...#.", "######.###"});
  td::Active p, r;
  plain.of_board(b, p);
  rbf.of_board(b, r);
  ASSERT_EQ(r.value.size(), rbf.size());
  for (std::size_t i = 0; i < p.value.size(); ++i) EXPECT_EQ(r.value[i], p.value[i]);
  const auto want = height_rbfs(b, rules.geometry);
  double norm2 = p.norm2;
  for (int i = 0; i < kHeightRbfs; ++i) {
    EXPECT_EQ(r.index[p.value.size() + static_cast<std::size_t>(i)], p.value.size() + static_cast<std::size_t>(i));
    EXPECT_EQ(r.value[p.value.size() + static_cast<std::size_t>(i)], want[static_cast<std::size_t>(i)]);
    norm2 += want[static_cast<std::size_t>(i)] * want[static_cast<std::size_t>(i)];
  }
  EXPECT_DOUBLE_EQ(r.norm2, norm2);
}

CbmpiConfig with_both(std::uint64_t seed = 5) {
  return make_cbmpi_config({{"states", 24}, {"rollout_length", 4}, {"cmaes_generations", 6}, {"sample_every", 2},
                            {"height_pool", 3}, {"value_rbf", true}},
                           research_rules(6, 8), seed);
}

TEST(CbmpiOptions, PoolAndRbfsLearnTheSameOnAnyThreadCountAndResume) {
  const FeatureKernel kernel = best_kernel().kernel;
  Cbmpi one(with_both(), kernel), two(with_both(), kernel), first(with_both(), kernel);
  // 24 x 3 x 2 sampled pieces + 24 states x 18 placements (6 columns) x 1 x 5.
  EXPECT_EQ(one.iteration_bound(), 24 * 3 * 2 + 24 * 18 * 5);
  for (int k = 0; k < 3; ++k) {
    const Iteration a = one.iterate(1), b = two.iterate(2);
    EXPECT_EQ(a.states, 24);
    EXPECT_EQ(a.pieces, b.pieces);
    EXPECT_LE(a.pieces, one.iteration_bound());
  }
  EXPECT_EQ(one.policy_weights(), two.policy_weights());
  EXPECT_EQ(one.value_weights(), two.value_weights());
  EXPECT_EQ(one.value_weights().size(), ValueFeatures(with_both(), kernel).size());
  EXPECT_NE(one.value_weights(), std::vector<double>(one.value_weights().size(), 0.0));
  for (int k = 0; k < 2; ++k) first.iterate(2);
  Cbmpi resumed(with_both(), kernel);
  resumed.restore(Json::parse(first.to_json().dump()));
  resumed.iterate(1);
  EXPECT_EQ(resumed.policy_weights(), one.policy_weights());
  EXPECT_EQ(resumed.value_weights(), one.value_weights());
  EXPECT_EQ(resumed.pieces(), one.pieces());
  // A checkpoint of the learner without the options is another configuration.
  Cbmpi plain(make_cbmpi_config({{"states", 24}, {"rollout_length", 4}, {"cmaes_generations", 6},
                                 {"sample_every", 2}},
                                research_rules(6, 8), 5),
              kernel);
  EXPECT_THROW(plain.restore(first.to_json()), InputError);
}

TEST(CbmpiOptions, Errors) {
  const auto refused = [](const Json& options, const std::string& needle) {
    try {
      make_cbmpi_config(options, research_rules(10, 20), 1);
      ADD_FAILURE() << "accepted " << options.dump();
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused({{"height_pool", 0}}, "cbmpi option 'height_pool' must be an integer in [1, ");
  refused({{"height_pool", 1.5}}, "cbmpi option 'height_pool' must be an integer");
  refused({{"value_rbf", "yes"}}, "cbmpi option 'value_rbf' must be true or false");
  refused({{"value_rbf", 1}}, "cbmpi option 'value_rbf' must be true or false");
  refused({{"states", 100'000}, {"height_pool", 101}}, "states x height_pool must be at most 10000000");
  const CbmpiConfig d = make_cbmpi_config(Json::object(), research_rules(10, 20), 1);
  EXPECT_EQ(d.height_pool, 1);
  EXPECT_FALSE(d.value_rbf);
}

}  // namespace
}  // namespace tb::cbmpi
