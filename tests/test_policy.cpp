// Policies: the built-in reference weights (docs/features.md "Feature sets and sources",
// "Reference policies"), the weight file format (engine/policy/policy.h) and its errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "feature_set.h"
#include "policy.h"

namespace tb {
namespace {

// The message of the PolicyError thrown by f; fails the test if none is thrown.
template <class F>
std::string policy_error(F&& f) {
  try {
    f();
  } catch (const PolicyError& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw something other than PolicyError: " << e.what();
    return {};
  }
  ADD_FAILURE() << "no PolicyError thrown";
  return {};
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// ---------------------------------------------------------------------------------------
// Built-ins

struct Builtin {
  const char* name;
  const char* feature_set;
  std::vector<double> weights;  // as published (BCTS: the precise record_du.dat vector)
};

const std::vector<Builtin>& builtins() {
  static const std::vector<Builtin> b = {
      {"dellacherie", "dellacherie", {-1, 1, -1, -1, -4, -1}},
      {"bcts", "bcts",
       {-12.629, 6.601974, -9.215815, -19.77356, -13.08335, -10.48747, -1.611863, -24.04087}},
      {"dt20", "dt", {-2.68, 1.38, -2.41, -6.32, 2.03, -2.71, -0.43, -9.48, 0.89}},
      {"eltetris", "eltetris",
       {-4.500158825082766, 3.4181268101392694, -3.2178882868487753, -9.348695305445199,
        -7.899265427351652, -3.3855972247263626}},
      {"lee", "lee", {-0.510066, 0.760666, -0.35663, -0.184483}},
      {"article3", "lee", {-8, 120, -35, -2}},
  };
  return b;
}

TEST(Builtin, NamesAreTheSixReferencePolicies) {
  auto names = builtin_policy_names();
  std::vector<std::string> got(names.begin(), names.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"article3", "bcts", "dellacherie", "dt20", "eltetris", "lee"}));
}

TEST(Builtin, EachLoadsWithItsFeatureSetDimensionAndWeights) {
  const std::vector<int> dims = {6, 8, 9, 6, 4, 4};
  for (std::size_t i = 0; i < builtins().size(); ++i) {
    const Builtin& want = builtins()[i];
    SCOPED_TRACE(want.name);
    Policy p;
    ASSERT_NO_THROW(p = load_policy(want.name));
    ASSERT_NE(p.features, nullptr);
    EXPECT_EQ(p.features->name, want.feature_set);
    EXPECT_EQ(p.features, find_feature_set(want.feature_set));
    EXPECT_EQ(p.features->dimension(10), dims[i]);
    EXPECT_EQ(static_cast<int>(p.weights.size()), p.features->dimension(10));
    EXPECT_NO_THROW(check_dimension(p, Geometry{10, 10}));
    EXPECT_EQ(p.weights, want.weights);
    EXPECT_EQ(p.name, want.name);
    EXPECT_EQ(p.rules, "research");
    EXPECT_FALSE(p.source.empty());
  }
}

TEST(Builtin, FeatureSetsFollowTheRulesTable) {
  using F = Feature;
  auto features_of = [](std::string_view name) {
    const FeatureSet* s = find_feature_set(name);
    EXPECT_NE(s, nullptr) << name;
    return s ? std::vector<F>(s->features.begin(), s->features.end()) : std::vector<F>{};
  };
  EXPECT_EQ(features_of("dellacherie"),
            (std::vector<F>{F::landing_height, F::eroded_cells, F::row_transitions,
                            F::col_transitions, F::holes, F::wells}));
  EXPECT_EQ(features_of("bcts"),
            (std::vector<F>{F::landing_height, F::eroded_cells, F::row_transitions,
                            F::col_transitions, F::holes, F::wells, F::hole_depth,
                            F::rows_with_holes}));
  EXPECT_EQ(features_of("dt"),
            (std::vector<F>{F::landing_height, F::eroded_cells, F::row_transitions,
                            F::col_transitions, F::holes, F::wells_fast, F::hole_depth,
                            F::rows_with_holes, F::diversity}));
  EXPECT_EQ(features_of("eltetris"),
            (std::vector<F>{F::landing_height, F::lines, F::row_transitions, F::col_transitions,
                            F::holes, F::wells}));
  EXPECT_EQ(features_of("lee"), (std::vector<F>{F::agg_height, F::lines, F::holes, F::bumpiness}));
  EXPECT_EQ(features_of("pso7"),
            (std::vector<F>{F::landing_height, F::lines, F::row_transitions, F::col_transitions,
                            F::holes, F::wells, F::max_height}));
}

// ---------------------------------------------------------------------------------------
// Round trip

std::uint64_t bits(double d) { return std::bit_cast<std::uint64_t>(d); }

void expect_same_policy(const Policy& a, const Policy& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.features, b.features);
  EXPECT_EQ(a.rules, b.rules);
  EXPECT_EQ(a.source, b.source);
  ASSERT_EQ(a.weights.size(), b.weights.size());
  for (std::size_t i = 0; i < a.weights.size(); ++i)
    EXPECT_EQ(bits(a.weights[i]), bits(b.weights[i])) << "weight " << i << ": " << a.weights[i];
}

TEST(RoundTrip, BuiltinsAreExact) {
  for (auto name : builtin_policy_names()) {
    SCOPED_TRACE(std::string(name));
    const Policy p = load_policy(name);
    const std::string text = format_policy(p);
    const Policy q = parse_policy(text, "roundtrip");
    expect_same_policy(p, q);
    EXPECT_EQ(format_policy(q), text);
  }
}

TEST(RoundTrip, AwkwardDoublesAreExact) {
  Policy p;
  p.name = "awkward";
  p.features = find_feature_set("dt");
  p.rules = "research+bag7";
  p.source = "hand-made, with spaces";
  p.weights = {0.1,
               1.0 / 3.0,
               -2.718281828459045,
               std::numeric_limits<double>::denorm_min(),
               std::numeric_limits<double>::max(),
               -std::numeric_limits<double>::min(),
               -0.0,
               123456789012345680.0,
               std::nextafter(1.0, 2.0)};
  ASSERT_EQ(static_cast<int>(p.weights.size()), p.features->dimension(10));
  const Policy q = parse_policy(format_policy(p), "awkward.policy");
  expect_same_policy(p, q);
  EXPECT_TRUE(std::signbit(q.weights[6]));
}

TEST(RoundTrip, VectorFeatureSetAtWidth10) {
  Policy p;
  p.name = "td";
  p.features = find_feature_set("td44");
  ASSERT_NE(p.features, nullptr);
  for (int i = 0; i < 44; ++i) p.weights.push_back(std::ldexp(i - 20.5, -i));
  const Policy q = parse_policy(format_policy(p), "td.policy");
  expect_same_policy(p, q);
  EXPECT_NO_THROW(check_dimension(q, Geometry{10, 10}));
}

TEST(Parse, AcceptsCommentsBlankLinesAndCrlf) {
  const Policy p = parse_policy(
      "# a comment\r\n"
      "\r\n"
      "tetrisbench-policy 1\r\n"
      "name  x   # trailing comment\r\n"
      "features lee\r\n"
      "weights  1 -2\t3.5 4e-3 \r\n"
      "end\r\n",
      "crlf");
  EXPECT_EQ(p.name, "x");
  EXPECT_EQ(p.features, find_feature_set("lee"));
  EXPECT_EQ(p.weights, (std::vector<double>{1, -2, 3.5, 4e-3}));
  EXPECT_EQ(p.rules, "research");  // the default
}

// ---------------------------------------------------------------------------------------
// Parse errors

constexpr std::string_view kGood =
    "tetrisbench-policy 1\nname g\nfeatures lee\nrules research\nweights 1 2 3 4\nend\n";

TEST(ParseError, GoodTextParses) {
  const Policy p = parse_policy(kGood, "good");
  EXPECT_EQ(p.weights, (std::vector<double>{1, 2, 3, 4}));
}

TEST(ParseError, EmptyText) {
  for (std::string_view text : {"", "\n\n", "   \n# only a comment\n"}) {
    const std::string msg = policy_error([&] { parse_policy(text, "empty.policy"); });
    EXPECT_TRUE(contains(msg, "empty.policy")) << msg;
    EXPECT_TRUE(contains(lower(msg), "empty")) << msg;
  }
}

TEST(ParseError, WrongMagicLine) {
  for (std::string_view text :
       {"tetrisbench-policy 2\nfeatures lee\nweights 1 2 3 4\nend\n",
        "name x\ntetrisbench-policy 1\nfeatures lee\nweights 1 2 3 4\nend\n",
        "tetris-policy 1\nfeatures lee\nweights 1 2 3 4\nend\n"}) {
    const std::string msg = policy_error([&] { parse_policy(text, "magic.policy"); });
    EXPECT_TRUE(contains(msg, "magic.policy")) << msg;
    EXPECT_TRUE(contains(msg, "tetrisbench-policy")) << msg;
  }
}

TEST(ParseError, UnknownKey) {
  const std::string msg = policy_error([] {
    parse_policy("tetrisbench-policy 1\nfeatures lee\ncolour blue\nweights 1 2 3 4\nend\n", "k");
  });
  EXPECT_TRUE(contains(msg, "colour")) << msg;
  EXPECT_TRUE(contains(lower(msg), "unknown")) << msg;
}

TEST(ParseError, UnknownFeatureSet) {
  const std::string msg = policy_error([] {
    parse_policy("tetrisbench-policy 1\nfeatures fancy9\nweights 1 2 3 4\nend\n", "f");
  });
  EXPECT_TRUE(contains(msg, "fancy9")) << msg;
  EXPECT_TRUE(contains(lower(msg), "feature")) << msg;
}

TEST(ParseError, NonNumericWeight) {
  for (std::string_view bad : {"abc", "1.5x", "nan", "inf", "--1", "1,5"}) {
    const std::string text =
        "tetrisbench-policy 1\nfeatures lee\nweights 1 2 " + std::string(bad) + " 4\nend\n";
    const std::string msg = policy_error([&] { parse_policy(text, "w"); });
    EXPECT_TRUE(contains(msg, bad)) << bad << ": " << msg;
  }
}

TEST(ParseError, TruncatedWithoutEnd) {
  // Every proper prefix of a good file that cuts before `end` is rejected.
  const std::string good(kGood);
  const auto end_at = good.find("end\n");
  for (std::size_t cut = 1; cut <= end_at; ++cut) {
    const std::string text = good.substr(0, cut);
    const std::string msg = policy_error([&] { parse_policy(text, "t"); });
    EXPECT_FALSE(msg.empty()) << "cut at " << cut;
  }
  const std::string msg =
      policy_error([&] { parse_policy(good.substr(0, end_at), "cut.policy"); });
  EXPECT_TRUE(contains(msg, "cut.policy")) << msg;
  EXPECT_TRUE(contains(msg, "end")) << msg;
}

TEST(ParseError, MissingWeights) {
  const std::string msg = policy_error(
      [] { parse_policy("tetrisbench-policy 1\nname x\nfeatures lee\nend\n", "nw.policy"); });
  EXPECT_TRUE(contains(msg, "nw.policy")) << msg;
  EXPECT_TRUE(contains(msg, "weights")) << msg;
}

TEST(ParseError, MissingFeatures) {
  const std::string msg = policy_error(
      [] { parse_policy("tetrisbench-policy 1\nweights 1 2 3 4\nend\n", "nf.policy"); });
  EXPECT_TRUE(contains(msg, "features")) << msg;
}

// ---------------------------------------------------------------------------------------
// Dimensions

Policy with_weights(std::string_view set, int n) {
  Policy p;
  p.name = "dim";
  p.features = find_feature_set(set);
  p.weights.assign(n, 0.5);
  return p;
}

TEST(Dimension, WrongWeightCountThrows) {
  EXPECT_NO_THROW(check_dimension(with_weights("bcts", 8), Geometry{10, 10}));
  EXPECT_THROW(check_dimension(with_weights("bcts", 7), Geometry{10, 10}), PolicyError);
  EXPECT_THROW(check_dimension(with_weights("bcts", 9), Geometry{10, 10}), PolicyError);
  EXPECT_THROW(check_dimension(with_weights("lee", 0), Geometry{10, 10}), PolicyError);
  const std::string msg = policy_error([] { check_dimension(with_weights("dellacherie", 5), Geometry{10, 10}); });
  EXPECT_TRUE(contains(msg, "5")) << msg;
  EXPECT_TRUE(contains(msg, "6")) << msg;
  // A built-in loaded and then cut short.
  Policy p = load_policy("dt20");
  p.weights.pop_back();
  EXPECT_THROW(check_dimension(p, Geometry{10, 10}), PolicyError);
}

TEST(Dimension, Td44Needs4WPlus4) {
  const FeatureSet* td = find_feature_set("td44");
  ASSERT_NE(td, nullptr);
  EXPECT_EQ(td->dimension(10), 44);
  for (int w = 4; w <= 16; ++w) {
    EXPECT_EQ(td->dimension(w), 4 * w + 4) << w;
    EXPECT_NO_THROW(check_dimension(with_weights("td44", 4 * w + 4), Geometry{w, 10})) << w;
    EXPECT_THROW(check_dimension(with_weights("td44", 4 * w + 3), Geometry{w, 10}), PolicyError) << w;
    EXPECT_THROW(check_dimension(with_weights("td44", 4 * w + 5), Geometry{w, 10}), PolicyError) << w;
  }
  // 44 weights fit only W = 10.
  EXPECT_THROW(check_dimension(with_weights("td44", 44), Geometry{9, 10}), PolicyError);
  EXPECT_THROW(check_dimension(with_weights("td44", 44), Geometry{11, 10}), PolicyError);
}

TEST(Dimension, BertsekasNeeds2WPlus2) {
  const FeatureSet* b = find_feature_set("bertsekas");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->dimension(10), 22);
  for (int w = 4; w <= 16; ++w) {
    EXPECT_EQ(b->dimension(w), 2 * w + 2) << w;
    EXPECT_NO_THROW(check_dimension(with_weights("bertsekas", 2 * w + 2), Geometry{w, 10})) << w;
    EXPECT_THROW(check_dimension(with_weights("bertsekas", 2 * w + 1), Geometry{w, 10}), PolicyError) << w;
  }
}

TEST(Dimension, ScalarSetsDoNotDependOnWidth) {
  for (auto [name, n] : std::vector<std::pair<const char*, int>>{
           {"dellacherie", 6}, {"bcts", 8}, {"dt", 9}, {"eltetris", 6}, {"lee", 4}, {"pso7", 7}})
    for (int w = 4; w <= 16; ++w) EXPECT_EQ(find_feature_set(name)->dimension(w), n) << name << w;
}

TEST(Dimension, WeightNames) {
  const FeatureSet* td = find_feature_set("td44");
  ASSERT_NE(td, nullptr);
  EXPECT_EQ(weight_name(*td, 10, 0), "height[0]");
  EXPECT_EQ(weight_name(*td, 10, 9), "height[9]");
  EXPECT_EQ(weight_name(*td, 10, 10), "diff[0]");
  EXPECT_EQ(weight_name(*td, 10, 18), "diff[8]");
  EXPECT_EQ(weight_name(*td, 10, 19), "col_holes[0]");
  EXPECT_EQ(weight_name(*td, 10, 39), "row_fill[0]");
  EXPECT_EQ(weight_name(*td, 10, 43), "row_fill[4]");
  EXPECT_EQ(weight_name(*find_feature_set("bcts"), 10, 4), "holes");
}

// ---------------------------------------------------------------------------------------
// load_policy

TEST(Load, UnknownNameSaysUnknownPolicy) {
  const std::string msg = policy_error([] { load_policy("nosuchpolicyxyz"); });
  EXPECT_TRUE(contains(msg, "unknown policy")) << msg;
  EXPECT_TRUE(contains(msg, "nosuchpolicyxyz")) << msg;
}

TEST(Load, NonexistentPathThrows) {
  for (std::string_view path : {"/nonexistent-dir-tb/x.policy", "no_such_file.policy",
                                "./no-such-dir/bcts"}) {
    const std::string msg = policy_error([&] { load_policy(path); });
    EXPECT_TRUE(contains(msg, path)) << msg;
  }
}

TEST(Load, DirectoryThrows) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / "tb_policy_dir_test.d";
  std::filesystem::create_directories(dir);
  const std::string msg = policy_error([&] { load_policy(dir.string()); });
  EXPECT_TRUE(contains(msg, dir.string())) << msg;
  std::filesystem::remove(dir);
}

TEST(Load, FileRoundTrip) {
  const std::filesystem::path file =
      std::filesystem::path(testing::TempDir()) / "tb_policy_file_test.policy";
  const Policy p = load_policy("eltetris");
  {
    std::ofstream out(file, std::ios::binary);
    out << format_policy(p);
  }
  const Policy q = load_policy(file.string());
  expect_same_policy(p, q);
  // A truncated copy of the file is refused, naming the file.
  const std::string text = format_policy(p);
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << text.substr(0, text.size() / 2);
  }
  const std::string msg = policy_error([&] { load_policy(file.string()); });
  EXPECT_TRUE(contains(msg, file.string())) << msg;
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace tb
