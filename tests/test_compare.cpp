// The comparison driver: config errors, resume after a crash reaching the uninterrupted
// result, the report's held-out objects, and the Mann-Whitney U test.
#include <gtest/gtest.h>

#include <filesystem>

#include "compare_report.h"
#include "compare_run.h"
#include "experiment_config.h"
#include "stats.h"

namespace tb::opt {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kTiny = R"(
name = "unit"
features = "lee"
runs = 2
seed = 3
[rules]
board = "6x8"
[fitness]
games = 2
max_pieces = 200
[budget]
pieces = 60000
[heldout]
games = 4
max_pieces = 500
targets = [3]
[[optimizer]]
optimizer = "ce"
options = { samples = 10, elite = 0.2 }
[[optimizer]]
label = "pso-a1"
optimizer = "pso-article1"
)";

std::string temp_dir(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("tb-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(p);
  return p.string();
}

json without_timing(json r) {
  r.erase("seconds");
  for (json& rec : r["records"]) rec.erase("seconds");
  return r;
}

TEST(ExperimentConfig, ParsesTheTinyConfig) {
  const ExperimentConfig c = parse_experiment(kTiny, "tiny.toml");
  EXPECT_EQ(c.name, "unit");
  EXPECT_EQ(c.rules.geometry.width, 6);
  EXPECT_EQ(c.optimizers.size(), 2u);
  EXPECT_EQ(c.optimizers[1].label, "pso-a1");
  EXPECT_EQ(c.budget_pieces, 60000);
  EXPECT_EQ(c.heldout_boards.size(), 1u);
}

TEST(ExperimentConfig, EveryShippedConfigParses) {
  int parsed = 0;
  for (const auto& entry : fs::directory_iterator(TB_CONFIG_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    SCOPED_TRACE(entry.path().string());
    const ExperimentConfig c = load_experiment(entry.path().string());
    EXPECT_FALSE(c.optimizers.empty());
    EXPECT_GT(c.budget_pieces, 0);
    ++parsed;
  }
  EXPECT_GE(parsed, 3);  // small, paper-scale and learn-bcts
}

TEST(ExperimentConfig, RejectsBadInputWithTheKey) {
  const std::string base = "name = \"x\"\n[budget]\npieces = 10\n[[optimizer]]\noptimizer = \"ce\"\n";
  auto message = [](const std::string& text) {
    try {
      parse_experiment(text, "bad.toml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(base + "[rules]\nboard = \"3x9\"\n").find("rules.board"), std::string::npos);
  EXPECT_NE(message(base + "colour = 3\n").find("unknown key"), std::string::npos);
  EXPECT_NE(message("name = \"x\"\n[budget]\npieces = 10\n[[optimizer]]\noptimizer = \"sgd\"\n").find("unknown optimizer"),
            std::string::npos);
  EXPECT_NE(message("name = \"x\"\n[[optimizer]]\noptimizer = \"ce\"\n").find("budget"), std::string::npos);
  EXPECT_NE(message("name = \"x\"\n[budget\n").find("bad.toml:2"), std::string::npos);
  EXPECT_NE(message(base + "features = \"nope\"\n").find("features"), std::string::npos);
}

TEST(ExperimentConfig, TdEntries) {
  const std::string head = "name = \"x\"\nfeatures = \"bcts\"\n[budget]\npieces = 100000\n";
  const ExperimentConfig c = parse_experiment(
      head + "[[optimizer]]\noptimizer = \"cmaes\"\n[[optimizer]]\noptimizer = \"tdlambda\"\n"
             "options = { alpha = 0.02, lambda = 0.5 }\n[[optimizer]]\noptimizer = \"ntuple\"\n"
             "[[optimizer]]\nlabel = \"b\"\noptimizer = \"td0\"\nfeatures = \"bertsekas\"\n",
      "td.toml");
  ASSERT_EQ(c.optimizers.size(), 4u);
  EXPECT_EQ(c.optimizers[0].features, "bcts");  // the experiment's set
  EXPECT_EQ(c.optimizers[1].features, "td44");  // the TD default
  EXPECT_EQ(c.optimizers[2].features, "ntuple-v1");
  EXPECT_EQ(c.optimizers[3].features, "bertsekas");
  auto message = [&](const std::string& entry) {
    try {
      parse_experiment(head + "[[optimizer]]\n" + entry, "bad.toml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("optimizer = \"td0\"\nfeatures = \"bcts\"\n").find("move feature"), std::string::npos);
  EXPECT_NE(message("optimizer = \"tdlambda\"\noptions = { beta = 1 }\n").find("unknown td option 'beta'"),
            std::string::npos);
  EXPECT_NE(message("optimizer = \"td0\"\noptions = { lambda = 0.5 }\n").find("use tdlambda"), std::string::npos);
  EXPECT_NE(message("optimizer = \"ntuple\"\noptions = { alpha = -1 }\n").find("alpha"), std::string::npos);
  EXPECT_NE(message("optimizer = \"ntuple\"\n[heldout]\nboards = [\"10x12\"]\n").find("only its training board"),
            std::string::npos);
  EXPECT_NE(message("optimizer = \"tdlambda\"\noptions = { games_per_step = 1000, pieces_per_step = 1000 }\n")
                .find("at least one step"),
            std::string::npos);
}

struct Crash {};

TEST(CompareRun, ResumeAfterACrashEndsLikeAnUninterruptedRun) {
  const ExperimentConfig c = parse_experiment(kTiny, "tiny.toml");
  for (int k = 0; k < 2; ++k) {
    const std::string whole = temp_dir("whole" + std::to_string(k));
    const std::string crashed = temp_dir("crash" + std::to_string(k));
    const json expected = run_one(c, k, 1, whole, 1, features_scalar, nullptr);
    ASSERT_GT(expected["generations"].get<int>(), 4);
    // "Crash" right after the checkpoint of generation 3 (as kill -9 would between writes).
    EXPECT_THROW(run_one(c, k, 1, crashed, 2, features_scalar,
                         [](const RunProgress& p) {
                           if (p.generation == 3) throw Crash{};
                         }),
                 Crash);
    ASSERT_TRUE(fs::exists(crashed + "/checkpoint.json"));
    ASSERT_FALSE(fs::exists(crashed + "/result.json"));
    const json resumed = run_one(c, k, 1, crashed, 2, features_scalar, nullptr);
    EXPECT_EQ(without_timing(resumed), without_timing(expected)) << c.optimizers[k].label;
    fs::remove_all(whole);
    fs::remove_all(crashed);
  }
}

TEST(CompareReport, HeldOutObjectsAndTargets) {
  const ExperimentConfig c = parse_experiment(kTiny, "tiny.toml");
  const std::string dir = temp_dir("report");
  std::vector<json> runs;
  for (int k = 0; k < 2; ++k)
    for (int r = 0; r < 2; ++r)
      runs.push_back(run_one(c, k, r, dir + "/" + std::to_string(k) + "-" + std::to_string(r), 2,
                             features_scalar, nullptr));
  const json report = build_report(c, runs, json::object());
  ASSERT_EQ(report["optimizers"].size(), 2u);
  for (const json& o : report["optimizers"]) {
    const json& h = o["held_out"];
    EXPECT_EQ(h["games"].get<int>(), 2 * 4);
    EXPECT_TRUE(h["mean_lines"].is_number());
    EXPECT_EQ(h["ci95"].size(), 2u);
    EXPECT_EQ(o["targets"][0]["runs"].get<int>(), 2);
    for (double p : o["pieces"]["per_run"]) EXPECT_LE(p, 60000);  // the budget is a hard cap
  }
  int best = 0;
  for (const json& o : report["optimizers"]) best += o["vs_best"].is_null();
  EXPECT_EQ(best, 1);
  fs::remove_all(dir);
}

TEST(Stats, MannWhitneyExactSmallSamples) {
  const std::vector<double> a = {1, 2, 3}, b = {4, 5, 6};
  const MannWhitney m = mann_whitney(a, b);
  EXPECT_EQ(m.u, 0);
  EXPECT_TRUE(m.exact);
  EXPECT_NEAR(m.p, 2.0 / 20.0, 1e-12);  // only the two extreme splits of C(6,3) = 20
  const std::vector<double> same = {1, 1, 1};
  EXPECT_NEAR(mann_whitney(same, same).p, 1.0, 1e-12);
  EXPECT_EQ(mann_whitney(b, a).u, 9);
}

TEST(Stats, MeanCi) {
  const std::vector<double> v = {1, 2, 3, 4};
  const MeanCi ci = mean_ci95(v);
  EXPECT_DOUBLE_EQ(ci.mean, 2.5);
  EXPECT_NEAR(ci.high - ci.mean, 3.1824 * std::sqrt(5.0 / 3.0) / 2.0, 1e-3);
}

}  // namespace
}  // namespace tb::opt
